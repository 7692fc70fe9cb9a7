/**
 * One RunRequest through each of the four shells — `analyze`, `analyze --universe`,
 * `enqueue` + `worker` (a real redis-server), and the MCP `analyze` tool — saves
 * result.json files that are equal apart from run id and timings, `options` and
 * `autohedgeVersion` included. Every shell is the built CLI in its own process, against
 * the loopback OpenAI-compatible server, with Yahoo answered by the queue tests' preload.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnalysisResult } from '../../src/result/types.js';
import { notConfiguredLine } from '../../src/market/sources/edgar/config.js';
import { noRedisMessage, redisServerPath, startRedisServer, type RedisServer } from '../../testkit/redis-server.js';
import { startAnalysisServer, type AnalysisServer } from '../queue/support/analysis-server.js';
import { queueName } from '../queue/support/queue.js';
import { spawnWorker, type WorkerProcess } from '../queue/support/worker-process.js';
import { binPath, ensureBuilt, runBuilt } from '../smoke/support.js';

const preload = pathToFileURL(
  path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'queue', 'support', 'any-symbol-yahoo.preload.mjs'),
).href;
const available = redisServerPath() !== null;
const day = '2026-03-10';
const key = { OPENAI_API_KEY: 'sk-shells-test-key-0000' };

let redis: RedisServer;
let server: AnalysisServer;
const workers: WorkerProcess[] = [];

/** The one saved result.json of a home (the run of `ticker`). */
function savedResult(home: string, ticker: string): AnalysisResult {
  const runs = path.join(home, 'runs');
  const found = readdirSync(runs)
    .map((name) => JSON.parse(readFileSync(path.join(runs, name, 'result.json'), 'utf8')) as AnalysisResult)
    .filter((result) => result.ticker === ticker);
  expect(found).toHaveLength(1);
  return found[0]!;
}

/** A result without what differs from run to run: its id and its timings. */
function comparable(result: AnalysisResult): unknown {
  const strip = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(strip);
    if (typeof value !== 'object' || value === null) return value;
    return Object.fromEntries(
      Object.entries(value)
        .filter(([name]) => !['runId', 'startedAt', 'durationMs', 'at'].includes(name))
        .map(([name, inner]) => [name, strip(inner)]),
    );
  };
  return strip(result);
}

const flags = (url: string) => ['--base-url', url, '--search', 'none'];

let analyzeHome = '';

async function viaAnalyze(): Promise<AnalysisResult> {
  const run = await runBuilt(['analyze', 'SHLA', '--as-of', day, '--max-cost', '1', '--quiet', ...flags(server.url)], {
    env: key,
    nodeArguments: ['--import', preload],
  });
  // Piped stderr is told too: this run goes without fundamentals, in one line (--quiet keeps warnings).
  expect(run.stderr).toBe(`autohedge: warning: ${notConfiguredLine}\n`);
  expect(run.code).toBe(0);
  analyzeHome = run.home;
  return savedResult(run.home, 'SHLA');
}

async function viaUniverse(): Promise<AnalysisResult> {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'autohedge-shells-')), 'universe.txt');
  writeFileSync(file, '# two names\nSHLA\nSHLB\n');
  const run = await runBuilt(
    ['analyze', '--universe', file, '--as-of', day, '--max-cost', '1', '--quiet', ...flags(server.url)],
    { env: key, nodeArguments: ['--import', preload] },
  );
  expect(run.code).toBe(0);
  return savedResult(run.home, 'SHLA');
}

async function viaQueue(): Promise<AnalysisResult> {
  const queue = queueName('shells');
  const worker = await spawnWorker({ redisUrl: redis.url, queue, modelUrl: server.url, args: ['--search', 'none'] });
  workers.push(worker);
  const enqueue = await runBuilt(
    ['enqueue', 'SHLA', '--as-of', day, '--max-cost', '1', '--redis', redis.url, '--queue', queue, '--wait', '--json'],
    { env: key },
  );
  expect(enqueue.code).toBe(0);
  // The job's value, printed by enqueue --wait, is the run the worker saved.
  const printed = JSON.parse(enqueue.stdout) as AnalysisResult;
  const saved = savedResult(worker.home, 'SHLA');
  expect(printed.runId).toBe(saved.runId);
  worker.child.kill('SIGTERM');
  await worker.exited();
  return saved;
}

