/**
 * What a model call costs: a price table in USD per 1M tokens, looked up by model name,
 * and the arithmetic the budget (--max-cost) and the report use.
 *
 * The built-in prices are OpenAI's published list prices (standard tier, as of 2026).
 * They change; AUTOHEDGE_PRICES (inline JSON, or a JSON file's path) overrides or adds entries:
 *   { "gpt-4.1": { "input": 2, "cachedInput": 0.5, "output": 8 }, "my-local-model": { "input": 0, "output": 0 } }
 * An entry may also give `cacheWrite` (a cache write billed apart, as Anthropic-style caches do)
 * and `flex` ({ input, cachedInput?, output }: the `--service-tier flex` rates).
 * A model that is in neither has no price (null), never a guessed one.
 */
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { ConfigError } from '../errors.js';
import { formatZodIssues } from '../zod-issues.js';
import type { Usage } from './types.js';

/** The token rates of one tier, USD per 1M tokens. */
export interface TokenRates {
  input: number;
  /** Prompt tokens read from the provider's prompt cache. */
  cachedInput: number;
  output: number;
  /** Prompt tokens written to the cache, where the provider bills a write apart; absent: the input price. */
  cacheWrite?: number;
}

/** USD per 1M tokens. */
export interface Price extends TokenRates {
  /** USD per request on top of the tokens: a search's fee (Exa's per search, OpenAI's per web search call). */
  perCall?: number;
  /** The flex tier's rates (`--service-tier flex`), for the models that have one. */
  flex?: TokenRates;
}

export type PriceTable = Readonly<Record<string, Price>>;

export const defaultPriceTable: PriceTable = Object.freeze({
  // Flex: half the standard rates, on the models OpenAI offers it for.
  'gpt-5': { input: 1.25, cachedInput: 0.125, output: 10, flex: { input: 0.625, cachedInput: 0.0625, output: 5 } },
  'gpt-5-mini': {
    input: 0.25,
    cachedInput: 0.025,
    output: 2,
    flex: { input: 0.125, cachedInput: 0.0125, output: 1 },
  },
  'gpt-5-nano': {
    input: 0.05,
    cachedInput: 0.005,
    output: 0.4,
    flex: { input: 0.025, cachedInput: 0.0025, output: 0.2 },
  },
  'gpt-4.1': { input: 2, cachedInput: 0.5, output: 8 },
  'gpt-4.1-mini': { input: 0.4, cachedInput: 0.1, output: 1.6 },
  'gpt-4.1-nano': { input: 0.1, cachedInput: 0.025, output: 0.4 },
  'gpt-4o': { input: 2.5, cachedInput: 1.25, output: 10 },
  'gpt-4o-mini': { input: 0.15, cachedInput: 0.075, output: 0.6 },
  o3: { input: 2, cachedInput: 0.5, output: 8, flex: { input: 1, cachedInput: 0.25, output: 4 } },
  'o4-mini': { input: 1.1, cachedInput: 0.275, output: 4.4, flex: { input: 0.55, cachedInput: 0.138, output: 2.2 } },
  // DeepSeek (V3.2 list prices): a cache hit (prompt_cache_hit_tokens) at a tenth of a miss.
  'deepseek-chat': { input: 0.28, cachedInput: 0.028, output: 0.42 },
  'deepseek-reasoner': { input: 0.28, cachedInput: 0.028, output: 0.42 },
  // Search models: tokens plus the web search fee per call ($25 per 1k calls for the
  // non-reasoning preview models, whose search content tokens are free; $10 per 1k for gpt-5-search-api).
  'gpt-4o-mini-search-preview': { input: 0.15, cachedInput: 0.15, output: 0.6, perCall: 0.025 },
  'gpt-4o-search-preview': { input: 2.5, cachedInput: 2.5, output: 10, perCall: 0.025 },
  'gpt-5-search-api': { input: 1.25, cachedInput: 0.125, output: 10, perCall: 0.01 },
  // Exa: $7 per 1k searches with up to 10 results, text and highlights included (March 2026 list price).
  exa: { input: 0, cachedInput: 0, output: 0, perCall: 0.007 },
});

const perMillion = 1_000_000;

/**
 * The price of a model: an exact entry, else the entry its dated snapshot belongs to
 * (`gpt-4o-mini-2024-07-18` → `gpt-4o-mini`). Only a date suffix is stripped, so
 * `gpt-4o-mini` never falls back to `gpt-4o`, nor `gpt-5.2` to `gpt-5`.
 */
export function priceFor(model: string, table: PriceTable = defaultPriceTable): Price | null {
  const exact = ownPrice(table, model);
  if (exact) return exact;
  const snapshot = /^(.+)-\d{4}-\d{2}-\d{2}$/.exec(model);
  if (snapshot?.[1]) return ownPrice(table, snapshot[1]);
  return null;
}

/**
 * The table's own entry only: `constructor`, `toString` or `__proto__` as a model name
 * must find nothing (an inherited function is not a price, and its NaN cost would
 * pass every cap). An entry whose amounts are not finite numbers is no price either.
 */
