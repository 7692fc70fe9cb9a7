// --rpm / --tpm reach the pacer, and the universe's end says what pacing did: the waits,
// the 429s met, tokens/min against the limit — over real HTTP to a loopback model.
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import type { SearchProvider } from '../../src/search/types.js';
import { captureIo } from '../support/cli.js';
import { fakeMarket, makeSnapshot } from '../support/market.js';
import { startAnalysisServer, type AnalysisServer } from '../queue/support/analysis-server.js';

const search: SearchProvider = { search: async () => [] };
let server: AnalysisServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('analyze: pacing', () => {
  it('--tpm paces a universe and the end summary reports the waits, the 429s and tokens/min against it', async () => {
    server = await startAnalysisServer();
    const io = captureIo();
    io.env.OPENAI_API_KEY = 'sk-pacing-test-0000';
    const code = await runCli(
      ['analyze', 'PACEA', 'PACEB', '--base-url', server.url, '--jsonl', '--no-save', '--tpm', '60000', '--rpm', '600'],
      io,
      { market: fakeMarket((ticker) => makeSnapshot(ticker)), search, now: () => new Date('2026-11-28T12:00:00Z') },
    );
    expect(code).toBe(0);
    // A quota is per model: the Director and three desks on gpt-4.1, Sentiment on gpt-4o-mini, 60,000 each.
    expect(io.err()).toMatch(
      /rate limits: 12 model requests waited \d+\.\d s in all for budget, 0 answered 429; [\d,]+ tokens\/min of 120,000 allowed \(\d+ %\)/,
    );
    expect(io.err()).not.toContain('sk-pacing-test');
  });

  it('a bad --rpm or --tpm is a usage error before any request', async () => {
    for (const flag of ['--rpm', '--tpm']) {
      const io = captureIo();
      io.env.OPENAI_API_KEY = 'sk-pacing-test-0000';
      expect(await runCli(['analyze', 'ACME', flag, 'lots'], io)).toBe(2);
      expect(io.err()).toContain(`${flag} must be a positive number`);
    }
  });
});
