/**
 * `autohedge probe --demo`, the built CLI with no key and no network: the demo cassette's
 * probe of ACME (a named run without search and a blind one), labelled DEMO, both runs
 * saved as demo runs; and a replay whose cassette cannot answer the probe, which leaves
 * no failed run behind.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, runBuilt, smokeCassette } from './support.js';

beforeAll(ensureBuilt, 180_000);

interface SavedRun {
  ticker: string;
  status: string;
  demo: boolean;
  blind?: { alias: string };
  decision: { action: string; conviction: number } | null;
}

function savedRuns(home: string): SavedRun[] {
  const runs = path.join(home, 'runs');
  if (!existsSync(runs)) return [];
  return readdirSync(runs).map(
    (run) => JSON.parse(readFileSync(path.join(runs, run, 'result.json'), 'utf8')) as SavedRun,
  );
}

describe('autohedge probe --demo (built CLI, offline)', () => {
  it('compares the named and the blind demo run of ACME, labelled DEMO, and saves both as demo runs', async () => {
    const run = await runBuilt(['probe', 'ACME', '--demo', '--quiet']);
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.split('\n');
    expect(lines[0]).toMatch(/^DEMO — synthetic data/);
    expect(lines[2]).toBe('PROBE ACME as of 2026-11-27');
    expect(run.stdout).toMatch(/^action\s+BUY\s+BUY\s*$/m);
    expect(run.stdout).toMatch(/^verdict: consistent/m);

    const saved = savedRuns(run.home);
    expect(saved).toHaveLength(2);
    for (const result of saved) expect(result).toMatchObject({ ticker: 'ACME', status: 'ok', demo: true });
    expect(saved.map((result) => result.blind?.alias ?? 'named').sort()).toEqual(['Company A', 'named']);
    expect(saved.map((result) => result.decision?.conviction)).toEqual([64, 64]);

    const json = await runBuilt(['probe', 'ACME', '--demo', '--json', '--no-save', '--quiet']);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ demo: true, verdict: 'consistent', named: { action: 'BUY' } });
    expect(savedRuns(json.home)).toEqual([]);
    // Two processes, each replaying two analyses: on a loaded machine this takes a while.
  }, 120_000);

  it('refuses a ticker the demo does not hold, saying what to run', async () => {
    const run = await runBuilt(['probe', 'GLBX', '--demo']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('run `autohedge probe ACME --demo`');
    expect(savedRuns(run.home)).toEqual([]);
  });

  it('a replayed cassette that cannot answer the probe: exit 2, the misses named, no failed run saved', async () => {
    // The smoke cassette holds an analysis of ACME with news search, not a probe.
    const run = await runBuilt(['probe', 'ACME', '--replay', smokeCassette, '--quiet']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/no recorded response for POST https:\/\/api\.openai\.com\/v1\/chat\/completions/);
    expect(run.stderr).toContain('the cassette could not answer this probe: neither run was saved');
    expect(savedRuns(run.home)).toEqual([]);
  }, 60_000);
});