async function mcpClient(home: string): Promise<Client> {
  const client = new Client({ name: 'autohedge-shells-test', version: '1.0.0' });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', preload, binPath, 'mcp', ...flags(server.url)],
    env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', AUTOHEDGE_HOME: home, ...key },
    stderr: 'pipe',
  });
  await client.connect(transport);
  return client;
}

async function viaMcp(): Promise<AnalysisResult> {
  const home = mkdtempSync(path.join(tmpdir(), 'autohedge-shells-mcp-'));
  const client = await mcpClient(home);
  try {
    const answer = await client.callTool({ name: 'analyze', arguments: { ticker: 'SHLA', asOf: day } });
    expect(answer.isError).not.toBe(true);
    const saved = savedResult(home, 'SHLA');
    expect((answer.structuredContent as AnalysisResult).runId).toBe(saved.runId);
    return saved;
  } finally {
    await client.close();
  }
}

describe.skipIf(!available)(available ? 'one RunRequest, four shells' : noRedisMessage, () => {
  beforeAll(async () => {
    await ensureBuilt();
    redis = await startRedisServer();
    server = await startAnalysisServer();
  }, 180_000);
  afterAll(async () => {
    for (const worker of workers)
      if (worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill('SIGKILL');
    await server?.close();
    await redis?.stop();
  });

  it('analyze, a universe, a queue job and an MCP call save the same result.json, options and version included', async () => {
    const [cli, universe, job, mcp] = [await viaAnalyze(), await viaUniverse(), await viaQueue(), await viaMcp()];
    expect(cli.status).toBe('ok');
    expect(cli.asOfMode).toBe('historical');
    expect(cli.options).toMatchObject({ asOf: { kind: 'historical', day }, version: 1, maxCostUsd: 1 });
    expect(cli.autohedgeVersion).toMatch(/^\d+\.\d+\.\d+/);
    expect(comparable(universe)).toEqual(comparable(cli));
    expect(comparable(job)).toEqual(comparable(cli));
    expect(comparable(mcp)).toEqual(comparable(cli));
    expect(new Set([cli.runId, universe.runId, job.runId, mcp.runId]).size).toBe(4);
    // enqueue --as-of D and analyze --as-of D: the same clock and mode.
    expect(job.asOf).toBe(cli.asOf);
    expect(job.asOfMode).toBe('historical');
    expect(job.contamination).toEqual(cli.contamination);
  }, 180_000);

  it("the MCP evaluate tool answers with evaluate --json's value, the ledger's forward section and --forward-only included", async () => {
    expect(analyzeHome).not.toBe('');
    const cli = await runBuilt(['evaluate', '--json', '--horizon', '5', '--no-save', '--quiet'], {
      home: analyzeHome,
      nodeArguments: ['--import', preload],
    });
    expect(cli.code).toBe(0);
    const printed = JSON.parse(cli.stdout) as Record<string, unknown>;
    expect((printed.decisions as unknown[]).length).toBe(1);
    const client = await mcpClient(analyzeHome);
    try {
      const answer = await client.callTool({ name: 'evaluate', arguments: { horizons: [5] } });
      expect(answer.isError).not.toBe(true);
      const served = answer.structuredContent as Record<string, unknown>;
      expect({ ...served, evaluatedAt: null }).toEqual({ ...printed, evaluatedAt: null });
      // The ledger's forward section too, and --forward-only as the tool's forwardOnly.
      expect(served.forward).toMatchObject({ applied: false, total: 1 });
      const forwardCli = await runBuilt(
        ['evaluate', '--json', '--horizon', '5', '--no-save', '--quiet', '--forward-only'],
        { home: analyzeHome, nodeArguments: ['--import', preload] },
      );
      const forwardAnswer = await client.callTool({
        name: 'evaluate',
        arguments: { horizons: [5], forwardOnly: true },
      });
      // The run was analysed as of a past day, so its outcome was known when it was sealed.
      expect(forwardCli.code).toBe(0);
      const forwardPrinted = JSON.parse(forwardCli.stdout) as Record<string, unknown>;
      expect(forwardPrinted.forward).toMatchObject({ applied: true, included: 0 });
      expect({ ...(forwardAnswer.structuredContent as object), evaluatedAt: null }).toEqual({
        ...forwardPrinted,
        evaluatedAt: null,
      });
    } finally {
      await client.close();
    }
  }, 120_000);
});
