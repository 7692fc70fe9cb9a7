import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { renderMarkdown } from '../../src/report/markdown.js';
import { listRuns, RunIndex, saveRun } from '../../src/store/index.js';
import { summarize } from '../../src/store/run-store.js';
import type { AnalysisResult } from '../../src/result/types.js';
import { makeResult } from '../support/results.js';

let home: string;

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'autohedge-run-index-'));
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

const runIdOf = (index: number) => `20261127T2100${String(index).padStart(2, '0')}Z-ACME-index${index}`;

async function save(index: number, overrides: Partial<AnalysisResult> = {}): Promise<void> {
  const result = makeResult({
    runId: runIdOf(index),
    startedAt: `2026-11-27T21:00:${String(index).padStart(2, '0')}.000Z`,
    ...overrides,
  });
  await saveRun(home, result, { transcript: [], markdown: renderMarkdown(result) });
}

/** A RunIndex whose reads are counted, by run id. */
function countedIndex(): { index: RunIndex; reads: string[] } {
  const reads: string[] = [];
  const index = new RunIndex(home, (dir, runId) => {
    reads.push(runId);
    return summarize(dir, runId);
  });
  return { index, reads };
}

describe('RunIndex', () => {
  test('lists what listRuns lists, and reads each run once however often it is asked', async () => {
    for (let index = 0; index < 5; index += 1) await save(index);
    const { index, reads } = countedIndex();
    const first = await index.list();
    expect(first).toEqual(await listRuns(home));
    expect(first.map((run) => run.runId)).toEqual([4, 3, 2, 1, 0].map(runIdOf));
    for (let call = 0; call < 10; call += 1) expect(await index.list()).toEqual(first);
    expect(reads.sort()).toEqual([0, 1, 2, 3, 4].map(runIdOf).sort());
  });

  test('sees a run saved, rewritten or removed since the last call, reading only that run', async () => {
    await save(1);
    await save(2);
    const { index, reads } = countedIndex();
    await index.list();
    reads.length = 0;

    await save(3);
    expect((await index.list()).map((run) => run.runId)).toEqual([3, 2, 1].map(runIdOf));
    expect(reads).toEqual([runIdOf(3)]);

    await save(2, { status: 'degraded' });
    const rewritten = await index.list();
    expect(rewritten.find((run) => run.runId === runIdOf(2))?.status).toBe('degraded');
    expect(reads).toEqual([runIdOf(3), runIdOf(2)]);

    await rm(join(home, 'runs', runIdOf(1)), { recursive: true });
    expect((await index.list()).map((run) => run.runId)).toEqual([3, 2].map(runIdOf));
  });

  test('shares one read between calls at once, and keeps no partial run', async () => {
    await save(1);
    await mkdir(join(home, 'runs', runIdOf(2)), { recursive: true });
    const { index, reads } = countedIndex();
    const lists = await Promise.all(Array.from({ length: 8 }, () => index.list()));
    for (const listed of lists) expect(listed).toEqual(lists[0]);
    expect(reads.filter((runId) => runId === runIdOf(1))).toHaveLength(1);
    expect(lists[0]!.find((run) => run.runId === runIdOf(2))?.state).toBe('partial');

    // The partial run finishes saving: the next call has its result.
    await writeFile(join(home, 'runs', runIdOf(2), 'result.json'), '{ not json');
    expect((await index.list()).find((run) => run.runId === runIdOf(2))?.state).toBe('corrupt');
    await save(2);
    expect((await index.list()).find((run) => run.runId === runIdOf(2))?.state).toBe('ok');
  });
});
