/**
 * The universe figures: a large universe streamed through one process in bounded memory
 * (P6), and one queue shared by two worker processes against one (P7).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { enqueueAnalyses } from '../src/queue/enqueue.js';
import { loadQueueModules } from '../src/queue/redis.js';
import { redisServerPath, startRedisServer } from '../testkit/redis-server.js';
import type { QueueWorkerConfig } from './queue-worker.js';
import type { ServiceAddresses } from './services.js';
import { parseRunRequest, runRequestVersion } from '../src/run/request.js';

const benchDir = path.dirname(fileURLToPath(import.meta.url));

export const universeTickers = (count: number, prefix = 'U') =>
  Array.from({ length: count }, (_, index) => `${prefix}${String(index + 1).padStart(4, '0')}`);

export interface WorkersFigure {
  tickers: number;
  concurrency: number;
  /** Wall time from enqueue to the last result, by number of worker processes. */
  wallMs: Record<1 | 2, number>;
  failures: string[];
}

/** null when redis-server is not installed: the figure is then not measured. */
export async function measureWorkers(
  addresses: ServiceAddresses,
  tickers: number,
  concurrency: number,
): Promise<WorkersFigure | null> {
  if (!redisServerPath()) return null;
  const redis = await startRedisServer();
  const modules = await loadQueueModules();
  const failures: string[] = [];
  const wallMs = { 1: 0, 2: 0 };
  try {
    for (const count of [1, 2] as const) {
      const queue = `bench-${count}-${Date.now()}`;
      const config: QueueWorkerConfig = { ...addresses, redisUrl: redis.url, queue, concurrency };
      const workers = await Promise.all(Array.from({ length: count }, () => spawnWorker(config)));
      try {
        const started = performance.now();
        const queued = await enqueueAnalyses(modules, {
          url: redis.url,
          queueName: queue,
          requests: universeTickers(tickers, `W${count}X`).map((ticker) =>
            parseRunRequest({ version: runRequestVersion, ticker }),
          ),
          today: new Date().toISOString().slice(0, 10),
          attempts: 1,
          backoffMs: 1_000,
        });
        try {
          await queued.wait((outcome) => {
            if (outcome.result === undefined) failures.push(`${outcome.ticker}: ${outcome.failure}`);
            else if (outcome.result.status !== 'ok') failures.push(`${outcome.ticker}: ${outcome.result.status}`);
          });
        } finally {
          await queued.close();
        }
        wallMs[count] = performance.now() - started;
      } finally {
        await Promise.all(workers.map(stopWorker));
      }
    }
  } finally {
    await redis.stop();
  }
  return { tickers, concurrency, wallMs, failures };
}

function spawnWorker(config: QueueWorkerConfig): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(benchDir, 'queue-worker.js'), JSON.stringify(config)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    child.stdout!.setEncoding('utf8').once('data', () => resolve(child));
    child.once('exit', (code) =>
      reject(new Error(`a bench worker exited with ${code} before it was ready: ${stderr.trim()}`)),
    );
  });
}

function stopWorker(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

export interface SharedQuotaRun {
  tickers: number;
  ok: number;
  failures: string[];
  wallMs: number;
}

/**
 * P8's second half: `workers` worker processes on one Redis, pacing against buckets
 * shared there, drain one queue against the quota-enforcing model server. null when
 * redis-server is not installed.
 */
export async function measureSharedQuota(
  addresses: ServiceAddresses,
  tickers: number,
  concurrency: number,
  workers = 2,
): Promise<SharedQuotaRun | null> {
  if (!redisServerPath()) return null;
  const redis = await startRedisServer();
  const modules = await loadQueueModules();
  const failures: string[] = [];
  let ok = 0;
  try {
    const queue = `bench-quota-${Date.now()}`;
    const config: QueueWorkerConfig = { ...addresses, redisUrl: redis.url, queue, concurrency, sharedPacing: true };
    const spawned = await Promise.all(Array.from({ length: workers }, () => spawnWorker(config)));
    try {
      const started = performance.now();
      const queued = await enqueueAnalyses(modules, {
        url: redis.url,
        queueName: queue,
        requests: universeTickers(tickers, 'Q').map((ticker) =>
          parseRunRequest({ version: runRequestVersion, ticker }),
        ),
        today: new Date().toISOString().slice(0, 10),
        attempts: 2,
        backoffMs: 1_000,
      });
      try {
        await queued.wait((outcome) => {
          if (outcome.result === undefined) failures.push(`${outcome.ticker}: ${outcome.failure}`);
          else if (outcome.result.status !== 'ok') failures.push(`${outcome.ticker}: ${outcome.result.status}`);
          else ok += 1;
        });
      } finally {
        await queued.close();
      }
      return { tickers, ok, failures, wallMs: performance.now() - started };
    } finally {
      await Promise.all(spawned.map(stopWorker));
    }
  } finally {
    await redis.stop();
  }
}
