// A quota that never clears (issue #34): with Sentiment's model answering 429 on every
// call, the worker's job ends after its attempts instead of re-running forever, spends
// no more than its --max-cost across them, and buys the Director's plan and the desks
// that finished only once. And a worker whose Redis went away stops promptly on SIGTERM.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { captureIo } from '../support/cli.js';
import { fakeMarket, makeSnapshot } from '../support/market.js';
import { errorReply } from '../support/openai-server.js';
import { noRedisMessage, redisServerPath, startRedisServer, type RedisServer } from '../../testkit/redis-server.js';
import { ensureBuilt } from '../smoke/support.js';
import { longBeforeTheHangEnds, neverEndsMs } from '../support/hang.js';
import { startAnalysisServer } from './support/analysis-server.js';
import { eventually, inspectQueue, queueName } from './support/queue.js';
import { spawnWorker } from './support/worker-process.js';

const available = redisServerPath() !== null;
let redis: RedisServer;

describe.skipIf(!available)(available ? 'a 429 that never clears, on a real Redis' : noRedisMessage, () => {
  beforeAll(async () => {
    redis = await startRedisServer();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  it('ends after the attempts, within --max-cost across them, buying the plan and the finished desks once', async () => {
    const queue = queueName('forever');
    const server = await startAnalysisServer(({ agent }) =>
      agent === 'sentiment'
        ? errorReply(
            429,
            { message: 'Rate limit reached for requests per day (RPD)', type: 'requests', code: 'rate_limit_exceeded' },
            { 'retry-after-ms': '5' },
          )
        : undefined,
    );
    const controller = new AbortController();
    const workerIo = captureIo({ signal: controller.signal });
    workerIo.env.OPENAI_API_KEY = 'sk-queue-test-key-0000';
    const cap = 0.05;
    const worker = runCli(
      [
        'worker',
        ...['--redis', redis.url, '--queue', queue, '--base-url', server.url],
        ...['--stall-interval', '1', '--rate-limit-pause', '0.1', '--max-cost', String(cap), '--model', 'gpt-4.1-mini'],
      ],
      workerIo,
      { market: fakeMarket((ticker) => makeSnapshot(ticker)), search: { search: async () => [] } },
    );
    await eventually('the worker to start', () => workerIo.err().includes('waiting for jobs'));
    const view = inspectQueue(redis.url, queue);
    const redisView = new Redis(redis.url);
    try {
      const io = captureIo();
      const code = await runCli(
        ['enqueue', 'LIMITED', '--redis', redis.url, '--queue', queue, '--wait', '--attempts', '3', '--backoff', '0.1'],
        io,
        { now: () => new Date('2026-11-28T12:00:00Z') },
      );
      expect(code).not.toBe(0);
      const job = await view.queue.getJob('LIMITED@2026-11-28');
      expect(await job?.getState()).toBe('failed');
      expect(job?.attemptsMade).toBe(3);
      // Paid once, reused on the two retries.
      expect(server.plansFor('LIMITED')).toBe(1);
      for (const desk of ['quant', 'risk', 'execution'])
        expect(server.requests.filter((request) => request.headers['x-autohedge-agent'] === desk)).toHaveLength(1);
      expect(workerIo.err()).toMatch(/model answers reused from earlier attempts|attempt 3 of 3 spent/);
      const spent = Number(await redisView.get(`autohedge:job:${queue}:LIMITED@2026-11-28:spent`));
      expect(spent).toBeGreaterThan(0);
      expect(spent).toBeLessThanOrEqual(cap);
    } finally {
      redisView.disconnect();
      await view.close();
      controller.abort(new Error('interrupted'));
      await worker;
      await server.close();
    }
  }, 60_000);

  it('an idle worker whose Redis went away exits promptly on SIGTERM', async () => {
    await ensureBuilt();
    const own = await startRedisServer();
    const server = await startAnalysisServer();
    const worker = await spawnWorker({ redisUrl: own.url, queue: queueName('gone'), modelUrl: server.url });
    try {
      await own.stop();
      await eventually('the worker to notice', () => /ECONNREFUSED|Connection is closed/.test(worker.stderr()));
      const sent = Date.now();
      worker.child.kill('SIGTERM');
      const exit = await worker.exited();
      // A graceful close would wait for ever for a Redis that is gone (until a process manager's SIGKILL).
      expect(Date.now() - sent).toBeLessThan(longBeforeTheHangEnds(neverEndsMs));
      expect(exit.code).toBe(143);
      expect(worker.stderr()).toContain('Redis is unreachable');
      // One line per reconnection, no stack dumps.
      expect(worker.stderr()).not.toMatch(/at TCPConnectWrap/);
    } finally {
      if (worker.child.exitCode === null) worker.child.kill('SIGKILL');
      await server.close();
    }
  }, 120_000);
});
