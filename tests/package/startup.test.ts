/**
 * Start-up stays light: the built bin, run as a child process with a preload that
 * logs every module it resolves, must not load an SDK or the HTTP interceptors
 * for commands that make no request.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertFreshBuild, childEnv, repoRoot, run } from './support.js';

const hook = path.join(repoRoot, 'tests', 'package', 'module-log-hook.mjs');
const heavyPackages =
  /\/node_modules\/(openai|exa-js|yahoo-finance2|bullmq|ioredis|nock|@mswjs\/[^/]+|@modelcontextprotocol\/[^/]+)\//;

let scratch = '';
let runs = 0;

beforeAll(() => {
  assertFreshBuild();
  scratch = mkdtempSync(path.join(os.tmpdir(), 'autohedge-startup-'));
});

afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** Run node with the logging preload; returns the exit code and the resolved module URLs. */
function loadedModules(args: string[], cwd: string): { code: number | null; stdout: string; modules: string[] } {
  const logFile = path.join(scratch, `modules-${++runs}.log`);
  writeFileSync(logFile, '');
  const result = run(process.execPath, ['--import', hook, ...args], {
    cwd,
    env: childEnv({ AUTOHEDGE_MODULE_LOG: logFile, AUTOHEDGE_HOME: scratch }),
  });
  if (result.stderr !== '') throw new Error(`node ${args.join(' ')} wrote to stderr:\n${result.stderr}`);
  return {
    code: result.code,
    stdout: result.stdout,
    modules: readFileSync(logFile, 'utf8').split('\n').filter(Boolean),
  };
}

const packagesIn = (modules: string[]) =>
  [...new Set(modules.map((url) => heavyPackages.exec(url)?.[1]).filter(Boolean))].sort();

describe('the module log', () => {
  it('sees an SDK when one is imported (so an empty list below means something)', () => {
    const { modules } = loadedModules(
      ['--input-type=module', '-e', "await import('openai'); await import('@mswjs/interceptors');"],
      repoRoot,
    );
    expect(packagesIn(modules)).toEqual(['@mswjs/interceptors', 'openai']);
  });
});

describe.each([
  '--help',
  '--version',
  'agents',
  'tools',
  'tools --json',
  'analyze --help',
  'worker --help',
  'enqueue --help',
  'mcp --help',
])('autohedge %s', (command) => {
  it('loads commander and none of openai, exa-js, yahoo-finance2, nock, @mswjs', () => {
    const { code, stdout, modules } = loadedModules(
      [path.join(repoRoot, 'bin', 'autohedge.js'), ...command.split(' ')],
      os.tmpdir(),
    );
    expect(code).toBe(0);
    expect(stdout).not.toBe('');
    expect(modules.some((url) => url.includes('/node_modules/commander/'))).toBe(true);
    expect(packagesIn(modules)).toEqual([]);
  });
});
