import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mapBounded } from '../../src/store/bounded.js';
import { finishedTickers, listRuns, loadRun, readSavedRuns, RunStoreError, saveRun } from '../../src/store/index.js';
import { makeResult } from '../support/results.js';

/** Reading the run store: a few files at a time, and an I/O error is never "corrupt" (issue #34, item 2). */

describe('mapBounded', () => {
  it('never has more than the limit in flight, and keeps the input order', async () => {
    let inFlight = 0;
    let most = 0;
    const results = await mapBounded(
      Array.from({ length: 50 }, (_, index) => index),
      4,
      async (value) => {
        inFlight += 1;
        most = Math.max(most, inFlight);
        await new Promise((resolve) => setTimeout(resolve, (value * 7) % 5));
        inFlight -= 1;
        return value * 2;
      },
    );
    expect(most).toBe(4);
    expect(results).toEqual(Array.from({ length: 50 }, (_, index) => index * 2));
    expect(await mapBounded([], 4, async () => 1)).toEqual([]);
  });
});

describe('a result.json that cannot be read', () => {
  it('is "unreadable" with the reason (a directory in its place here), not "corrupt"; a good run beside it is ok', async () => {
    const home = mkdtempSync(join(tmpdir(), 'autohedge-store-'));
    await saveRun(home, makeResult({ runId: 'good-run' }), { transcript: [], markdown: '' });
    // A directory where the file should be: not a regular file, so it is not read at all.
    mkdirSync(join(home, 'runs', 'io-run', 'result.json'), { recursive: true });

    const listed = await listRuns(home);
    expect(listed.find((run) => run.runId === 'good-run')!.state).toBe('ok');
    expect(listed.find((run) => run.runId === 'io-run')).toMatchObject({
      state: 'unreadable',
      problem: 'result.json cannot be read: not a regular file',
    });

    const entries = await readSavedRuns(home);
    expect(entries.map((entry) => [entry.runId, entry.state])).toEqual([
      ['good-run', 'ok'],
      ['io-run', 'unreadable'],
    ]);

    const failure = await loadRun(home, 'io-run').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(RunStoreError);
    expect((failure as RunStoreError).problem).toBe('unreadable');
    expect((failure as RunStoreError).message).toContain('cannot be read: not a regular file');
  });

  it('--resume stops on it rather than guessing "not finished" and buying the analysis again', async () => {
    const home = mkdtempSync(join(tmpdir(), 'autohedge-store-'));
    await saveRun(home, makeResult({ runId: 'good-run' }), { transcript: [], markdown: '' });
    expect(await finishedTickers(home, makeResult().asOf.slice(0, 10))).toEqual(new Set(['ACME']));
    mkdirSync(join(home, 'runs', 'io-run', 'result.json'), { recursive: true });
    const failure = await finishedTickers(home, '2026-11-27').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(RunStoreError);
    expect((failure as RunStoreError).problem).toBe('unreadable');
    expect((failure as RunStoreError).message).toContain('for --resume');
  });
});
