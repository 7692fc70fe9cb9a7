/**
 * The queue's demo, through the built CLI on a real redis-server with no key anywhere:
 * `enqueue ACME --demo` puts a demo job on the demo's own queue, `worker --demo` replays
 * it from the demo cassette and saves it as a demo run, and `enqueue --wait` prints it.
 * A real job is never taken by a demo worker.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnalysisResult } from '../../src/result/types.js';
import { noRedisMessage, redisServerPath, startRedisServer, type RedisServer } from '../../testkit/redis-server.js';
import { binPath, ensureBuilt, runBuilt } from '../smoke/support.js';
import { eventually, queueName } from './support/queue.js';

const available = redisServerPath() !== null;
let redis: RedisServer;

/** `autohedge worker --demo` as its own process: no OPENAI_API_KEY, a private home. */
async function spawnDemoWorker(queue: string) {
  const home = mkdtempSync(path.join(tmpdir(), 'autohedge-demo-worker-'));
  const child = spawn(
    process.execPath,
    [binPath, 'worker', '--demo', '--redis', redis.url, '--queue', queue, '--stall-interval', '30'],
    {
      cwd: home,
      env: { PATH: process.env.PATH, AUTOHEDGE_HOME: home, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout!.resume();
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  await eventually(
    'the demo worker to wait for jobs',
    () => {
      if (child.exitCode !== null) throw new Error(`the demo worker exited with ${child.exitCode}:\n${stderr}`);
      return stderr.includes('waiting for demo jobs');
    },
    60_000,
  );
  return {
    home,
    stderr: () => stderr,
    async stop(): Promise<number | null> {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

function savedRuns(home: string): AnalysisResult[] {
  const runs = path.join(home, 'runs');
  if (!existsSync(runs)) return [];
  return readdirSync(runs).map(
    (run) => JSON.parse(readFileSync(path.join(runs, run, 'result.json'), 'utf8')) as AnalysisResult,
  );
}

describe.skipIf(!available)(available ? 'the queue demo on a real Redis (built CLI, no key)' : noRedisMessage, () => {
  beforeAll(async () => {
    await ensureBuilt();
    redis = await startRedisServer();
  }, 180_000);
  afterAll(async () => {
    await redis?.stop();
  });

  it('enqueue ACME --demo, then worker --demo replays the job with no key and saves a demo run', async () => {
    const queue = queueName('demo');
    const queued = await runBuilt(['enqueue', 'ACME', '--demo', '--redis', redis.url, '--queue', queue]);
    expect(queued.code, queued.stderr).toBe(0);
    // The demo day, not today: the job is the demo's run of ACME.
    expect(queued.stdout).toBe('ACME@2026-11-27\n');
    expect(queued.stderr).toContain(`on queue '${queue}-demo'`);
    expect(queued.stderr).toContain('`autohedge worker --demo` runs them');

    const worker = await spawnDemoWorker(queue);
    try {
      const waited = await runBuilt([
        'enqueue',
        'ACME',
        '--demo',
        '--wait',
        '--json',
        '--redis',
        redis.url,
        '--queue',
        queue,
      ]);
      expect(waited.code, waited.stderr).toBe(0);
      // One ticker: one AnalysisResult, as `analyze --json` prints it.
      const result = JSON.parse(waited.stdout) as AnalysisResult;
      expect(result).toMatchObject({
        ticker: 'ACME',
        status: 'ok',
        demo: true,
        decision: { action: 'BUY', conviction: 64 },
      });
      await eventually('the worker to save the run', () => savedRuns(worker.home).length === 1, 30_000);
      expect(savedRuns(worker.home)[0]).toMatchObject({ ticker: 'ACME', demo: true, status: 'ok' });
    } finally {
      // SIGTERM: a clean stop, with the CLI's exit code for a terminated command (src/cli/main.ts).
      expect(await worker.stop()).toBe(143);
    }
    expect(worker.stderr()).toContain('job ACME@2026-11-27 done: ok');
    expect(worker.stderr()).toContain('autohedge worker: stopped');
  }, 180_000);

  it('refuses a ticker the demo does not hold before queueing it', async () => {
    const queue = queueName('demo-refused');
    const refused = await runBuilt(['enqueue', 'GLBX', '--demo', '--redis', redis.url, '--queue', queue]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('run `autohedge enqueue ACME --demo`');
    expect(refused.stdout).toBe('');
  }, 60_000);
});
