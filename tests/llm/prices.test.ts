import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors.js';
import { costOf, defaultPriceTable, loadPriceTable, priceFor, worstCaseCost } from '../../src/llm/prices.js';

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'openai');

describe('priceFor', () => {
  it('finds a model by its exact name', () => {
    expect(priceFor('gpt-4o-mini')).toEqual({ input: 0.15, cachedInput: 0.075, output: 0.6 });
    expect(priceFor('gpt-4o')).toEqual({ input: 2.5, cachedInput: 1.25, output: 10 });
    expect(priceFor('o3')).toEqual({
      input: 2,
      cachedInput: 0.5,
      output: 8,
      flex: { input: 1, cachedInput: 0.25, output: 4 },
    });
  });

  it('finds a dated snapshot under the model it belongs to, never under a shorter name', () => {
    expect(priceFor('gpt-4o-mini-2024-07-18')).toBe(defaultPriceTable['gpt-4o-mini']);
    expect(priceFor('gpt-4o-2024-08-06')).toBe(defaultPriceTable['gpt-4o']);
    expect(priceFor('gpt-4.1-nano-2025-04-14')).toBe(defaultPriceTable['gpt-4.1-nano']);
    expect(priceFor('o4-mini-2025-04-16')).toBe(defaultPriceTable['o4-mini']);
    expect(priceFor('gpt-5-mini-2025-08-07')).toBe(defaultPriceTable['gpt-5-mini']);
  });

  it('finds no inherited member: Object.prototype names and their dated forms are unknown models', () => {
    for (const model of [
      'constructor',
      'toString',
      '__proto__',
      'hasOwnProperty',
      'valueOf',
      'constructor-2024-07-18',
      '__proto__-2025-01-01',
    ]) {
      expect(priceFor(model), model).toBeNull();
    }
  });

  it('an entry whose amounts are not finite numbers is no price', () => {
    const table = {
      broken: { input: Number.NaN, cachedInput: 0, output: 1 },
      huge: { input: 1, cachedInput: 1, output: Infinity },
    };
    expect(priceFor('broken', table)).toBeNull();
    expect(priceFor('huge', table)).toBeNull();
  });

  it('returns null for an unknown model rather than guessing from a similar name', () => {
    expect(priceFor('gpt-5.2')).toBeNull();
    expect(priceFor('gpt-4o-mini-audio-preview')).toBeNull();
    expect(priceFor('gpt-4o-realtime')).toBeNull();
    expect(priceFor('llama3.1:8b')).toBeNull();
    expect(priceFor('openai/gpt-4o')).toBeNull();
    expect(priceFor('gpt-4o-latest')).toBeNull();
    expect(priceFor('')).toBeNull();
  });

  it('looks in the table it is given', () => {
    expect(priceFor('my-model', { 'my-model': { input: 1, cachedInput: 1, output: 2 } })).toEqual({
      input: 1,
      cachedInput: 1,
      output: 2,
    });
    expect(priceFor('gpt-4o', {})).toBeNull();
  });
});

describe('costOf and worstCaseCost', () => {
  const price = { input: 2, cachedInput: 0.5, output: 8 };

  it('prices cached prompt tokens at cachedInput and the rest of the prompt at input', () => {
    // 10 000 prompt tokens of which 4 000 cached, 1 000 completion tokens:
    // 6 000 × $2/M + 4 000 × $0.5/M + 1 000 × $8/M = 0.012 + 0.002 + 0.008 = $0.022
    expect(costOf({ promptTokens: 10_000, cachedPromptTokens: 4_000, completionTokens: 1_000 }, price)).toBeCloseTo(
      0.022,
      12,
    );
  });

  it('costs nothing for no tokens, and a million output tokens cost the output price', () => {
    expect(costOf({ promptTokens: 0, cachedPromptTokens: 0, completionTokens: 0 }, price)).toBe(0);
    expect(costOf({ promptTokens: 0, cachedPromptTokens: 0, completionTokens: 1_000_000 }, price)).toBe(8);
  });

  it('never charges more cached tokens than there were prompt tokens', () => {
    // A server reporting cached > prompt: all 100 prompt tokens count as cached.
    expect(costOf({ promptTokens: 100, cachedPromptTokens: 500, completionTokens: 0 }, price)).toBeCloseTo(
      (100 * 0.5) / 1_000_000,
      15,
    );
  });

  it('takes the whole prompt as uncached and every allowed output token as used', () => {
    // 3 000 × $2/M + 2 000 × $8/M = 0.006 + 0.016 = $0.022
    expect(worstCaseCost(3_000, 2_000, price)).toBeCloseTo(0.022, 12);
    expect(worstCaseCost(0, 0, price)).toBe(0);
  });
});

