/**
 * One `autohedge worker` for the benchmark's 2-workers-against-1 figure: the library's
 * queue worker (src/queue, BullMQ on the bench's redis-server) analysing against the
 * loopback services, in its own process. Prints `ready` once it waits for jobs and
 * closes cleanly on SIGTERM.
 *
 *   node dist/bench/bench/queue-worker.js '<QueueWorkerConfig JSON>'
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { analyze } from '../src/pipeline/analyze.js';
import { loadQueueModules } from '../src/queue/redis.js';
import { sharedPacers } from '../src/queue/shared-budget.js';
import { startWorker } from '../src/queue/worker.js';
import { defaultPriceTable } from '../src/llm/prices.js';
import { runRequestVersion } from '../src/run/request.js';
import { benchDeps, type ServiceAddresses } from './services.js';

export interface QueueWorkerConfig extends ServiceAddresses {
  redisUrl: string;
  queue: string;
  concurrency: number;
  /** P8: pace against buckets shared in Redis, as `autohedge worker` does. */
  sharedPacing?: boolean;
}

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const config = JSON.parse(process.argv[2] ?? '{}') as QueueWorkerConfig;
const modules = await loadQueueModules();
const shared = config.sharedPacing ? await sharedPacers(modules, config.redisUrl) : null;
const deps = benchDeps(config, repoRoot, undefined, shared?.pacers);
// The first analysis in a process loads the SDKs (P1's cold figure): not part of the comparison.
await analyze('WARM', { asOf: new Date() }, deps);
const worker = await startWorker(modules, {
  url: config.redisUrl,
  queueName: config.queue,
  concurrency: config.concurrency,
  stallIntervalMs: 15_000,
  rateLimitPauseMs: 1_000,
  // The bench measures the queue, not the run store: nothing is saved.
  host: { version: runRequestVersion, save: false },
  session: {
    ...deps,
    prices: defaultPriceTable,
    env: {},
    baseUrl: config.openaiURL,
    replaying: false,
    demo: false,
    mcp: null,
    secrets: [],
    asOf: () => new Date(),
  },
  sinks: () => ({}),
  log: () => {},
});
process.stdout.write('ready\n');
process.once('SIGTERM', () => {
  void worker.close().then(() => {
    shared?.close();
    process.exit(0);
  });
});
