/**
 * `enqueue --wait` when its Redis goes away mid-wait: it ends within seconds, nothing
 * unhandled (its own Redis, stopped by the test).
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { captureIo } from '../support/cli.js';
import { noRedisMessage, redisServerPath, startRedisServer } from '../../testkit/redis-server.js';
import { eventually, queueName } from './support/queue.js';

const available = redisServerPath() !== null;

describe.skipIf(!available)(available ? 'enqueue --wait with Redis gone' : noRedisMessage, () => {
  it('Redis stopped under the wait: it ends at once (Ctrl-C, or the lost connection), never when Redis comes back', async () => {
    const redis = await startRedisServer();
    const controller = new AbortController();
    const io = captureIo({ signal: controller.signal });
    const args = ['enqueue', 'LATER', '--queue', queueName('gone'), '--wait', '--redis', redis.url];
    const exit = runCli(args, io, { now: () => new Date('2026-11-28T12:00:00Z') });
    await eventually('the job to be enqueued', () => io.err().includes('1 added'));
    await redis.stop();
    controller.abort(new Error('interrupted'));
    const started = Date.now();
    // Whichever comes first ends it: Ctrl-C (130), or the waits failing on the lost connection (1).
    const code = await exit;
    expect([130, 1]).toContain(code);
    // Not when Redis comes back (it never does here): the close gives the waits 2 s at most.
    expect(Date.now() - started).toBeLessThan(10_000);
    if (code === 130)
      expect(io.err()).toContain('autohedge: stopped waiting; the jobs stay queued and the workers carry on');
  }, 30_000);
});
