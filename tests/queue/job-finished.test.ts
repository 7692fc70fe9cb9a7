import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { jobFinished, type JobWaitSources } from '../../src/queue/job-finished.js';

/** A queue and its events as the wait sees them, the job's state and hash set by each test. */
function fakeQueue(state: () => Promise<string>, job?: { returnvalue: unknown; failedReason?: string }) {
  const queue = {
    getJobState: (_jobId: string) => state(),
    getJob: async (_jobId: string) => job,
  };
  const events = Object.assign(new EventEmitter(), { waitUntilReady: async () => undefined });
  const sources: JobWaitSources = { queue, events };
  const stop = new AbortController();
  return { events, sources, stop };
}

describe('waiting for one queued job', () => {
  it('resolves with the value its completed event carries, and stops listening', async () => {
    const { events, sources, stop } = fakeQueue(async () => 'active');
    const finished = jobFinished(sources, 'job-1', stop.signal);
    await new Promise((resolve) => setImmediate(resolve));
    events.emit('completed:job-2', { returnvalue: 'not mine' });
    events.emit('completed:job-1', { returnvalue: { ticker: 'ACME' } });
    await expect(finished).resolves.toEqual({ ticker: 'ACME' });
    expect(events.listenerCount('completed:job-1') + events.listenerCount('failed:job-1')).toBe(0);
  });

  it('rejects with the reason its failed event carries', async () => {
    const { events, sources, stop } = fakeQueue(async () => 'active');
    const finished = jobFinished(sources, 'job-1', stop.signal);
    events.emit('failed:job-1', { failedReason: 'DataError: no quote' });
    await expect(finished).rejects.toThrow('DataError: no quote');
  });

  it('reads a job that finished before the wait began from the queue', async () => {
    const completed = fakeQueue(async () => 'completed', { returnvalue: 42 });
    await expect(jobFinished(completed.sources, 'job-1', completed.stop.signal)).resolves.toBe(42);
    const failed = fakeQueue(async () => 'failed', { returnvalue: null, failedReason: 'the server refused' });
    await expect(jobFinished(failed.sources, 'job-1', failed.stop.signal)).rejects.toThrow('the server refused');
  });

  it('rejects when the waiting stops (Ctrl-C on enqueue --wait), and stops listening', async () => {
    const { events, sources, stop } = fakeQueue(async () => 'waiting');
    const finished = jobFinished(sources, 'job-1', stop.signal);
    stop.abort();
    await expect(finished).rejects.toThrow('stopped waiting before the job finished');
    expect(events.listenerCount('completed:job-1')).toBe(0);
    await expect(jobFinished(sources, 'job-2', stop.signal)).rejects.toThrow('stopped waiting');
  });

  it('a connection closed under its check of the job rejects the promise the caller holds, nothing unhandled', async () => {
    const unhandled: unknown[] = [];
    const record = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', record);
    try {
      const { sources, stop } = fakeQueue(() => Promise.reject(new Error('Connection is closed.')));
      await expect(jobFinished(sources, 'job-1', stop.signal)).rejects.toThrow('Connection is closed.');
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', record);
    }
  });
});
