import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import type { AnalysisResult } from '../../src/result/types.js';
import { captureIo } from '../support/cli.js';

// Quant alone (gpt-4.1), not Sentiment: a desk that needs no Exa replay.

async function demoCost(prices: string) {
  const base = captureIo();
  const io = captureIo({ env: { ...base.env, AUTOHEDGE_PRICES: prices } });
  const code = await runCli(['analyze', 'ACME', '--demo', '--agent', 'quant', '--json', '--no-save', '--quiet'], io);
  return { code, io, result: code === 0 ? (JSON.parse(io.out()) as AnalysisResult) : null };
}

describe('AUTOHEDGE_PRICES', () => {
  it('accepts an inline JSON price table', async () => {
    const { code, result } = await demoCost(JSON.stringify({ 'gpt-4.1': { input: 0, output: 0 } }));
    expect(code).toBe(0);
    expect(result?.usage.costUsd).toBe(0);
  });

  it('accepts the path of a JSON file', async () => {
    const io = captureIo();
    const file = join(io.cwd, 'prices.json');
    writeFileSync(file, JSON.stringify({ 'gpt-4.1': { input: 1, output: 3 } }));
    const { code, result } = await demoCost(file);
    expect(code).toBe(0);
    expect(result?.usage.costUsd).toBeCloseTo(
      (result!.usage.promptTokens * 1 + result!.usage.completionTokens * 3) / 1e6,
      10,
    );
    expect(result?.usage.costUsd).toBeGreaterThan(0);
  });

  it('inline JSON that does not parse is one ConfigError line, exit 2', async () => {
    const { code, io } = await demoCost('{"gpt-4.1": ');
    expect(code).toBe(2);
    expect(io.err()).toMatch(/^autohedge: the inline price table \(AUTOHEDGE_PRICES\) is not valid JSON: .+\n$/);
  });

  it('a missing file names the path', async () => {
    const { code, io } = await demoCost('/nonexistent/prices.json');
    expect(code).toBe(2);
    expect(io.err()).toBe(
      'autohedge: cannot read the price file /nonexistent/prices.json (AUTOHEDGE_PRICES): ENOENT\n',
    );
  });
});
