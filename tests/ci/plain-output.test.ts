import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const repoRoot = join(import.meta.dirname, '..', '..');

/** `npm test`'s vitest step on a small test file, stdout a pipe as in `npm test > log.txt`. */
function runSuite(extra: Record<string, string>) {
  const env: NodeJS.ProcessEnv = {};
  // The outer vitest's own variables would make the inner one think it is a worker.
  for (const [name, value] of Object.entries(process.env))
    if (!/^(VITEST|NO_COLOR|FORCE_COLOR|NODE_OPTIONS|TINYPOOL)/.test(name)) env[name] = value;
  return spawnSync(
    process.execPath,
    [join(repoRoot, 'scripts', 'vitest.mjs'), 'run', 'tests/report/markdown.test.ts'],
    {
      cwd: repoRoot,
      env: { ...env, TERM: 'xterm-256color', ...extra },
      encoding: 'utf8',
      timeout: 60_000,
    },
  );
}

describe('npm test into a file or a pipe', () => {
  it('prints no colour codes, on a colour-capable TERM', () => {
    const run = runSuite({});
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('passed');
    expect(`${run.stdout}${run.stderr}`).not.toMatch(/\u001b\[/);
  });

  it('FORCE_COLOR still asks for colour', () => {
    const run = runSuite({ FORCE_COLOR: '1' });
    expect(run.status, run.stderr).toBe(0);
    expect(`${run.stdout}${run.stderr}`).toMatch(/\u001b\[/);
  });
});
