/**
 * Every way the README says autohedge can be installed, tried for real from an
 * unrelated directory: a clone (`npm install`, then `npx autohedge …` inside it,
 * and `npm install -g .` for a global command), and a dependency from a git URL.
 * (The tarball is pack.test.ts's.) Also the publish preparation: `npm publish
 * --dry-run` ships exactly what `npm pack` does, without complaints. Slow: npm
 * installs and builds for real; `npm run test:package` runs it with the pack tests.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertFreshBuild, childEnv, repoRoot, run, runOk } from './support.js';

const installTimeoutMs = 420_000;
const manifest = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as Record<string, unknown> & {
  name: string;
  version: string;
};

let work = '';
let clone = '';

/** A clone of the working tree as it is now (tracked and new files, not ignored ones), committed. */
function cloneWorkingTree(into: string): void {
  const files = runOk('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: repoRoot })
    .stdout.split('\0')
    .filter(Boolean);
  for (const file of files) {
    const from = path.join(repoRoot, file);
    try {
      cpSync(from, path.join(into, file));
    } catch {
      // Deleted in the working tree but still in the index: not part of the clone.
    }
  }
  const git = (...args: string[]) =>
    runOk('git', ['-c', 'user.name=test', '-c', 'user.email=test@example.com', ...args], { cwd: into });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'clone');
}

beforeAll(() => {
  assertFreshBuild();
  work = mkdtempSync(path.join(os.tmpdir(), 'autohedge-install-'));
  clone = path.join(work, 'clone');
  mkdirSync(clone);
  cloneWorkingTree(clone);
}, installTimeoutMs);

// Three node_modules trees: removing them takes a while on a busy machine.
afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
}, installTimeoutMs);

describe('prepared for publishing, not published', () => {
  it('package.json names the repository, homepage, bugs, keywords and publishConfig', () => {
    const repository = manifest.repository as { type: string; url: string };
    expect(repository.type).toBe('git');
    const web = repository.url.replace(/^git\+/, '').replace(/\.git$/, '');
    expect(web).toMatch(/^https:\/\/github\.com\/[\w.-]+\/[\w.-]+$/);
    expect(manifest.homepage).toBe(`${web}#readme`);
    expect(manifest.bugs).toEqual({ url: `${web}/issues` });
    expect((manifest.keywords as string[]).length).toBeGreaterThan(3);
    expect(manifest.publishConfig).toEqual({ access: 'public', registry: 'https://registry.npmjs.org/' });
  });

  it('`npm publish --dry-run` would ship exactly what `npm pack` packs, with no warning but the login one', () => {
    const env = childEnv();
    const published = runOk('npm', ['publish', '--dry-run', '--json', '--ignore-scripts'], { cwd: repoRoot, env });
    const packed = runOk('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: repoRoot, env });
    const publishEntry = (JSON.parse(published.stdout) as Record<string, { files: Array<{ path: string }> }>)[
      manifest.name
    ];
    const [packEntry] = JSON.parse(packed.stdout) as Array<{ files: Array<{ path: string }> }>;
    const publishFiles = publishEntry!.files.map((file) => file.path).sort();
    expect(publishFiles).toEqual(packEntry!.files.map((file) => file.path).sort());
    expect(publishFiles).toContain('bin/autohedge.js');
    expect(
      publishFiles.some((file) => file.startsWith('tests/') || file.startsWith('src/') || file.endsWith('.map')),
    ).toBe(false);
    const warnings = published.stderr
      .split('\n')
      .filter((line) => line.startsWith('npm warn') && !/requires you to be logged in/.test(line));
    expect(warnings).toEqual([]);
  });
});

describe('from a clone', () => {
  beforeAll(() => {
    // `npm install` in a clone installs and builds (prepare), as the README's quick start says.
    runOk('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund'], {
      cwd: clone,
      timeoutMs: installTimeoutMs,
    });
  }, installTimeoutMs);

  it('`npx autohedge analyze ACME --demo` works inside it', () => {
    const result = run('npx', ['--no-install', 'autohedge', 'analyze', 'ACME', '--demo', '--json', '--no-save'], {
      cwd: clone,
      env: childEnv({ AUTOHEDGE_HOME: path.join(work, 'home-npx') }),
      timeoutMs: 120_000,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ ticker: 'ACME', demo: true, status: 'ok' });
  }, 120_000);

  it(
    '`npm install -g .` gives a global command that works from an unrelated directory',
    () => {
      const prefix = path.join(work, 'global-prefix');
      runOk('npm', ['install', '--global', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', '.'], {
        cwd: clone,
        timeoutMs: installTimeoutMs,
      });
      const elsewhere = mkdtempSync(path.join(os.tmpdir(), 'autohedge-elsewhere-'));
      const result = run(path.join(prefix, 'bin', 'autohedge'), ['analyze', 'ACME', '--demo', '--json', '--no-save'], {
        cwd: elsewhere,
        env: childEnv({ AUTOHEDGE_HOME: path.join(work, 'home-global') }),
        timeoutMs: 120_000,
      });
      expect(result.code, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout)).toMatchObject({ ticker: 'ACME', demo: true });
      rmSync(elsewhere, { recursive: true, force: true });
    },
    installTimeoutMs,
  );
});

describe('as a dependency from a git URL', () => {
  it(
    '`npm install git+file://…` builds it (prepare) and the project can run it and import it',
    () => {
      const project = path.join(work, 'git-consumer');
      mkdirSync(project);
      writeFileSync(
        path.join(project, 'package.json'),
        `${JSON.stringify({ name: 'git-consumer', private: true, type: 'module' }, null, 2)}\n`,
      );
      runOk('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', `git+file://${clone}`], {
        cwd: project,
        timeoutMs: installTimeoutMs,
      });
      const env = childEnv({ AUTOHEDGE_HOME: path.join(work, 'home-git') });
      const cli = run(
        path.join(project, 'node_modules', '.bin', 'autohedge'),
        ['analyze', 'ACME', '--demo', '--json', '--no-save'],
        { cwd: project, env, timeoutMs: 120_000 },
      );
      expect(cli.code, cli.stderr).toBe(0);
      expect(JSON.parse(cli.stdout)).toMatchObject({ ticker: 'ACME', demo: true });
      writeFileSync(
        path.join(project, 'use.mjs'),
        "import { analyze, runAgent } from 'autohedge';\nconsole.log(typeof analyze, typeof runAgent);\n",
      );
      expect(runOk(process.execPath, ['use.mjs'], { cwd: project, env }).stdout).toBe('function function\n');
    },
    installTimeoutMs,
  );
});
