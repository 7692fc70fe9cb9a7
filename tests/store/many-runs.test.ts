import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringifyJsonSafely } from '../../src/sanitize.js';
import { binPath, ensureBuilt } from '../smoke/support.js';
import { makeDecision, makeResult } from '../support/results.js';

/**
 * 1,500 saved runs under `ulimit -n 256` (issue #34, item 2): the built CLI in a child
 * shell whose descriptor limit is 256 lists and evaluates every one — before the store
 * read a few files at a time, hundreds came back "corrupt: EMFILE" and evaluate left
 * them out silently. Yahoo is answered by the synthetic ACME market (any symbol).
 */

const preload = pathToFileURL(
  path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'queue', 'support', 'any-symbol-yahoo.preload.mjs'),
).href;

const count = 1500;
const tickers = ['ACME', 'ACMB', 'ACMC'];
let home = '';

function writeRuns(directory: string): void {
  for (let index = 0; index < count; index += 1) {
    const runId = `20260601T200000Z-RUN-${String(index).padStart(6, '0')}`;
    const result = makeResult({
      runId,
      ticker: tickers[index % tickers.length]!,
      asOf: '2026-06-01T20:00:00.000Z',
      // Each its own configuration: evaluate scores one decision per ticker, day and configuration (re-runs set aside).
      autohedgeVersion: `0.${index}.0`,
      startedAt: '2026-06-01T20:00:00.000Z',
      market: null,
      decision: makeDecision({
        action: index % 3 === 0 ? 'SELL' : 'BUY',
        orderType: 'market',
        entry: null,
        stopLoss: null,
        takeProfit: null,
      }),
    });
    mkdirSync(path.join(directory, 'runs', runId), { recursive: true });
    writeFileSync(path.join(directory, 'runs', runId, 'result.json'), stringifyJsonSafely(result, 2));
  }
}

const quote = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;

/** `ulimit -n 256 && exec node … bin/autohedge.js <args>`: the CLI under the limit, in its own shell. */
const limitedCommand = (args: string[]) =>
  `ulimit -n 256 && exec ${quote(process.execPath)} --import ${quote(preload)} ${quote(binPath)} ${args.map(quote).join(' ')}`;

function underLimit(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn('bash', ['-c', limitedCommand(args)], {
    cwd: home,
    env: { PATH: process.env.PATH, AUTOHEDGE_HOME: home, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })));
}

describe('1,500 saved runs under ulimit -n 256', () => {
  beforeAll(async () => {
    await ensureBuilt();
    home = mkdtempSync(path.join(tmpdir(), 'autohedge-many-runs-'));
    writeRuns(home);
  }, 180_000);
  afterAll(() => rmSync(home, { recursive: true, force: true }));

  it('the limit is really 256 in the child shell', async () => {
    const child = spawn('bash', ['-c', 'ulimit -n 256 && ulimit -n'], { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    await new Promise((resolve) => child.once('exit', resolve));
    expect(out.trim()).toBe('256');
  });

  it('`runs --json` lists all 1,500, none unreadable or corrupt', async () => {
    const { code, stdout, stderr } = await underLimit(['runs', '--json']);
    expect(stderr).not.toContain('EMFILE');
    expect(code).toBe(0);
    const runs = JSON.parse(stdout) as Array<{ state: string }>;
    expect(runs).toHaveLength(count);
    expect(runs.filter((run) => run.state !== 'ok')).toEqual([]);
  }, 120_000);

  it('MCP `runs_list` (at most 500 a call) lists the newest 500, every one readable', async () => {
    const client = new Client({ name: 'autohedge-test', version: '1.0.0' });
    const transport = new StdioClientTransport({
      command: 'bash',
      args: ['-c', limitedCommand(['mcp', '--demo'])],
      env: { PATH: process.env.PATH ?? '', AUTOHEDGE_HOME: home, NO_COLOR: '1' },
      stderr: 'pipe',
    });
    await client.connect(transport);
    try {
      const listed = await client.callTool({ name: 'runs_list', arguments: { limit: 500 } });
      expect(listed.isError).toBeFalsy();
      const runs = (listed.structuredContent as { runs: Array<{ state: string; problem?: string }> }).runs;
      expect(runs).toHaveLength(500);
      expect(runs.filter((run) => run.state !== 'ok')).toEqual([]);
    } finally {
      await client.close();
    }
  }, 60_000);

  it('`evaluate --json` scores all 1,500 decisions, none skipped, exit 0', async () => {
    const { code, stdout, stderr } = await underLimit(['evaluate', '--json', '--no-save', '--horizon', '5', '--quiet']);
    expect(stderr).not.toContain('EMFILE');
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const output = JSON.parse(stdout) as {
      decisions: Array<{ problem: string | null; horizons: Array<{ outcome: string }> }>;
      unreadable: number;
      skipped: unknown[];
    };
    expect(output.decisions).toHaveLength(count);
    expect(output.unreadable).toBe(0);
    expect(output.skipped).toEqual([]);
    expect(output.decisions.filter((row) => row.problem !== null)).toEqual([]);
    expect(new Set(output.decisions.map((row) => row.horizons[0]!.outcome))).toEqual(new Set(['horizon']));
  }, 120_000);
});
