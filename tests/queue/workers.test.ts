import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import type { AnalysisResult } from '../../src/result/types.js';
import { captureIo } from '../support/cli.js';
import { noRedisMessage, redisServerPath, startRedisServer, type RedisServer } from '../../testkit/redis-server.js';
import { ensureBuilt } from '../smoke/support.js';
import { startAnalysisServer } from './support/analysis-server.js';
import { eventually, inspectQueue, queueName } from './support/queue.js';
import { spawnWorker, type WorkerProcess } from './support/worker-process.js';

const available = redisServerPath() !== null;
let redis: RedisServer;
const workers: WorkerProcess[] = [];

/** `promise`, or a failure that says what was happening when it did not settle in time. */
async function within<T>(ms: number, promise: Promise<T>, explain: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(explain())), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function enqueueAndWait(queue: string, tickers: string[]) {
  const io = captureIo();
  const code = await runCli(['enqueue', ...tickers, '--redis', redis.url, '--queue', queue, '--wait', '--jsonl'], io);
  return {
    code,
    io,
    results: io
      .out()
      .trimEnd()
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as AnalysisResult),
  };
}

describe.skipIf(!available)(available ? 'worker processes on a real Redis' : noRedisMessage, () => {
  beforeAll(async () => {
    await ensureBuilt();
    redis = await startRedisServer();
  }, 120_000);
  afterAll(async () => {
    for (const worker of workers)
      if (worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill('SIGKILL');
    await redis?.stop();
  });

  it('12 tickers to 2 worker processes: 12 results, each ticker analysed once, the work shared', async () => {
    const queue = queueName('two');
    // Each analysis takes a moment (its desks answer after 300 ms), so one worker at
    // concurrency 2 cannot drain the queue before the other has asked for a job.
    const server = await startAnalysisServer(({ agent }) =>
      agent === 'quant' ? { answer: { text: 'quant report.' }, delayMs: 300 } : undefined,
    );
    try {
      const spawned = await Promise.all(
        [0, 1].map(() =>
          spawnWorker({ redisUrl: redis.url, queue, modelUrl: server.url, args: ['--concurrency', '2'] }),
        ),
      );
      workers.push(...spawned);
      const tickers = Array.from({ length: 12 }, (_, index) => `TWO${String(index + 1).padStart(2, '0')}`);
      const { code, results } = await enqueueAndWait(queue, tickers);
      expect(code).toBe(0);
      expect(results.map((result) => result.ticker).sort()).toEqual(tickers);
      for (const ticker of tickers) expect(server.plansFor(ticker)).toBe(1);
      const saved = spawned.map((worker) => worker.savedRuns().map((result) => result.ticker));
      expect(saved.flat().sort()).toEqual(tickers);
      expect(saved.every((tickersOfOne) => tickersOfOne.length > 0)).toBe(true);
      for (const worker of spawned) worker.child.kill('SIGTERM');
      for (const worker of spawned) expect((await worker.exited()).signal).toBeNull();
    } finally {
      await server.close();
    }
  }, 90_000);

  it('a worker SIGKILLed while it holds a job costs nothing but time: another worker completes it, exactly once', async () => {
    const queue = queueName('kill');
    let first = true;
    // The first worker's plan call is never answered: the worker is killed holding the job.
    const server = await startAnalysisServer(({ ticker, agent }) => {
      if (ticker === 'HELD' && agent === 'director' && first) {
        first = false;
        return { hang: true };
      }
      return undefined;
    });
    const view = inspectQueue(redis.url, queue);
    try {
      const doomed = await spawnWorker({
        redisUrl: redis.url,
        queue,
        modelUrl: server.url,
        // The rescue waits for the lost lock to lapse: a short one.
        stallIntervalSeconds: 1,
        args: ['--concurrency', '1'],
      });
      workers.push(doomed);
      const waiting = enqueueAndWait(queue, ['HELD']);
      await eventually('the first worker to hold the job', () => server.plansFor('HELD') === 1);
      doomed.child.kill('SIGKILL');
      expect((await doomed.exited()).signal).toBe('SIGKILL');
      const rescuer = await spawnWorker({
        redisUrl: redis.url,
        queue,
        modelUrl: server.url,
        // The rescue waits for the lost lock to lapse: a short one.
        stallIntervalSeconds: 1,
        args: ['--concurrency', '1'],
      });
      workers.push(rescuer);
      const { code, results } = await within(
        30_000,
        waiting,
        () => `the held job was not completed; the second worker said:\n${rescuer.stderr()}`,
      );
      expect(code).toBe(0);
      expect(results.map((result) => [result.ticker, result.status])).toEqual([['HELD', 'ok']]);
      expect(doomed.savedRuns()).toEqual([]);
      expect(rescuer.savedRuns().map((result) => result.ticker)).toEqual(['HELD']);
      expect(rescuer.stderr().match(/job HELD@\S+ done: ok/g)).toHaveLength(1);
      // Analysed twice (the killed attempt and the rescue), completed once.
      expect(server.plansFor('HELD')).toBe(2);
      expect(await view.queue.getJobCounts('completed', 'failed', 'active', 'waiting')).toEqual({
        completed: 1,
        failed: 0,
        active: 0,
        waiting: 0,
      });
      rescuer.child.kill('SIGTERM');
      await rescuer.exited();
    } finally {
      await view.close();
      await server.close();
    }
  }, 90_000);

  it('SIGTERM lets the job in flight finish, then the worker exits on its own', async () => {
    const queue = queueName('term');
    const server = await startAnalysisServer(({ ticker, agent }) =>
      ticker === 'SLOW' && agent === 'quant' ? { answer: { text: 'slow quant.' }, delayMs: 1_500 } : undefined,
    );
    try {
      const worker = await spawnWorker({ redisUrl: redis.url, queue, modelUrl: server.url });
      workers.push(worker);
      const waiting = enqueueAndWait(queue, ['SLOW']);
      await eventually('the quant call of SLOW to arrive', () =>
        server.requests.some((request) => request.headers['x-autohedge-agent'] === 'quant'),
      );
      worker.child.kill('SIGTERM');
      const { code, results } = await within(
        15_000,
        waiting,
        () => `the job did not complete; the worker said:\n${worker.stderr()}`,
      );
      expect(code).toBe(0);
      expect(results.map((result) => result.status)).toEqual(['ok']);
      const exit = await worker.exited();
      expect(exit.signal).toBeNull();
      expect([0, 143]).toContain(exit.code);
      expect(worker.stderr()).toContain(
        'autohedge worker: stopping: no new jobs; letting the analyses in flight finish',
      );
      expect(worker.stderr()).toContain('autohedge worker: stopped');
      expect(worker.savedRuns().map((result) => result.ticker)).toEqual(['SLOW']);
    } finally {
      await server.close();
    }
  }, 30_000);
});

describe.skipIf(!available)(
  available ? 'a worker whose Redis stops mid-run (issue 47 item 22)' : noRedisMessage,
  () => {
    beforeAll(async () => {
      await ensureBuilt();
    }, 240_000);

    it('on SIGTERM the run in flight is interrupted and saved as interrupted, not lost', async () => {
      const own = await startRedisServer();
      const queue = queueName('gone');
      const server = await startAnalysisServer(({ ticker, agent }) =>
        ticker === 'HANG' && agent === 'quant' ? { answer: { text: 'never in time.' }, delayMs: 60_000 } : undefined,
      );
      try {
        const worker = await spawnWorker({ redisUrl: own.url, queue, modelUrl: server.url });
        workers.push(worker);
        const io = captureIo();
        expect(await runCli(['enqueue', 'HANG', '--redis', own.url, '--queue', queue], io)).toBe(0);
        await eventually('the quant call of HANG to arrive', () =>
          server.requests.some((request) => request.headers['x-autohedge-agent'] === 'quant'),
        );
        await own.stop();
        worker.child.kill('SIGTERM');
        const exit = await within(30_000, worker.exited(), () => `the worker did not exit:\n${worker.stderr()}`);
        expect(exit.signal).toBeNull();
        expect(worker.stderr()).toContain('interrupting 1 analysis(es) in flight');
        const saved = worker.savedRuns();
        expect(saved.map((result) => [result.ticker, result.status])).toEqual([['HANG', 'interrupted']]);
      } finally {
        await server.close();
        await own.stop().catch(() => undefined);
      }
    }, 90_000);
  },
);