function ownPrice(table: PriceTable, model: string): Price | null {
  if (!Object.hasOwn(table, model)) return null;
  const price = table[model];
  if (
    !price ||
    ![price.input, price.cachedInput, price.output].every(
      (amount) => typeof amount === 'number' && Number.isFinite(amount) && amount >= 0,
    )
  )
    return null;
  return price;
}

/** The rates a call is billed at: the flex tier's when flex served it and the model has flex rates. */
export function ratesFor(usage: Pick<Usage, 'serviceTier'>, price: Price): TokenRates {
  return usage.serviceTier === 'flex' && price.flex ? price.flex : price;
}

/** USD for one call's usage: cached prompt tokens at cachedInput, cache writes at cacheWrite, the rest at input. */
export function costOf(usage: Usage, price: Price): number {
  const rates = ratesFor(usage, price);
  const cached = Math.min(usage.cachedPromptTokens, usage.promptTokens);
  const written = Math.min(usage.cacheWriteTokens ?? 0, usage.promptTokens - cached);
  const uncached = usage.promptTokens - cached - written;
  return (
    (uncached * rates.input +
      cached * rates.cachedInput +
      written * (rates.cacheWrite ?? rates.input) +
      usage.completionTokens * rates.output) /
    perMillion
  );
}

/** What the cache saved on one call: cached tokens × (input price − cached price), at the tier that served it. */
export function cacheSavingOf(usage: Usage, price: Price): number {
  const rates = ratesFor(usage, price);
  const cached = Math.min(usage.cachedPromptTokens, usage.promptTokens);
  return (cached * (rates.input - rates.cachedInput)) / perMillion;
}

/** USD for one search: its per-call fee, plus its tokens when a model answered it. */
export function searchCostOf(usage: Usage | undefined, price: Price): number {
  return (price.perCall ?? 0) + (usage ? costOf(usage, price) : 0);
}

/** The most a call can cost: the whole prompt uncached and every allowed output token used. */
export function worstCaseCost(promptTokensEstimate: number, maxTokens: number, price: Price): number {
  return (promptTokensEstimate * price.input + maxTokens * price.output) / perMillion;
}

const amount = z.number().finite().nonnegative();
const flexSchema = z.strictObject({
  input: amount,
  cachedInput: amount.optional(),
  output: amount,
  cacheWrite: amount.optional(),
});
const priceFileSchema = z.record(
  z.string().min(1),
  z
    .strictObject({
      input: amount.optional(),
      cachedInput: amount.optional(),
      output: amount.optional(),
      cacheWrite: amount.optional(),
      perCall: amount.optional(),
      flex: flexSchema.optional(),
    })
    // Token prices, or (a search service such as `"exa"`) a per-call price alone.
    .refine(
      (price) =>
        (price.input !== undefined && price.output !== undefined) ||
        (price.perCall !== undefined && price.input === undefined && price.output === undefined),
      {
        message: 'give input and output (USD per 1M tokens), or perCall alone (USD per search)',
      },
    ),
);

/**
 * The built-in table, with the entries of AUTOHEDGE_PRICES laid over it: inline JSON
 * (a value starting with "{") or the path of a JSON file. An entry without
 * cachedInput is charged its input price for cached tokens.
 */
export async function loadPriceTable(
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<PriceTable> {
  const value = env['AUTOHEDGE_PRICES']?.trim();
  if (!value) return defaultPriceTable;
  // A price table is a JSON object, so it starts with "{"; anything else is a file's path.
  const inline = value.startsWith('{');
  const source = inline ? 'the inline price table' : `the price file ${value}`;
  const text = inline ? value : await readPriceFile(value);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`${source} (AUTOHEDGE_PRICES) is not valid JSON: ${(error as Error).message}`, {
      cause: error,
    });
  }
  const parsed = priceFileSchema.safeParse(json);
  if (!parsed.success) {
    throw new ConfigError(
      `${source} (AUTOHEDGE_PRICES) is invalid at ${formatZodIssues(parsed.error, { limit: 1, root: '(top level)' })}; expected { "<model>": { "input": USD per 1M, "cachedInput"?: USD per 1M, "output": USD per 1M, "perCall"?: USD per request } } (or { "exa": { "perCall": USD per search } }); "cacheWrite"?: USD per 1M and "flex"?: { "input", "cachedInput"?, "output" } are optional`,
    );
  }
  const overrides = Object.fromEntries(
    Object.entries(parsed.data).map(([model, price]): [string, Price] => {
      const input = price.input ?? 0;
      const flex = price.flex;
      return [
        model,
        {
          input,
          cachedInput: price.cachedInput ?? input,
          output: price.output ?? 0,
          ...(price.cacheWrite !== undefined ? { cacheWrite: price.cacheWrite } : {}),
          ...(price.perCall !== undefined ? { perCall: price.perCall } : {}),
          ...(flex ? { flex: { ...flex, cachedInput: flex.cachedInput ?? flex.input } } : {}),
        },
      ];
    }),
  );
  return Object.freeze({ ...defaultPriceTable, ...overrides });
}

async function readPriceFile(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    const reason = (error as { code?: string }).code ?? String(error);
    throw new ConfigError(`cannot read the price file ${path} (AUTOHEDGE_PRICES): ${reason}`, { cause: error });
  }
}
