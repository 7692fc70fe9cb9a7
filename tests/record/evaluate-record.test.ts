import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runBuilt } from '../smoke/support.js';
import { goodAnswer, agentOf } from '../support/faults.js';
import { recordAnalyze, useScratch } from './support.js';

/**
 * The whole loop through the BUILT CLI: `analyze ACME --as-of` recorded against loopback
 * OpenAI (Yahoo answered by the synthetic preload, the demo's synthetic year of ACME and
 * GLBX), then `evaluate --record`, then `evaluate --replay` with nothing listening.
 */

const scratch = useScratch('autohedge-evaluate-record-');
const keys = {
  openai: 'sk-evaluate-canary-0123456789',
  yahooCookie: 'cookie-evaluate-canary',
  yahooCrumb: 'crumb-evaluate-canary',
};

describe('analyze --as-of, then evaluate --record / --replay', () => {
  it('scores the historical run; the replay prints the same evaluation', async () => {
    const home = scratch('home');
    const analysis = await recordAnalyze({
      cassette: scratch('analyze.cassette.json'),
      openai: (body, _index, request) => goodAnswer(agentOf(request), body),
      exa: false,
      keys,
      home,
      args: ['--as-of', '2026-06-01'],
    });
    expect(analysis.run.stderr).not.toContain('Error');
    const result = JSON.parse(analysis.run.stdout) as {
      asOf: string;
      asOfMode: string;
      market: { bars: Array<{ date: string }> };
      decision: unknown;
    };
    expect(result).toMatchObject({ asOf: '2026-06-01T20:00:00.000Z', asOfMode: 'historical' });
    expect(result.market.bars.at(-1)!.date).toBe('2026-06-01');
    expect(result.decision).not.toBeNull();

    const cassette = scratch('evaluate.cassette.json');
    const args = ['evaluate', '--benchmark', 'GLBX', '--horizon', '5,21', '--json', '--no-save'];
    const recorded = await runBuilt([...args, '--record', cassette], {
      home,
      nodeArguments: ['--import', new URL('../smoke/synthetic-yahoo.preload.mjs', import.meta.url).href],
      env: { YAHOO_STUB_COOKIE: keys.yahooCookie, YAHOO_STUB_CRUMB: keys.yahooCrumb },
    });
    expect(recorded.stderr).toContain(`recorded the run's HTTP exchanges to ${cassette}`);
    // evaluate scores closes: no fundamentals source, so nothing to say about SEC's User-Agent.
    expect(recorded.stderr).not.toContain('SEC EDGAR');
    expect(recorded.code).toBe(0);
    const evaluation = JSON.parse(recorded.stdout) as {
      decisions: Array<{
        entrySession: string;
        horizons: Array<{ horizon: number; outcome: string; entryDate: string }>;
      }>;
      summary: { groups: Array<{ horizon: number }> };
    };
    expect(evaluation.decisions).toHaveLength(1);
    expect(evaluation.decisions[0]!.entrySession).toBe('2026-06-02');
    expect(evaluation.decisions[0]!.horizons.every((horizon) => horizon.outcome !== 'pending')).toBe(true);
    expect(evaluation.summary.groups.map((group) => group.horizon)).toEqual([5, 21]);

    // One chart request per ticker, the benchmark's included; nothing else but Yahoo's handshake (none needed).
    const interactions = (JSON.parse(readFileSync(cassette, 'utf8')) as { interactions: Array<{ url: string }> })
      .interactions;
    const charts = interactions
      .filter((interaction) => interaction.url.includes('/v8/finance/chart/'))
      .map((interaction) => new URL(interaction.url).pathname);
    expect(charts.sort()).toEqual(['/v8/finance/chart/ACME', '/v8/finance/chart/GLBX']);
    expect(readFileSync(cassette, 'utf8')).not.toContain(keys.yahooCookie);

    const replayed = await runBuilt([...args, '--replay', cassette], { home });
    expect(replayed.stderr).toBe('');
    expect(replayed.code).toBe(0);
    expect(replayed.stdout).toBe(recorded.stdout);
  }, 120_000);
});
