import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { runsListCommand, runsShowCommand } from '../../src/cli/commands/runs.js';
import type { CliIo } from '../../src/cli/io.js';
import { runCli } from '../../src/cli/run-cli.js';
import { UsageError } from '../../src/errors.js';
import { renderHtml } from '../../src/report/html.js';
import { renderJson, renderTerminal } from '../../src/report/terminal.js';
import { saveRun } from '../../src/store/index.js';
import { makeDecision, makeResult } from '../support/results.js';

let home: string;

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'autohedge-runs-'));
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

function captureIo(overrides: Partial<CliIo> = {}) {
  const output = { stdout: '', stderr: '' };
  const io: CliIo = {
    stdout: (text) => void (output.stdout += text),
    stderr: (text) => void (output.stderr += text),
    env: { AUTOHEDGE_HOME: home },
    cwd: home,
    stderrIsTTY: false,
    stdoutIsTTY: false,
    columns: 0,
    ...overrides,
  };
  return { io, output };
}

async function saveSamples() {
  const first = makeResult({ runId: '20261120T100000Z-ACME-aaaaaa', startedAt: '2026-11-20T10:00:00.000Z' });
  const second = makeResult({
    runId: '20261127T210000Z-BETA-bbbbbb',
    ticker: 'BETA',
    startedAt: '2026-11-27T21:00:00.000Z',
    status: 'degraded',
    decision: makeDecision({ action: 'SELL', conviction: 55 }),
    usage: { ...makeResult().usage, costUsd: null },
  });
  for (const result of [first, second]) await saveRun(home, result, { transcript: [], markdown: '' });
  return { first, second };
}

