/**
 * Runs the BUILT CLI (bin/autohedge.js → dist/) as a child process, the way a user
 * or a CI job does: its own process, a private AUTOHEDGE_HOME and working
 * directory, and an environment holding no API key unless a test adds one.
 *
 * `npm test` builds before vitest runs. A smoke test started on its own calls
 * ensureBuilt(), which rebuilds dist/ when a source file is newer than the build
 * (one build at a time across test files, through a lock directory).
 */
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const binPath = path.join(repoRoot, 'bin', 'autohedge.js');
export const demoCassette = path.join(repoRoot, 'demo', 'demo.cassette.json');
export const smokeCassette = path.join(repoRoot, 'tests', 'fixtures', 'smoke', 'acme-glbx.cassette.json');

/** The file the build writes last-ish and the shim needs first. */
const buildMarker = path.join(repoRoot, 'dist', 'src', 'cli', 'run-cli.js');

function newestSource(directory: string): number {
  let newest = 0;
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(full));
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(full).mtimeMs);
  }
  return newest;
}

function buildIsStale(): boolean {
  if (!existsSync(buildMarker)) return true;
  const built = statSync(buildMarker).mtimeMs;
  return ['src', 'agents'].some((folder) => newestSource(path.join(repoRoot, folder)) > built);
}

const lockDirectory = path.join(
  tmpdir(),
  `autohedge-smoke-build-${Buffer.from(repoRoot).toString('hex').slice(-24)}.lock`,
);
const staleLockMs = 5 * 60_000;

/** Builds dist/ when it is missing or older than a source file; safe to call from several test files at once. */
export async function ensureBuilt(): Promise<void> {
  for (;;) {
    if (!buildIsStale()) return;
    try {
      mkdirSync(lockDirectory);
    } catch {
      // Someone else is building; a lock left by a killed run is taken over after a while.
      if (Date.now() - statSync(lockDirectory, { throwIfNoEntry: false })!.mtimeMs > staleLockMs)
        rmSync(lockDirectory, { recursive: true, force: true });
      await sleep(250);
      continue;
    }
    try {
      if (!buildIsStale()) return;
      // As `npm run build` does: remove the old output first, so tsc writes new files. Writing over
      // the old ones in place would write through any hard link to them (worktrees share dist/).
      rmSync(path.join(repoRoot, 'dist', 'src'), { recursive: true, force: true });
      rmSync(path.join(repoRoot, 'dist', 'agents'), { recursive: true, force: true });
      const tsc = path.join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc');
      const build = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], {
        cwd: repoRoot,
        encoding: 'utf8',
      });
      // tsc still emits when someone else's file has a type error; only a missing build is fatal here.
      if (!existsSync(buildMarker))
        throw new Error(`npm run build produced no ${buildMarker}:\n${build.stdout}${build.stderr}`);
      return;
    } finally {
      rmSync(lockDirectory, { recursive: true, force: true });
    }
  }
}

export interface ChildRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Wall-clock milliseconds from spawn to exit. */
  elapsedMs: number;
  /** The AUTOHEDGE_HOME the run used. */
  home: string;
}

export interface ChildOptions {
  /** Added to the minimal environment (PATH, AUTOHEDGE_HOME, NO_COLOR). */
  env?: Record<string, string>;
  /** Node options before the script, e.g. ['--import', url]. */
  nodeArguments?: string[];
  home?: string;
}

/** Runs `node bin/autohedge.js ...args` with no API keys, in a temporary working directory. */
export function runBuilt(args: string[], options: ChildOptions = {}): Promise<ChildRun> {
  const home = options.home ?? mkdtempSync(path.join(tmpdir(), 'autohedge-smoke-home-'));
  const cwd = mkdtempSync(path.join(tmpdir(), 'autohedge-smoke-cwd-'));
  const env = { PATH: process.env.PATH ?? '', AUTOHEDGE_HOME: home, NO_COLOR: '1', ...options.env };
  const started = performance.now();
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...(options.nodeArguments ?? []), binPath, ...args],
      { cwd, env, encoding: 'utf8', maxBuffer: 32 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        rmSync(cwd, { recursive: true, force: true });
        resolve({ code, stdout, stderr, elapsedMs: performance.now() - started, home });
      },
    );
  });
}

/** "done (0.4 s)" → "done (… s)": progress lines carry durations that vary run to run. */
export function withoutDurations(text: string): string {
  return text.replace(/\((?:\d+(?:\.\d+)? m?s|\d+m \d{2}s)\)/g, '(… s)');
}
