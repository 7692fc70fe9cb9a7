/**
 * What a model call costs: a price table in USD per 1M tokens, looked up by model name,
 * and the arithmetic the budget (--max-cost) and the report use.
 *
 * The built-in prices are OpenAI's published list prices (standard tier, as of 2026).
 * They change; a JSON file named by AUTOHEDGE_PRICES overrides or adds entries:
 *   { "gpt-4.1": { "input": 2, "cachedInput": 0.5, "output": 8 }, "my-local-model": { "input": 0, "output": 0 } }
 * A model that is in neither has no price (null), never a guessed one.
 */
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { ConfigError } from '../errors.js';
import { formatZodIssues } from '../zod-issues.js';
import type { Usage } from './types.js';

/** USD per 1M tokens. */
export interface Price {
  input: number;
  /** Prompt tokens served from OpenAI's prompt cache. */
  cachedInput: number;
  output: number;
}

export type PriceTable = Readonly<Record<string, Price>>;

export const defaultPriceTable: PriceTable = Object.freeze({
  'gpt-5': { input: 1.25, cachedInput: 0.125, output: 10 },
  'gpt-5-mini': { input: 0.25, cachedInput: 0.025, output: 2 },
  'gpt-5-nano': { input: 0.05, cachedInput: 0.005, output: 0.4 },
  'gpt-4.1': { input: 2, cachedInput: 0.5, output: 8 },
  'gpt-4.1-mini': { input: 0.4, cachedInput: 0.1, output: 1.6 },
  'gpt-4.1-nano': { input: 0.1, cachedInput: 0.025, output: 0.4 },
  'gpt-4o': { input: 2.5, cachedInput: 1.25, output: 10 },
  'gpt-4o-mini': { input: 0.15, cachedInput: 0.075, output: 0.6 },
  o3: { input: 2, cachedInput: 0.5, output: 8 },
  'o4-mini': { input: 1.1, cachedInput: 0.275, output: 4.4 },
});

const perMillion = 1_000_000;

/**
 * The price of a model: an exact entry, else the entry its dated snapshot belongs to
 * (`gpt-4o-mini-2024-07-18` → `gpt-4o-mini`). Only a date suffix is stripped, so
 * `gpt-4o-mini` never falls back to `gpt-4o`, nor `gpt-5.2` to `gpt-5`.
 */
export function priceFor(model: string, table: PriceTable = defaultPriceTable): Price | null {
  const exact = table[model];
  if (exact) return exact;
  const snapshot = /^(.+)-\d{4}-\d{2}-\d{2}$/.exec(model);
  if (snapshot?.[1]) return table[snapshot[1]] ?? null;
  return null;
}

/** USD for one call's usage: cached prompt tokens at cachedInput, the rest at input. */
export function costOf(usage: Usage, price: Price): number {
  const cached = Math.min(usage.cachedPromptTokens, usage.promptTokens);
  const uncached = usage.promptTokens - cached;
  return (uncached * price.input + cached * price.cachedInput + usage.completionTokens * price.output) / perMillion;
}

/** The most a call can cost: the whole prompt uncached and every allowed output token used. */
export function worstCaseCost(promptTokensEstimate: number, maxTokens: number, price: Price): number {
  return (promptTokensEstimate * price.input + maxTokens * price.output) / perMillion;
}

const amount = z.number().finite().nonnegative();
const priceFileSchema = z.record(
  z.string().min(1),
  z.strictObject({ input: amount, cachedInput: amount.optional(), output: amount }),
);

/**
 * The built-in table, with the entries of the file named by AUTOHEDGE_PRICES laid over
 * it. An entry without cachedInput is charged its input price for cached tokens.
 */
export async function loadPriceTable(env: Readonly<Record<string, string | undefined>> = process.env): Promise<PriceTable> {
  const path = env['AUTOHEDGE_PRICES'];
  if (!path) return defaultPriceTable;
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const reason = (error as { code?: string }).code ?? String(error);
    throw new ConfigError(`cannot read the price file ${path} (AUTOHEDGE_PRICES): ${reason}`, { cause: error });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`the price file ${path} (AUTOHEDGE_PRICES) is not valid JSON: ${(error as Error).message}`, { cause: error });
  }
  const parsed = priceFileSchema.safeParse(json);
  if (!parsed.success) {
    throw new ConfigError(
      `the price file ${path} (AUTOHEDGE_PRICES) is invalid at ${formatZodIssues(parsed.error, { limit: 1, root: '(top level)' })}; expected { "<model>": { "input": USD per 1M, "cachedInput"?: USD per 1M, "output": USD per 1M } }`,
    );
  }
  const overrides = Object.fromEntries(
    Object.entries(parsed.data).map(([model, price]) => [model, { input: price.input, cachedInput: price.cachedInput ?? price.input, output: price.output }]),
  );
  return Object.freeze({ ...defaultPriceTable, ...overrides });
}
