/**
 * `autohedge evaluate --demo`, the built CLI with no key and no network: the saved
 * `analyze ACME --demo` run scored against the bundled synthetic prices after the demo
 * day (demo/evaluation.cassette.json), labelled DEMO on every surface.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, runBuilt } from './support.js';

beforeAll(ensureBuilt, 180_000);

interface EvaluationJson {
  demo?: { runs: number; syntheticPrices: boolean; banner: string };
  benchmark: string;
  horizons: number[];
  evaluatedAt: string;
  warnings: string[];
  decisions: {
    ticker: string;
    problem: string | null;
    rescaled: unknown;
    horizons: { horizon: number; exit: string | null }[];
  }[];
}

async function homeWithDemoRun(): Promise<string> {
  const home = mkdtempSync(path.join(tmpdir(), 'autohedge-evaluate-demo-'));
  const analysed = await runBuilt(['analyze', 'ACME', '--demo', '--quiet'], { home });
  expect(analysed.code, analysed.stderr).toBe(0);
  return home;
}

// Each test spawns the built CLI two to five times: on a loaded machine one spawn can take seconds.
describe('autohedge evaluate --demo (built CLI, offline)', { timeout: 120_000 }, () => {
  it('scores the saved demo run at every default horizon against synthetic prices, labelled DEMO', async () => {
    const home = await homeWithDemoRun();
    const run = await runBuilt(['evaluate', '--demo', '--json'], { home });
    expect(run.code, run.stderr).toBe(0);
    const evaluation = JSON.parse(run.stdout) as EvaluationJson;
    expect(evaluation.demo).toMatchObject({ runs: 1, syntheticPrices: true });
    expect(evaluation.demo?.banner).toMatch(/^DEMO — .*synthetic prices/);
    expect(evaluation).toMatchObject({ benchmark: 'SPY', horizons: [5, 21, 63], warnings: [] });
    expect(evaluation.decisions).toHaveLength(1);
    const [decision] = evaluation.decisions;
    // The synthetic future continues the demo's own bars: no rescaling, nothing unscored.
    expect(decision).toMatchObject({ ticker: 'ACME', problem: null, rescaled: null });
    expect(decision!.horizons.map((item) => item.horizon)).toEqual([5, 21, 63]);

    const saved = path.join(home, 'evaluations');
    const [directory] = readdirSync(saved);
    const markdown = readFileSync(path.join(saved, directory!, 'evaluation.md'), 'utf8');
    expect(markdown.split('\n')[2]).toMatch(/^> \*\*DEMO — /);

    const terminal = await runBuilt(['evaluate', '--demo', '--no-save'], { home });
    expect(terminal.code, terminal.stderr).toBe(0);
    expect(terminal.stdout.split('\n')[0]).toMatch(/^DEMO — 1 demo decision\(s\) scored against synthetic prices/);
  });

  it('with no saved demo run: one line saying which command comes first, exit 2', async () => {
    const run = await runBuilt(['evaluate', '--demo']);
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe(
      'autohedge: no saved demo run with a decision to evaluate (run `autohedge analyze ACME --demo` first, then `autohedge evaluate --demo`)',
    );
  });

  it('a demo run left out by a filter is named with the reason, not taken for a missing one', async () => {
    const home = await homeWithDemoRun();
    const run = await runBuilt(['evaluate', '--demo', '--since', '2027-01-01'], { home });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /no saved demo run with a decision to evaluate: \S+-ACME-\S+ — as of 2026-11-27, before --since 2027-01-01/,
    );
  });

  it("saves each evaluation under the time it was made, not the demo prices' clock, two in a row apart", async () => {
    const home = await homeWithDemoRun();
    // No pause between the two: an id made in the same second as another is still its own.
    for (let round = 0; round < 2; round += 1) {
      const run = await runBuilt(['evaluate', '--demo', '--quiet'], { home });
      expect(run.code, run.stderr).toBe(0);
    }
    const saved = readdirSync(path.join(home, 'evaluations'));
    expect(saved).toHaveLength(2);
    // The id is when the evaluation was made: within minutes of now, not 2027-03-05 (the prices' clock).
    for (const id of saved) {
      const made = Date.parse(id.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z.*$/, '$1-$2-$3T$4:$5:$6Z'));
      expect(Math.abs(Date.now() - made), id).toBeLessThan(10 * 60_000);
    }
  });

  it('refuses what the recorded prices cannot answer, up front, in one line', async () => {
    const home = await homeWithDemoRun();
    for (const [flags, named] of [
      [['--horizon', '5,10'], '--horizon 5,10'],
      [['--benchmark', 'QQQ'], '--benchmark QQQ'],
      [['--sector-benchmarks'], '--sector-benchmarks'],
      [['--replay', 'x.json'], '--record or --replay'],
    ] as const) {
      const run = await runBuilt(['evaluate', '--demo', ...flags], { home });
      expect(run.code, flags.join(' ')).toBe(2);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).toContain(named);
    }
  });

  it('without --demo, a demo run is skipped with the way to score it offline', async () => {
    const home = await homeWithDemoRun();
    const run = await runBuilt(['evaluate'], { home });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('a demo run (synthetic data): score it offline with `autohedge evaluate --demo`');
  });
});