describe('autohedge runs', () => {
  test('a table, newest first; partial and corrupt directories listed with their problem', async () => {
    await saveSamples();
    await mkdir(join(home, 'runs', 'zz-partial'));
    const { io, output } = captureIo();
    expect(await runsListCommand({}, io)).toBe(0);
    // stdout is the table alone (a script reads it); what could not be read goes to stderr.
    expect(output.stderr).toBe('zz-partial: partial: no result.json (the run did not finish saving)\n');
    const lines = output.stdout.split('\n');
    expect(lines[0]).toBe(
      'WHEN              RUN ID                        TICKER  MODE  ACTION  CONVICTION  STATUS    COST     CACHED',
    );
    // The partial directory is dated now, so it is newest.
    expect(lines[1]).toMatch(
      /^\d{4}-\d\d-\d\d \d\d:\d\d  zz-partial                    -       -     -       -           partial   -        -$/,
    );
    expect(lines.slice(2, 4)).toEqual([
      '2026-11-27 21:00  20261127T210000Z-BETA-bbbbbb  BETA    full  SELL    55          degraded  unknown  11%',
      '2026-11-20 10:00  20261120T100000Z-ACME-aaaaaa  ACME    full  BUY     72          ok        $0.0412  11%',
    ]);
    expect(lines.slice(4)).toEqual(['']);
  });

  test('a mode column tells desk-only and full runs apart, and says demo beside either; a demo shows no cost as spent; the cached share, or none', async () => {
    await saveRun(
      home,
      makeResult({ runId: '20261101T100000Z-ACME-dddddd', startedAt: '2026-11-01T10:00:00.000Z', demo: true }),
      { transcript: [], markdown: '' },
    );
    await saveRun(
      home,
      makeResult({
        runId: '20261102T100000Z-ACME-eeeeee',
        startedAt: '2026-11-02T10:00:00.000Z',
        mode: 'agents',
        decision: null,
        usage: { ...makeResult().usage, cachedPromptTokens: 0 },
      }),
      { transcript: [], markdown: '' },
    );
    await saveRun(home, makeResult({ runId: '20261103T100000Z-ACME-ffffff', startedAt: '2026-11-03T10:00:00.000Z' }), {
      transcript: [],
      markdown: '',
    });
    const { io, output } = captureIo();
    expect(await runCli(['runs'], io)).toBe(0);
    const rows = output.stdout
      .trimEnd()
      .split('\n')
      .slice(1)
      .map((line) => line.split(/\s{2,}/));
    expect(rows.map((row) => [row[1], row[3], row.at(-2), row.at(-1)])).toEqual([
      ['20261103T100000Z-ACME-ffffff', 'full', '$0.0412', '11%'],
      ['20261102T100000Z-ACME-eeeeee', 'desks', '$0.0412', 'none'],
      ['20261101T100000Z-ACME-dddddd', 'demo, full', 'none (demo)', '11%'],
    ]);
  });

  test('--json: the summaries as an array', async () => {
    await saveSamples();
    const { io, output } = captureIo();
    expect(await runsListCommand({ json: true }, io)).toBe(0);
    const runs = JSON.parse(output.stdout);
    expect(runs.map((run: { runId: string }) => run.runId)).toEqual([
      '20261127T210000Z-BETA-bbbbbb',
      '20261120T100000Z-ACME-aaaaaa',
    ]);
    expect(runs[0]).toEqual({
      runId: '20261127T210000Z-BETA-bbbbbb',
      when: '2026-11-27T21:00:00.000Z',
      ticker: 'BETA',
      action: 'SELL',
      conviction: 55,
      status: 'degraded',
      mode: 'full',
      demo: false,
      costUsd: null,
      cachedShare: 1024 / 9600,
      cachedPromptTokens: 1024,
      state: 'ok',
    });
  });

  test('--json: what the cache saved and the flex tier served, where a run has them', async () => {
    const base = makeResult();
    const byAgent = Object.fromEntries(
      Object.entries(base.usage.byAgent).map(([agent, usage]) => [agent, { ...usage, flexPromptTokens: 1000 }]),
    );
    await saveRun(
      home,
      makeResult({
        runId: '20261128T100000Z-ACME-cccccc',
        startedAt: '2026-11-28T10:00:00.000Z',
        usage: { ...base.usage, cacheSavedUsd: 0.0023, byAgent },
      }),
      { transcript: [], markdown: '' },
    );
    const { io, output } = captureIo();
    expect(await runsListCommand({ json: true }, io)).toBe(0);
    const [run] = JSON.parse(output.stdout);
    expect(run).toMatchObject({
      cachedShare: 1024 / 9600,
      cachedPromptTokens: 1024,
      cacheSavedUsd: 0.0023,
      flexPromptTokens: 1000 * Object.keys(byAgent).length,
    });
  });

  test('no runs: a friendly line on stderr, exit 0 (and [] with --json)', async () => {
    const { io, output } = captureIo();
    expect(await runsListCommand({}, io)).toBe(0);
    expect(output.stdout).toBe('');
    expect(output.stderr).toBe(
      `No saved runs yet in ${join(home, 'runs')}. Run \`autohedge analyze <ticker>\` to make one.\n`,
    );
    const json = captureIo();
    expect(await runsListCommand({ json: true }, json.io)).toBe(0);
    expect(json.output.stdout).toBe('[]\n');
  });

  test('colour only when asked for', async () => {
    await saveSamples();
    const plain = captureIo({ stdoutIsTTY: true, env: { AUTOHEDGE_HOME: home, NO_COLOR: '1' } });
    await runsListCommand({}, plain.io);
    expect(plain.output.stdout).not.toMatch(/\u001b\[/);
    const coloured = captureIo({ env: { AUTOHEDGE_HOME: home, FORCE_COLOR: '1' } });
    await runsListCommand({}, coloured.io);
    expect(coloured.output.stdout).toContain('\u001b[31mSELL  \u001b[39m');
  });
});

describe('autohedge runs show', () => {
  test('re-renders a saved run exactly as the live view, found by prefix', async () => {
    const { second } = await saveSamples();
    const { io, output } = captureIo({ stdoutIsTTY: true, columns: 90, env: { AUTOHEDGE_HOME: home, NO_COLOR: '1' } });
    expect(await runsShowCommand('20261127', {}, io)).toBe(0);
    expect(output.stdout).toBe(renderTerminal(second, { color: false, unicode: true, width: 90 }));
    expect(output.stdout).toContain('SELL · conviction 55/100');
  });

  test('--json prints the saved result', async () => {
    const { first } = await saveSamples();
    const { io, output } = captureIo();
    expect(await runsShowCommand('20261120T100000Z-ACME-aaaaaa', { json: true }, io)).toBe(0);
    expect(output.stdout).toBe(renderJson(first));
  });

  test("through the CLI, `runs show <id> --json` prints the saved JSON (the flag is show's, not the listing's)", async () => {
    const { first } = await saveSamples();
    const { io, output } = captureIo();
    expect(await runCli(['runs', 'show', '20261120', '--json'], io)).toBe(0);
    expect(output.stdout).toBe(renderJson(first));
    expect(JSON.parse(output.stdout).runId).toBe(first.runId);
  });

  test('through the CLI, `runs show <id> --html` prints the self-contained HTML report; with --json too it is a usage error', async () => {
    const { first } = await saveSamples();
    const { io, output } = captureIo();
    expect(await runCli(['runs', 'show', first.runId, '--html'], io)).toBe(0);
    expect(output.stdout).toBe(renderHtml(first));
    expect(output.stdout.startsWith('<!doctype html>')).toBe(true);
    const both = captureIo();
    expect(await runCli(['runs', 'show', first.runId, '--html', '--json'], both.io)).toBe(2);
    expect(both.output.stderr).toBe('autohedge: --json and --html cannot be combined\n');
  });

  test('an ambiguous prefix is a usage error', async () => {
    await saveSamples();
    const { io } = captureIo();
    await expect(runsShowCommand('2026', {}, io)).rejects.toBeInstanceOf(UsageError);
  });

  test('through the CLI: exit 2 for an unknown run, 1 for a corrupt or partial one, 0 for a good one', async () => {
    await saveSamples();
    await mkdir(join(home, 'runs', 'unfinished'));
    await mkdir(join(home, 'runs', 'broken'));
    await writeFile(join(home, 'runs', 'broken', 'result.json'), '[1, 2');

    const unknown = captureIo();
    expect(await runCli(['runs', 'show', 'nope'], unknown.io)).toBe(2);
    expect(unknown.output.stderr).toBe("autohedge: no saved run matches 'nope' (list them with: autohedge runs)\n");

    const corrupt = captureIo();
    expect(await runCli(['runs', 'show', 'broken'], corrupt.io)).toBe(1);
    expect(corrupt.output.stderr).toMatch(/^autohedge: run broken is corrupt: result\.json is not valid JSON/);

    const partial = captureIo();
    expect(await runCli(['runs', 'show', 'unfinished'], partial.io)).toBe(1);
    expect(partial.output.stderr).toBe(
      'autohedge: run unfinished is incomplete: it has no result.json (the run did not finish saving)\n',
    );

    const good = captureIo();
    expect(await runCli(['runs', 'show', '20261120'], good.io)).toBe(0);
    expect(good.output.stdout).toContain('BUY | conviction 72/100');

    const list = captureIo();
    expect(await runCli(['runs'], list.io)).toBe(0);
    expect(list.output.stderr).toContain('broken: corrupt: result.json is not valid JSON');
    expect(list.output.stderr).toContain('unfinished: partial: no result.json');
  });
});

describe('a flagged run in the history', () => {
  test('`runs` lists its status as flagged and `runs show --json` keeps its decisionHistory', async () => {
    const flagged = makeResult({
      runId: '20261128T120000Z-ACME-ffffff',
      startedAt: '2026-11-28T12:00:00.000Z',
      status: 'flagged',
      decisionHistory: [
        {
          decision: makeDecision(),
          guardrails: [{ rule: 'stop-side', severity: 'error', message: 'stop above entry' }],
        },
      ],
    });
    await saveRun(home, flagged, { transcript: [], markdown: '' });
    const list = captureIo();
    expect(await runsListCommand({}, list.io)).toBe(0);
    expect(list.output.stdout.split('\n').find((line) => line.includes('ffffff'))).toMatch(/\bflagged\b/);
    const shown = captureIo();
    expect(await runsShowCommand(flagged.runId, { json: true }, shown.io)).toBe(0);
    expect(JSON.parse(shown.output.stdout)).toMatchObject({
      status: 'flagged',
      decisionHistory: flagged.decisionHistory,
    });
  });
});
