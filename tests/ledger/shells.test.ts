import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { verifyLedgerFile } from '../../src/ledger/check.js';
import { ledgerPaths } from '../../src/ledger/paths.js';
import type { SearchProvider } from '../../src/search/types.js';
import { noRedisMessage, redisServerPath, startRedisServer, type RedisServer } from '../../testkit/redis-server.js';
import { binPath, ensureBuilt, repoRoot } from '../smoke/support.js';
import { captureIo } from '../support/cli.js';
import { agentOf, goodAnswer } from '../support/faults.js';
import { fakeMarket } from '../support/market.js';
import { startOpenAIServer } from '../support/openai-server.js';
import { startAnalysisServer } from '../queue/support/analysis-server.js';
import { queueName } from '../queue/support/queue.js';
import { spawnWorker, type WorkerProcess } from '../queue/support/worker-process.js';
import { universeModel } from '../universe/support.js';

/** Every shell that saves a run appends its record: the CLI, --universe, the worker, the MCP server's analyze. */

const search: SearchProvider = { search: async () => [] };
const now = () => new Date('2026-11-28T12:00:00Z');

async function ledgerOf(home: string, demo = false) {
  const report = await verifyLedgerFile({ file: ledgerPaths(home, { demo }).file, runsHome: home });
  expect(report.firstBad).toBeUndefined();
  return report.verified;
}

describe('the CLI appends a record for each saved run with a decision', () => {
  it('analyze AAA: one record, whose digest is the saved result.json', async () => {
    const io = captureIo();
    const code = await runCli(['analyze', 'AAA', '--quiet'], io, {
      model: universeModel(1),
      market: fakeMarket(),
      search,
      now,
    });
    expect(code).toBe(0);
    const records = await ledgerOf(io.env.AUTOHEDGE_HOME!);
    expect(records.map((record) => [record.seq, record.ticker, record.decision.action])).toEqual([[0, 'AAA', 'HOLD']]);
  });

  it('analyze --universe at concurrency 3: one record per ticker, one chain', async () => {
    const io = captureIo();
    writeFileSync(path.join(io.cwd, 'universe.txt'), 'AAA\nBBB\nCCC\nDDD\n');
    const code = await runCli(['analyze', '--universe', 'universe.txt', '--concurrency', '3', '--quiet'], io, {
      model: universeModel(4),
      market: fakeMarket(),
      search,
      now,
    });
    expect(code).toBe(0);
    const records = await ledgerOf(io.env.AUTOHEDGE_HOME!);
    expect(records.map((record) => record.ticker).sort()).toEqual(['AAA', 'BBB', 'CCC', 'DDD']);
    expect(records.map((record) => record.seq)).toEqual([0, 1, 2, 3]);
  });

  it('a demo run goes to the demo ledger, marked; the real ledger stays empty', async () => {
    const io = captureIo();
    expect(await runCli(['analyze', 'ACME', '--demo', '--quiet'], io)).toBe(0);
    const home = io.env.AUTOHEDGE_HOME!;
    expect(existsSync(ledgerPaths(home).file)).toBe(false);
    const records = await ledgerOf(home, true);
    expect(records).toMatchObject([{ ticker: 'ACME', demo: true }]);
  });

  it('a ledger that cannot be written: the run stays saved, and the warning says it was not recorded', async () => {
    const io = captureIo();
    // A file where the ledger's directory should be.
    writeFileSync(path.join(io.env.AUTOHEDGE_HOME!, 'ledger'), 'not a directory');
    const code = await runCli(['analyze', 'AAA'], io, { model: universeModel(1), market: fakeMarket(), search, now });
    expect(code).toBe(0);
    expect(io.err()).toMatch(/warning: run \S+-AAA-\S+ was saved but not recorded in the ledger: /);
    expect(readdirSync(path.join(io.env.AUTOHEDGE_HOME!, 'runs'))).toHaveLength(1);
  });

  it('--no-save records nothing', async () => {
    const io = captureIo();
    const code = await runCli(['analyze', 'AAA', '--no-save', '--quiet'], io, {
      model: universeModel(1),
      market: fakeMarket(),
      search,
      now,
    });
    expect(code).toBe(0);
    expect(existsSync(ledgerPaths(io.env.AUTOHEDGE_HOME!).directory)).toBe(false);
  });
});

const redisAvailable = redisServerPath() !== null;

describe.skipIf(!redisAvailable)(redisAvailable ? 'the worker on a real redis-server appends' : noRedisMessage, () => {
  let redis: RedisServer;
  const workers: WorkerProcess[] = [];
  beforeAll(async () => {
    await ensureBuilt();
    redis = await startRedisServer();
  }, 180_000);
  afterAll(async () => {
    for (const worker of workers) if (worker.child.exitCode === null) worker.child.kill('SIGKILL');
    await redis?.stop();
  });

  it('two jobs: two records in the worker home’s ledger', async () => {
    const queue = queueName('ledger');
    const server = await startAnalysisServer();
    try {
      const worker = await spawnWorker({ redisUrl: redis.url, queue, modelUrl: server.url });
      workers.push(worker);
      const io = captureIo();
      const code = await runCli(
        ['enqueue', 'LEDA', 'LEDB', '--redis', redis.url, '--queue', queue, '--wait', '--jsonl'],
        io,
      );
      expect(code, io.err()).toBe(0);
      const records = await ledgerOf(worker.home);
      expect(records.map((record) => record.ticker).sort()).toEqual(['LEDA', 'LEDB']);
      expect(records.map((record) => record.runId).sort()).toEqual(
        worker
          .savedRuns()
          .map((run) => run.runId)
          .sort(),
      );
      worker.child.kill('SIGTERM');
      await worker.exited();
    } finally {
      await server.close();
    }
  }, 90_000);
});

describe('the MCP server’s analyze appends', () => {
  beforeAll(async () => {
    await ensureBuilt();
  }, 180_000);

  it('analyze ACME over stdio against a loopback model: one record in the server home’s ledger', async () => {
    const openai = await startOpenAIServer((body, _index, request) => goodAnswer(agentOf(request), body));
    const home = mkdtempSync(path.join(tmpdir(), 'autohedge-ledger-mcp-'));
    const preload = pathToFileURL(path.join(repoRoot, 'tests', 'smoke', 'synthetic-yahoo.preload.mjs')).href;
    const client = new Client({ name: 'autohedge-ledger-test', version: '1.0.0' });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['--import', preload, binPath, 'mcp', '--base-url', openai.url, '--search', 'none'],
      env: {
        PATH: process.env.PATH ?? '',
        NO_COLOR: '1',
        AUTOHEDGE_HOME: home,
        OPENAI_API_KEY: 'sk-mcp-ledger-0123456789',
        YAHOO_STUB_COOKIE: 'A3=d=cookie-ledger',
        YAHOO_STUB_CRUMB: 'crumbLedger01',
      },
      stderr: 'pipe',
    });
    try {
      await client.connect(transport);
      const analyzed = await client.callTool({ name: 'analyze', arguments: { ticker: 'ACME' } });
      expect(analyzed.isError, JSON.stringify(analyzed.content)).toBeFalsy();
      const { runId } = analyzed.structuredContent as { runId: string };
      const records = await ledgerOf(home);
      expect(records).toMatchObject([{ seq: 0, runId, ticker: 'ACME', demo: false }]);
      const saved = readFileSync(path.join(home, 'runs', runId, 'result.json'));
      expect(saved.length).toBeGreaterThan(0);
    } finally {
      await client.close().catch(() => {});
      await openai.close();
    }
  }, 60_000);
});
