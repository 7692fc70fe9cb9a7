import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { RunStoreError, listRuns, loadRun, saveRun, writeRunFiles } from '../../src/store/index.js';
import { makeDecision, makeResult, sampleRunId } from '../support/results.js';

let home: string;

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'autohedge-store-'));
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

const transcript = [
  '{"type":"agent-start","agent":"quant","at":"2026-11-27T21:00:00.000Z","model":"gpt-4.1"}',
  '{"type":"warning","agent":null,"at":"2026-11-27T21:00:01.000Z","message":"x"}',
];

async function saveSample(overrides: Parameters<typeof makeResult>[0] = {}) {
  const result = makeResult(overrides);
  return { result, ...(await saveRun(home, result, { transcript, markdown: renderMarkdown(result) })) };
}

describe('saveRun and writeRunFiles', () => {
  test('write result.json, report.md and transcript.jsonl under $home/runs/<runId>/', async () => {
    const { result, dir } = await saveSample();
    expect(dir).toBe(join(home, 'runs', sampleRunId));
    expect((await readdir(dir)).sort()).toEqual(['report.md', 'result.json', 'transcript.jsonl']);
    expect(await readFile(join(dir, 'result.json'), 'utf8')).toBe(`${JSON.stringify(result, null, 2)}\n`);
    expect(JSON.parse(await readFile(join(dir, 'result.json'), 'utf8'))).toEqual(result);
    expect(await readFile(join(dir, 'report.md'), 'utf8')).toBe(renderMarkdown(result));
    expect(await readFile(join(dir, 'transcript.jsonl'), 'utf8')).toBe(`${transcript[0]}\n${transcript[1]}\n`);
  });

  test('saving again replaces the files whole and leaves no temporary files', async () => {
    await saveSample();
    const { dir } = await saveSample({ status: 'degraded' });
    expect((await readdir(dir)).sort()).toEqual(['report.md', 'result.json', 'transcript.jsonl']);
    expect(JSON.parse(await readFile(join(dir, 'result.json'), 'utf8')).status).toBe('degraded');
  });

  test('an empty transcript is an empty file', async () => {
    const result = makeResult();
    const { dir } = await saveRun(home, result, { transcript: [], markdown: '# x\n' });
    expect(await readFile(join(dir, 'transcript.jsonl'), 'utf8')).toBe('');
  });

  test('a run id that is not a plain name is refused before anything is written', async () => {
    for (const runId of ['../escape', 'a/b', '.hidden', '', 'x'.repeat(200)]) {
      const error = await saveRun(home, makeResult({ runId }), { transcript: [], markdown: '' }).catch(
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(RunStoreError);
      expect((error as RunStoreError).message).toBe(`run id '${runId}' cannot name a directory`);
    }
    expect(await readdir(home)).toEqual([]);
  });

  test('an unwritable home throws a typed error naming the reason (a home under a file: ENOTDIR)', async () => {
    const file = join(home, 'a-file');
    await writeFile(file, 'not a directory');
    const error = await saveRun(join(file, 'inside'), makeResult(), { transcript, markdown: '' }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(RunStoreError);
    expect((error as RunStoreError).problem).toBe('unwritable');
    expect((error as RunStoreError).message).toBe(
      `cannot write ${join(file, 'inside', 'runs', sampleRunId)}: ENOTDIR: not a directory`,
    );
  });

  test('writeRunFiles writes the same three files into any directory (--out), creating it', async () => {
    const result = makeResult();
    const out = join(home, 'out', 'nested');
    await writeRunFiles(out, result, { transcript, markdown: 'report\n' });
    expect((await readdir(out)).sort()).toEqual(['report.md', 'result.json', 'transcript.jsonl']);
    expect(await readFile(join(out, 'report.md'), 'utf8')).toBe('report\n');
  });
});

describe('listRuns', () => {
  test('no home or no runs yet: an empty list', async () => {
    expect(await listRuns(join(home, 'missing'))).toEqual([]);
    expect(await listRuns(home)).toEqual([]);
  });

  test('good, partial and corrupt runs, newest first; stray files and hidden entries ignored', async () => {
    await saveSample({ runId: '20261120T100000Z-ACME-aaaaaa', startedAt: '2026-11-20T10:00:00.000Z' });
    await saveSample({
      runId: '20261127T210000Z-BETA-bbbbbb',
      ticker: 'BETA',
      startedAt: '2026-11-27T21:00:00.000Z',
      status: 'degraded',
      decision: makeDecision({ action: 'SELL', conviction: 55 }),
    });
    await saveSample({
      runId: '20261125T090000Z-GAMA-cccccc',
      ticker: 'GAMA',
      startedAt: '2026-11-25T09:00:00.000Z',
      mode: 'agents',
      decision: null,
      usage: { ...makeResult().usage, costUsd: null },
    });
    const runs = join(home, 'runs');
    await mkdir(join(runs, 'partial-run'));
    await writeFile(join(runs, 'partial-run', 'transcript.jsonl'), '');
    await mkdir(join(runs, 'corrupt-run'));
    await writeFile(join(runs, 'corrupt-run', 'result.json'), '{"runId": "corrupt-run", ');
    await mkdir(join(runs, 'wrong-shape'));
    await writeFile(join(runs, 'wrong-shape', 'result.json'), JSON.stringify({ ...makeResult(), status: 'great' }));
    await writeFile(join(runs, 'notes.txt'), 'not a run');
    await mkdir(join(runs, '.tmp-thing'));

    const list = await listRuns(home);
    const good = list.filter((run) => run.state === 'ok');
    expect(good).toEqual([
      {
        runId: '20261127T210000Z-BETA-bbbbbb',
        when: '2026-11-27T21:00:00.000Z',
        ticker: 'BETA',
        action: 'SELL',
        conviction: 55,
        status: 'degraded',
        mode: 'full',
        demo: false,
        costUsd: 0.0412,
        cachedShare: 1024 / 9600,
        cachedPromptTokens: 1024,
        state: 'ok',
      },
      {
        runId: '20261125T090000Z-GAMA-cccccc',
        when: '2026-11-25T09:00:00.000Z',
        ticker: 'GAMA',
        action: null,
        conviction: null,
        status: 'ok',
        mode: 'desks',
        demo: false,
        costUsd: null,
        cachedShare: 1024 / 9600,
        cachedPromptTokens: 1024,
        state: 'ok',
      },
      {
        runId: '20261120T100000Z-ACME-aaaaaa',
        when: '2026-11-20T10:00:00.000Z',
        ticker: 'ACME',
        action: 'BUY',
        conviction: 72,
        status: 'ok',
        mode: 'full',
        demo: false,
        costUsd: 0.0412,
        cachedShare: 1024 / 9600,
        cachedPromptTokens: 1024,
        state: 'ok',
      },
    ]);
    const byId = new Map(list.map((run) => [run.runId, run]));
    expect(list).toHaveLength(6);
    expect(byId.get('partial-run')).toMatchObject({
      state: 'partial',
      ticker: null,
      status: null,
      problem: 'no result.json (the run did not finish saving)',
    });
    expect(byId.get('corrupt-run')).toMatchObject({ state: 'corrupt', ticker: null });
    expect(byId.get('corrupt-run')!.problem).toMatch(/^result\.json is not valid JSON \(/);
    expect(byId.get('wrong-shape')).toMatchObject({
      state: 'corrupt',
      problem: expect.stringMatching(/^result\.json is not a saved run \(status: /),
    });
    // Broken directories are dated by their modification time (now), so they sort first here.
    expect(
      list
        .slice(0, 3)
        .map((run) => run.state)
        .sort(),
    ).toEqual(['corrupt', 'corrupt', 'partial']);
  });
});

describe('loadRun', () => {
  test('by full id or by a unique prefix, the saved result comes back whole', async () => {
    const { result } = await saveSample();
    await saveSample({ runId: '20261120T100000Z-ACME-aaaaaa' });
    expect(await loadRun(home, sampleRunId)).toEqual(result);
    expect(await loadRun(home, '20261127')).toEqual(result);
  });

  test('an ambiguous prefix, an unknown id and a malformed id are usage errors with a clear message', async () => {
    await saveSample({ runId: '20261127T210000Z-ACME-aaaaaa' });
    await saveSample({ runId: '20261127T210000Z-ACME-bbbbbb' });
    await expect(loadRun(home, '20261127T')).rejects.toThrow(
      new UsageError(
        "'20261127T' matches 2 runs (20261127T210000Z-ACME-aaaaaa, 20261127T210000Z-ACME-bbbbbb); give more of the run id",
      ),
    );
    await expect(loadRun(home, 'nope')).rejects.toThrow(
      new UsageError("no saved run matches 'nope' (list them with: autohedge runs)"),
    );
    await expect(loadRun(home, '../etc')).rejects.toThrow(new UsageError("'../etc' is not a run id"));
    await expect(loadRun(join(home, 'missing-home'), 'x')).rejects.toBeInstanceOf(UsageError);
  });

  test('an exact id wins over a longer id it is a prefix of', async () => {
    await saveSample({ runId: 'run-1' });
    await saveSample({ runId: 'run-10' });
    expect((await loadRun(home, 'run-1')).runId).toBe('run-1');
  });

  test('partial and corrupt runs are typed errors, not crashes', async () => {
    await mkdir(join(home, 'runs', 'partial-run'), { recursive: true });
    await mkdir(join(home, 'runs', 'corrupt-run'), { recursive: true });
    await writeFile(join(home, 'runs', 'corrupt-run', 'result.json'), 'nonsense');
    const partial = await loadRun(home, 'partial').catch((caught: unknown) => caught);
    expect(partial).toBeInstanceOf(RunStoreError);
    expect((partial as RunStoreError).message).toBe(
      'run partial-run is incomplete: it has no result.json (the run did not finish saving)',
    );
    const corrupt = await loadRun(home, 'corrupt').catch((caught: unknown) => caught);
    expect(corrupt).toBeInstanceOf(RunStoreError);
    expect((corrupt as RunStoreError).problem).toBe('corrupt');
    expect((corrupt as RunStoreError).message).toMatch(/^run corrupt-run is corrupt: result\.json is not valid JSON/);
  });

  test('a result saved without the newer optional fields loads with their defaults', async () => {
    const { warnings: _warnings, demo: _demo, mode: _mode, ...older } = makeResult({ runId: 'older-run' });
    await mkdir(join(home, 'runs', 'older-run'), { recursive: true });
    await writeFile(join(home, 'runs', 'older-run', 'result.json'), JSON.stringify(older));
    const loaded = await loadRun(home, 'older-run');
    expect(loaded).toMatchObject({ warnings: [], demo: false, mode: 'full', ticker: 'ACME' });
  });
});
