// watch --enqueue: the triggered tickers become RunRequest jobs on a real redis-server, which
// a `worker` (in-process here) runs and saves; the next cycle carries their calls.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import type { WatchReport } from '../../src/watch/delta.js';
import { noRedisMessage, redisServerPath, startRedisServer, type RedisServer } from '../../testkit/redis-server.js';
import { captureIo } from '../support/cli.js';
import { byAgent } from '../support/faults.js';
import { startOpenAIServer, type OpenAIServer } from '../support/openai-server.js';
import { eventually, inspectQueue, queueName } from '../queue/support/queue.js';
import { pathMarket, sessionsEndingOn, syntheticPath } from './support.js';

const available = redisServerPath() !== null;
const days = sessionsEndingOn('2026-11-20', 280);
const tickers = ['AAA', 'BBB', 'CCC'];
const paths = Object.fromEntries(tickers.map((ticker, index) => [ticker, syntheticPath(days, 260, 40 + index, {})]));

describe.skipIf(!available)(available ? 'watch --enqueue on a real Redis' : noRedisMessage, () => {
  let redis: RedisServer;
  let server: OpenAIServer;
  beforeAll(async () => {
    redis = await startRedisServer();
    server = await startOpenAIServer(byAgent());
  }, 30_000);
  afterAll(async () => {
    await server?.close();
    await redis?.stop();
  });

  it('enqueues one RunRequest job per triggered ticker; a worker runs them; the next cycle carries them', async () => {
    const queue = queueName('watch');
    const base = captureIo();
    writeFileSync(join(base.cwd, 'watchlist.txt'), `${tickers.join('\n')}\n`);
    const env = { ...base.env, OPENAI_API_KEY: 'sk-watch-queue-0000', OPENAI_BASE_URL: server.url };
    const deps = { market: pathMarket(paths), now: () => new Date('2026-12-01T12:00:00Z') };
    const watch = (io: ReturnType<typeof captureIo>) =>
      runCli(
        [
          'watch',
          '--universe',
          'watchlist.txt',
          '--once',
          '--json',
          '--search',
          'none',
          '--quiet',
          '--enqueue',
          '--redis',
          redis.url,
          '--queue',
          queue,
        ],
        { ...io, cwd: base.cwd, env },
        deps,
      );
    const first = captureIo();
    expect(await watch(first), first.err()).toBe(0);
    const report = JSON.parse(first.out()) as WatchReport;
    expect(report.analysed.map((item) => [item.ticker, item.triggers[0]!.name, item.jobId !== undefined])).toEqual(
      tickers.map((ticker) => [ticker, 'no-call', true]),
    );
    const view = inspectQueue(redis.url, queue);
    try {
      const jobs = await view.queue.getJobs(['waiting']);
      expect(jobs.map((job) => (job.data as { ticker: string }).ticker).sort()).toEqual(tickers);
      expect(jobs.every((job) => (job.data as { version: number }).version === 1)).toBe(true);
    } finally {
      await view.close();
    }

    const controller = new AbortController();
    const workerIo = captureIo({ signal: controller.signal });
    const worker = runCli(
      ['worker', '--redis', redis.url, '--queue', queue, '--base-url', server.url, '--search', 'none'],
      { ...workerIo, env },
      deps,
    );
    await eventually('the three jobs to be done', () => (workerIo.err().match(/ done: /g) ?? []).length >= 3, 60_000);
    controller.abort(new Error('interrupted'));
    await worker;

    const second = captureIo();
    expect(await watch(second), second.err()).toBe(0);
    const next = JSON.parse(second.out()) as WatchReport;
    expect(next.analysed).toEqual([]);
    expect(next.carried.map((item) => item.ticker).sort()).toEqual(tickers);
  }, 120_000);
});
