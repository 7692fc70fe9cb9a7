import { Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import type { CliDeps } from '../../src/cli/deps.js';
import { DataError } from '../../src/errors.js';
import type { AnalysisResult } from '../../src/result/types.js';
import type { SearchProvider } from '../../src/search/types.js';
import { captureIo, type CapturedIo } from '../support/cli.js';
import { fakeMarket, makeSnapshot } from '../support/market.js';
import { errorReply, toolCallAnswer } from '../support/openai-server.js';
import { fixtureServer, writeConfig } from '../mcp/support.js';
import { noRedisMessage, redisServerPath, startRedisServer, type RedisServer } from '../../testkit/redis-server.js';
import { startAnalysisServer, type AnalysisServer } from './support/analysis-server.js';
import { eventually, inspectQueue, queueName } from './support/queue.js';

const available = redisServerPath() !== null;
const search: SearchProvider = { search: async () => [] };
const market = () =>
  fakeMarket((ticker) => {
    if (ticker === 'NOPE') throw new DataError("unknown ticker 'NOPE'", 'unknown-ticker');
    return makeSnapshot(ticker);
  });

let redis: RedisServer;

/** An in-process `autohedge worker` against the loopback model server; stop() is its Ctrl-C. */
async function startWorker(
  queue: string,
  server: AnalysisServer,
  extra: string[] = [],
  injected: CliDeps = { market: market(), search },
) {
  const controller = new AbortController();
  const io = captureIo({ signal: controller.signal });
  io.env.OPENAI_API_KEY = 'sk-queue-test-key-0000';
  const deps = injected;
  const args = [
    'worker',
    '--redis',
    redis.url,
    '--queue',
    queue,
    '--base-url',
    server.url,
    '--stall-interval',
    '1',
    '--rate-limit-pause',
    '0.3',
    ...extra,
  ];
  const exit = runCli(args, io, deps);
  await eventually(
    'the worker to start',
    () => io.err().includes('waiting for jobs') || io.err().includes('autohedge: '),
  );
  return {
    io,
    async stop(): Promise<number> {
      controller.abort(new Error('interrupted'));
      return exit;
    },
  };
}

function enqueue(args: string[], io: CapturedIo = captureIo()) {
  return {
    io,
    exit: runCli(['enqueue', ...args, '--redis', redis.url], io, { now: () => new Date('2026-11-28T12:00:00Z') }),
  };
}

describe.skipIf(!available)(available ? 'the job queue on a real Redis' : noRedisMessage, () => {
  beforeAll(async () => {
    redis = await startRedisServer();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  it('the same ticker enqueued twice (same as-of day) is one job; its id carries no ":"', async () => {
    const queue = queueName('twice');
    const first = enqueue(['acme', '--queue', queue]);
    expect(await first.exit).toBe(0);
    expect(first.io.out()).toBe('ACME@2026-11-28\n');
    const second = enqueue(['ACME', 'GLBX', '--queue', queue]);
    expect(await second.exit).toBe(0);
    expect(second.io.out()).toBe('ACME@2026-11-28\nGLBX@2026-11-28\n');
    expect(second.io.err()).toMatch(/^autohedge: 1 added, 1 already queued or done on queue '/);
    const third = enqueue(['ACME', '--queue', queue]);
    expect(await third.exit).toBe(0);
    expect(third.io.err()).toMatch(/^autohedge: 0 added, 1 already queued or done on queue '/);
    const view = inspectQueue(redis.url, queue);
    try {
      expect(await view.queue.getJobCounts('waiting')).toEqual({ waiting: 2 });
    } finally {
      await view.close();
    }
  });

  it('Ctrl-C stops enqueue --wait, not the jobs: they stay queued for the workers', async () => {
    const queue = queueName('ctrlc');
    const controller = new AbortController();
    const io = captureIo({ signal: controller.signal });
    const waiting = enqueue(['LATER', '--queue', queue, '--wait'], io);
    await eventually('the job to be enqueued', () => io.err().includes('1 added'));
    controller.abort(new Error('interrupted'));
    expect(await waiting.exit).toBe(130);
    expect(io.err()).toContain('autohedge: stopped waiting; the jobs stay queued and the workers carry on');
    expect(io.err()).not.toContain('failed');
    const view = inspectQueue(redis.url, queue);
    try {
      expect(await view.queue.getJobCounts('waiting')).toEqual({ waiting: 1 });
    } finally {
      await view.close();
    }
  });

  it('a worker analyses the jobs; enqueue --wait --jsonl prints each result as it completes, then the summary', async () => {
    const queue = queueName('wait');
    const server = await startAnalysisServer();
    const worker = await startWorker(queue, server, ['--concurrency', '2']);
    try {
      const waiting = enqueue(['AAA', 'BBB', 'CCC', '--queue', queue, '--wait', '--jsonl']);
      expect(await waiting.exit).toBe(0);
      const results = waiting.io
        .out()
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as AnalysisResult);
      // A live request runs as of the moment the worker runs it (its job id names the day it was enqueued).
      expect(results.map((result) => [result.ticker, result.status, result.asOfMode]).sort()).toEqual([
        ['AAA', 'ok', 'live'],
        ['BBB', 'ok', 'live'],
        ['CCC', 'ok', 'live'],
      ]);
      expect(waiting.io.err()).toContain('Universe: 3 analysed — 3 ok');
      for (const ticker of ['AAA', 'BBB', 'CCC']) expect(server.plansFor(ticker)).toBe(1);
      // Waiting again on finished jobs adds nothing and analyses nothing: the results come from the queue.
      const again = enqueue(['AAA', '--queue', queue, '--wait', '--json']);
      expect(await again.exit).toBe(0);
      expect((JSON.parse(again.io.out()) as AnalysisResult).ticker).toBe('AAA');
      expect(server.plansFor('AAA')).toBe(1);
    } finally {
      expect(await worker.stop()).toBe(0);
      await server.close();
    }
    expect(worker.io.err()).toContain('autohedge worker: stopped');
  });

  it("the worker's --model and --search reach every job's analysis", async () => {
    const queue = queueName('flags');
    const server = await startAnalysisServer();
    // No search injected: the worker builds it from its own --search.
    const worker = await startWorker(queue, server, ['--model', 'gpt-4.1-mini', '--search', 'none'], {
      market: market(),
    });
    try {
      const waiting = enqueue(['FLAGS', '--queue', queue, '--wait', '--json']);
      expect(await waiting.exit).toBe(0);
      expect(new Set(server.requests.map((request) => request.body.model))).toEqual(new Set(['gpt-4.1-mini']));
      const sentiment = server.requests.filter((request) => request.headers['x-autohedge-agent'] === 'sentiment');
      expect(sentiment.length).toBeGreaterThan(0);
      for (const request of sentiment) expect(request.body.tools).toBeUndefined();
    } finally {
      await worker.stop();
      await server.close();
    }
  });

  it('worker --mcp-config binds the allow-listed MCP tool to the desk, as analyze --mcp-config does', async () => {
    const queue = queueName('mcp');
    const config = writeConfig({
      mcpServers: {
        fixture: { command: process.execPath, args: [fixtureServer], autohedge: { agents: { quant: ['get.quote'] } } },
      },
    });
    const server = await startAnalysisServer(({ agent, request }) => {
      const called = (request.body?.messages ?? []).some((message: { role: string }) => message.role === 'tool');
      if (agent !== 'quant' || called) return undefined;
      return toolCallAnswer([
        { id: 'call_quote', name: 'fixture__get_quote', arguments: { ticker: 'MCPQ', days: null, currency: null } },
      ]);
    });
    const worker = await startWorker(queue, server, ['--mcp-config', config]);
    try {
      const waiting = enqueue(['MCPQ', '--agent', 'quant', '--queue', queue, '--wait', '--json']);
      expect(await waiting.exit).toBe(0);
      const result = JSON.parse(waiting.io.out()) as AnalysisResult;
      const quant = server.requests.filter((request) => request.headers['x-autohedge-agent'] === 'quant');
      const tools = quant[0]?.body.tools as Array<{ function: { name: string } }>;
      expect(tools.map((tool) => tool.function.name)).toEqual(['fixture__get_quote']);
      expect(result.reports[0]?.toolCalls).toMatchObject([{ name: 'fixture__get_quote', error: null }]);
      expect(result.usage.toolCalls).toEqual({ fixture__get_quote: 1 });
    } finally {
      await worker.stop();
      await server.close();
    }
  });

  it("a job's value that is not an AnalysisResult (another producer's worker) is a failure line, not a crash", async () => {
    const queue = queueName('forged');
    const connection = new Redis(redis.url, { maxRetriesPerRequest: null });
    const forger = new Worker(queue, async () => ({ ticker: 'FORGED', status: '\u001b[2Jok' }), { connection });
    try {
      const waiting = enqueue(['FORGED', '--queue', queue, '--wait']);
      expect(await waiting.exit).toBe(1);
      expect(waiting.io.out()).toBe('');
      expect(waiting.io.err()).toContain(
        "autohedge: job FORGED@2026-11-28 failed: the job's value is not an AnalysisResult (runId: ",
      );
      expect(waiting.io.err()).not.toContain('\u001b');
    } finally {
      await forger.close();
      connection.disconnect();
    }
  });

  it('an unknown ticker, malformed job data and an unknown request version fail at once, without retries', async () => {
    const queue = queueName('unrecoverable');
    const server = await startAnalysisServer();
    const worker = await startWorker(queue, server);
    const view = inspectQueue(redis.url, queue);
    try {
      // A producer other than `enqueue` (which validates) can put anything on the queue.
      const retried = { attempts: 4, backoff: { type: 'exponential', delay: 100 } };
      await view.queue.add('analyze', { version: 1, ticker: 'BRK B' }, { jobId: 'bad-data', ...retried });
      // A job from before run requests (or a newer autohedge's) names no version this worker knows.
      await view.queue.add(
        'analyze',
        { ticker: 'OLD', asOf: '2026-11-28T12:00:00.000Z' },
        { jobId: 'old', ...retried },
      );
      await view.queue.add('analyze', { version: 99, ticker: 'NEW' }, { jobId: 'newer', ...retried });
      const waiting = enqueue(['NOPE', '--queue', queue, '--wait']);
      expect(await waiting.exit).toBe(2);
      expect(waiting.io.err()).toContain("autohedge: job NOPE@2026-11-28 failed: DataError: unknown ticker 'NOPE'");
      const unknown = await view.queue.getJob('NOPE@2026-11-28');
      expect(unknown?.attemptsMade).toBe(1);
      const malformed = await eventually('the malformed job to fail', async () =>
        (await view.queue.getJob('bad-data'))?.failedReason ? view.queue.getJob('bad-data') : null,
      );
      expect(malformed.attemptsMade).toBe(1);
      expect(malformed.failedReason).toMatch(/^malformed job data: invalid run request: ticker/);
      for (const id of ['old', 'newer']) {
        const refused = await eventually(`job ${id} to fail`, async () =>
          (await view.queue.getJob(id))?.failedReason ? view.queue.getJob(id) : null,
        );
        expect(refused.attemptsMade).toBe(1);
        expect(refused.failedReason).toMatch(
          /^job refused: unknown run request version (null|99) \(this autohedge reads version 1\)$/,
        );
      }
      expect(server.requests).toHaveLength(0);
    } finally {
      await view.close();
      await worker.stop();
      await server.close();
    }
  });

  it('a transient failure is retried with back-off and then succeeds', async () => {
    const queue = queueName('transient');
    let refused = 0;
    // The first plan call fails with 503 through all of the SDK's own retries: attempt 1 fails.
    const server = await startAnalysisServer(({ agent, request }) => {
      if (agent === 'director' && request.body?.response_format?.json_schema?.name === 'plan' && refused < 3) {
        refused += 1;
        return errorReply(503, { message: 'overloaded', type: 'server_error' }, { 'retry-after-ms': '1' });
      }
      return undefined;
    });
    const worker = await startWorker(queue, server);
    const view = inspectQueue(redis.url, queue);
    try {
      const waiting = enqueue(['RETRY', '--queue', queue, '--wait', '--json', '--backoff', '0.2']);
      expect(await waiting.exit).toBe(0);
      expect((JSON.parse(waiting.io.out()) as AnalysisResult).status).toBe('ok');
      // BullMQ counts every attempt made, the one that succeeded too.
      expect((await view.queue.getJob('RETRY@2026-11-28'))?.attemptsMade).toBe(2);
      expect(worker.io.err()).toContain('job RETRY@2026-11-28 attempt 1 failed: ');
    } finally {
      await view.close();
      await worker.stop();
      await server.close();
    }
  });

  it('a 401 from the model server fails the job at once: its result says retryable false, and no attempt is retried', async () => {
    const queue = queueName('unauthorised');
    const server = await startAnalysisServer(() =>
      errorReply(401, {
        message: 'Incorrect API key provided',
        type: 'invalid_request_error',
        code: 'invalid_api_key',
      }),
    );
    const worker = await startWorker(queue, server);
    const view = inspectQueue(redis.url, queue);
    try {
      const waiting = enqueue(['DENIED', '--queue', queue, '--wait', '--attempts', '4', '--backoff', '0.1']);
      expect(await waiting.exit).toBe(1);
      expect(waiting.io.err()).toContain('autohedge: job DENIED@2026-11-28 failed: ModelError: Director plan failed: ');
      const job = await view.queue.getJob('DENIED@2026-11-28');
      expect(job?.attemptsMade).toBe(1);
      expect(server.plansFor('DENIED')).toBe(1);
      expect(worker.io.err()).toContain('job DENIED@2026-11-28 failed, not retried: ModelError: ');
    } finally {
      await view.close();
      await worker.stop();
      await server.close();
    }
  });

  it('Yahoo unreachable: the job is retried with back-off, not done as degraded; after the outage it can be enqueued again the same day', async () => {
    const queue = queueName('outage');
    const server = await startAnalysisServer(() => undefined);
    let yahooDown = true;
    const outageMarket = fakeMarket((ticker) => {
      if (yahooDown) throw new DataError('could not reach Yahoo Finance (ECONNREFUSED)', 'unreachable');
      return makeSnapshot(ticker);
    });
    const worker = await startWorker(queue, server, [], { market: outageMarket, search });
    const view = inspectQueue(redis.url, queue);
    try {
      const waiting = enqueue(['DARK', '--queue', queue, '--wait', '--attempts', '2', '--backoff', '0.1']);
      expect(await waiting.exit).toBe(1);
      expect(waiting.io.err()).toContain('market data missing');
      const job = await view.queue.getJob('DARK@2026-11-28');
      expect(job?.attemptsMade).toBe(2);
      expect(worker.io.err()).toContain('attempt 1 failed: market data missing');
      expect(worker.io.err()).not.toContain('DARK@2026-11-28 done');
      // The outage is over: the same (ticker, day) can be run again.
      yahooDown = false;
      const again = enqueue(['DARK', '--queue', queue, '--wait', '--attempts', '2', '--backoff', '0.1']);
      expect(await again.exit).toBe(0);
      expect(again.io.err()).toMatch(/^autohedge: 1 added on queue '/);
      expect(worker.io.err()).toContain('job DARK@2026-11-28 done: ok');
    } finally {
      await view.close();
      await worker.stop();
      await server.close();
    }
  });

  it('a 429 storm pauses the queue, each pause spending an attempt; with attempts to spare every job completes', async () => {
    const queue = queueName('storm');
    let refused = 0;
    // The first 12 model calls all get 429: more than the pacer's retries of any one call.
    const server = await startAnalysisServer(() => {
      if (refused >= 12) return undefined;
      refused += 1;
      return errorReply(
        429,
        { message: 'Rate limit reached for requests', type: 'requests', code: 'rate_limit_exceeded' },
        { 'retry-after-ms': '5' },
      );
    });
    const worker = await startWorker(queue, server, ['--concurrency', '2']);
    const view = inspectQueue(redis.url, queue);
    try {
      const waiting = enqueue([
        'STORM1',
        'STORM2',
        'STORM3',
        ...['--queue', queue, '--wait', '--jsonl', '--attempts', '5', '--backoff', '0.1'],
      ]);
      expect(await waiting.exit).toBe(0);
      const results = waiting.io
        .out()
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as AnalysisResult);
      expect(results.map((result) => result.status)).toEqual(['ok', 'ok', 'ok']);
      const attempts = await Promise.all(
        ['STORM1', 'STORM2', 'STORM3'].map(
          async (ticker) => (await view.queue.getJob(`${ticker}@2026-11-28`))!.attemptsMade,
        ),
      );
      // At least one job met a 429 that outlasted the pacer's retries, and that pause spent an attempt.
      expect(Math.max(...attempts)).toBeGreaterThan(1);
      expect(worker.io.err()).toMatch(/rate limit hit \(429\).*queue paused 5 ms, attempt 1 of 5 spent/);
    } finally {
      await view.close();
      await worker.stop();
      await server.close();
    }
  });
});

describe('the job queue without Redis', () => {
  it('an unreachable Redis is one clear line and exit 2', async () => {
    const io = captureIo();
    const code = await runCli(['enqueue', 'ACME', '--redis', 'redis://:hunter2secret@127.0.0.1:1'], io);
    expect(code).toBe(2);
    expect(io.err()).toBe(
      'autohedge: cannot reach Redis at redis://REDACTED@127.0.0.1:1 (ECONNREFUSED): start redis-server, or point --redis / AUTOHEDGE_REDIS_URL at yours\n',
    );
  });

  it('a bad --redis URL is a usage error', async () => {
    const io = captureIo();
    expect(await runCli(['worker', '--redis', 'http://example.com'], io)).toBe(2);
    expect(io.err()).toBe('autohedge: --redis must be a redis:// or rediss:// URL (got a http: URL)\n');
  });
});