describe('loadPriceTable (AUTOHEDGE_PRICES)', () => {
  it('is the built-in table when the variable is unset', async () => {
    expect(await loadPriceTable({})).toBe(defaultPriceTable);
  });

  it('lays the file over the built-in table; a missing cachedInput is charged at input', async () => {
    const table = await loadPriceTable({ AUTOHEDGE_PRICES: path.join(fixtures, 'prices-override.json') });

    expect(priceFor('gpt-4o', table)).toEqual({ input: 2, cachedInput: 1, output: 8 });
    expect(priceFor('gpt-4o-2024-08-06', table)).toEqual({ input: 2, cachedInput: 1, output: 8 });
    expect(priceFor('llama3.1:8b', table)).toEqual({ input: 0, cachedInput: 0, output: 0 });
    expect(priceFor('my-finetune', table)).toEqual({ input: 3, cachedInput: 3, output: 12 });
    expect(priceFor('gpt-4.1', table)).toEqual(defaultPriceTable['gpt-4.1']);
    // The built-in table is untouched.
    expect(priceFor('gpt-4o')).toEqual({ input: 2.5, cachedInput: 1.25, output: 10 });
  });

  it('rejects a file with a wrong value, naming the path and the entry', async () => {
    const file = path.join(fixtures, 'prices-invalid.json');

    const error = await loadPriceTable({ AUTOHEDGE_PRICES: file }).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(
      new RegExp(
        `^the price file ${escape(file)} \\(AUTOHEDGE_PRICES\\) is invalid at gpt-4o\\.input: .*expected number`,
      ),
    );
  });

  it('rejects unknown fields, negative prices, invalid JSON and a missing file', async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'autohedge-prices-'));
    const write = (name: string, text: string) => {
      const file = path.join(folder, name);
      writeFileSync(file, text);
      return file;
    };
    const typo = write('typo.json', '{"gpt-4o":{"input":1,"ouput":2}}');
    const negative = write('negative.json', '{"gpt-4o":{"input":-1,"output":2}}');
    const broken = write('broken.json', '{"gpt-4o":');
    const missing = path.join(folder, 'missing.json');

    const messageOf = (file: string) =>
      loadPriceTable({ AUTOHEDGE_PRICES: file }).then(
        () => 'loaded',
        (error: Error) => `${error.name}: ${error.message}`,
      );

    expect(await messageOf(typo)).toMatch(
      new RegExp(`^ConfigError: the price file ${escape(typo)} \\(AUTOHEDGE_PRICES\\) is invalid at gpt-4o`),
    );
    expect(await messageOf(negative)).toMatch(
      new RegExp(
        `^ConfigError: the price file ${escape(negative)} \\(AUTOHEDGE_PRICES\\) is invalid at gpt-4o\\.input`,
      ),
    );
    expect(await messageOf(broken)).toMatch(
      new RegExp(`^ConfigError: the price file ${escape(broken)} \\(AUTOHEDGE_PRICES\\) is not valid JSON`),
    );
    expect(await messageOf(missing)).toBe(
      `ConfigError: cannot read the price file ${missing} (AUTOHEDGE_PRICES): ENOENT`,
    );
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
