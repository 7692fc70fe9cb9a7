import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The environment for a child npm or autohedge process. Variables that `npm test`
 * sets for its own script (the package being run, its prefix) are dropped so a
 * nested npm acts on the directory it is given, and API keys are dropped so
 * nothing here can reach a paid service.
 */
export function childEnv(extra: Record<string, string> = {}, prependPath: string[] = []): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (/^npm_(package|lifecycle)_/.test(name)) continue;
    if (
      ['npm_config_prefix', 'npm_config_global_prefix', 'npm_config_local_prefix', 'npm_command', 'INIT_CWD'].includes(
        name,
      )
    )
      continue;
    if (/_API_KEY$/.test(name) || name === 'OPENAI_BASE_URL') continue;
    env[name] = value;
  }
  // The node running this test comes first on PATH, so `npm` and the installed
  // bin's `#!/usr/bin/env node` run on it: the Node matrix tests what it says.
  const searchPath = [...prependPath, path.dirname(process.execPath), process.env.PATH ?? ''].join(path.delimiter);
  return { ...env, NO_COLOR: '1', FORCE_COLOR: '0', npm_config_update_notifier: 'false', ...extra, PATH: searchPath };
}

export function run(
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number },
): RunResult {
  const result = spawnSync(command, args, {
    cwd: options.cwd,
    env: options.env ?? childEnv(),
    encoding: 'utf8',
    timeout: options.timeoutMs ?? 180_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.error) throw result.error;
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Run and fail with the whole output when the exit code is not 0. */
export function runOk(
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number },
): RunResult {
  const result = run(command, args, options);
  if (result.code !== 0) {
    throw new Error(
      `${command} ${args.join(' ')} exited ${result.code}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`,
    );
  }
  return result;
}

/** Every file under a directory, as repo-relative POSIX paths. */
export function listFiles(relativeDirectory: string): string[] {
  const absolute = path.join(repoRoot, relativeDirectory);
  if (!existsSync(absolute)) return [];
  return readdirSync(absolute, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(repoRoot, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .sort();
}

/** TypeScript sources of a folder (not declarations), repo-relative. */
export function typeScriptSources(relativeDirectory: string): string[] {
  return listFiles(relativeDirectory).filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'));
}

/**
 * These tests exercise what `npm run build` produced (that is what gets packed).
 * Packing runs no build itself, because other test files read dist/ at the same
 * time; so a missing or stale build is reported here instead of tested.
 */
export function assertFreshBuild(): void {
  const stale: string[] = [];
  for (const source of [...typeScriptSources('src'), ...typeScriptSources('agents')]) {
    const compiled = path.join(repoRoot, 'dist', source.replace(/\.ts$/, '.js'));
    if (!existsSync(compiled) || statSync(compiled).mtimeMs < statSync(path.join(repoRoot, source)).mtimeMs)
      stale.push(source);
  }
  if (stale.length > 0) {
    throw new Error(
      `dist/ is missing or older than ${stale.length} source file(s) (${stale.slice(0, 3).join(', ')}…): run \`npm run build\` first`,
    );
  }
}
