/**
 * Waiting for one job to finish, in place of BullMQ's `job.waitUntilFinished`: that one
 * runs its check for an already finished job inside an `async` Promise executor, so a
 * connection closed at that moment (Ctrl-C on `enqueue --wait`) rejects a promise nobody
 * holds — an unhandled rejection that can end the process. Here every Redis call is awaited
 * by the promise the caller holds.
 */

import type { EventEmitter } from 'node:events';

/** BullMQ's Queue and QueueEvents are EventEmitters with event names typed narrower than ours. */
type Listening = Pick<EventEmitter, 'on' | 'off'>;

interface FinishedJob {
  returnvalue: unknown;
  failedReason?: string;
}

/** The parts of a BullMQ Queue and QueueEvents the wait uses. */
export interface JobWaitSources {
  queue: {
    getJobState(jobId: string): Promise<string>;
    getJob(jobId: string): Promise<FinishedJob | undefined>;
  };
  events: Listening & { waitUntilReady(): Promise<unknown> };
}

/** Resolves with the job's return value, or rejects with its failure or with `stop` aborted. */
export function jobFinished({ queue, events }: JobWaitSources, jobId: string, stop: AbortSignal): Promise<unknown> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      events.off(`completed:${jobId}`, onCompleted);
      events.off(`failed:${jobId}`, onFailed);
      stop.removeEventListener('abort', onStop);
      outcome();
    };
    const onCompleted = (args: { returnvalue: unknown }) => settle(() => resolve(args.returnvalue));
    const onFailed = (args: { failedReason: string }) => settle(() => reject(new Error(args.failedReason)));
    const onStop = () => settle(() => reject(new Error('stopped waiting before the job finished')));
    if (stop.aborted) return onStop();
    events.on(`completed:${jobId}`, onCompleted);
    events.on(`failed:${jobId}`, onFailed);
    stop.addEventListener('abort', onStop, { once: true });
    // The job may have finished before the listeners were in place: look once the events are read.
    finishedAlready(queue, events, jobId).then(
      (finished) => {
        if (finished === undefined) return;
        if (finished.state === 'completed') onCompleted({ returnvalue: finished.job?.returnvalue });
        else onFailed({ failedReason: finished.job?.failedReason ?? 'the job failed' });
      },
      (error: unknown) => settle(() => reject(error instanceof Error ? error : new Error(String(error)))),
    );
  });
}

async function finishedAlready(
  queue: JobWaitSources['queue'],
  events: JobWaitSources['events'],
  jobId: string,
): Promise<{ state: 'completed' | 'failed'; job: FinishedJob | undefined } | undefined> {
  await events.waitUntilReady();
  const state = await queue.getJobState(jobId);
  if (state !== 'completed' && state !== 'failed') return undefined;
  // Read after the state: a finished job's value and reason are written before its state moves.
  return { state, job: await queue.getJob(jobId) };
}
