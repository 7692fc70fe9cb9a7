import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { AnalysisResult } from '../../../src/result/types.js';
import { binPath } from '../../smoke/support.js';
import { eventually } from './queue.js';

const preload = pathToFileURL(
  path.join(path.dirname(fileURLToPath(import.meta.url)), 'any-symbol-yahoo.preload.mjs'),
).href;

export interface WorkerProcess {
  readonly child: ChildProcess;
  readonly home: string;
  stderr(): string;
  /** The runs this worker saved in its own store. */
  savedRuns(): AnalysisResult[];
  exited(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * The built CLI's `autohedge worker` as its own process, with a private AUTOHEDGE_HOME,
 * analysing against the loopback model server, with Yahoo answered by the preload.
 * Resolves once it is waiting for jobs. Its job lock (--stall-interval) is 30 s by default, so a
 * loaded machine cannot fake a stall and make BullMQ run a job again; a test of stall recovery
 * passes a short one.
 */
export async function spawnWorker(settings: {
  redisUrl: string;
  queue: string;
  modelUrl: string;
  stallIntervalSeconds?: number;
  args?: string[];
}): Promise<WorkerProcess> {
  const home = mkdtempSync(path.join(tmpdir(), 'autohedge-worker-home-'));
  const args = [
    '--import',
    preload,
    binPath,
    'worker',
    '--redis',
    settings.redisUrl,
    '--queue',
    settings.queue,
    '--base-url',
    settings.modelUrl,
    '--stall-interval',
    String(settings.stallIntervalSeconds ?? 30),
    ...(settings.args ?? []),
  ];
  const child = spawn(process.execPath, args, {
    cwd: home,
    env: { PATH: process.env.PATH, AUTOHEDGE_HOME: home, OPENAI_API_KEY: 'sk-worker-test-key-0000', NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout!.resume();
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  await eventually(`worker ${child.pid} to wait for jobs`, () => {
    if (child.exitCode !== null) throw new Error(`the worker exited with ${child.exitCode}:\n${stderr}`);
    return stderr.includes('waiting for jobs');
  });
  return {
    child,
    home,
    stderr: () => stderr,
    savedRuns: () => {
      const runs = path.join(home, 'runs');
      if (!existsSync(runs)) return [];
      return readdirSync(runs).map(
        (name) => JSON.parse(readFileSync(path.join(runs, name, 'result.json'), 'utf8')) as AnalysisResult,
      );
    },
    exited: () => exit,
  };
}
