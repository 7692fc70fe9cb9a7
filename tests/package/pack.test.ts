/**
 * The published shape: what `npm pack` puts in the tarball, and that tarball
 * installed into an empty prefix and an empty ESM project, used from an unrelated
 * directory. Slow (npm and tsc run for real); `npm run test:package` runs it alone.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertFreshBuild, childEnv, listFiles, repoRoot, run, runOk, typeScriptSources } from './support.js';

const packageTimeoutMs = 240_000;
const manifest = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
};
const demoCassette = path.join(repoRoot, 'demo', 'demo.cassette.json');
const hasDemo = existsSync(demoCassette);
if (!hasDemo)
  console.warn(
    'skipping `autohedge analyze ACME --demo` from the tarball: demo/demo.cassette.json is not in the repo yet',
  );

interface PackEntry {
  filename: string;
  files: Array<{ path: string }>;
}

let workDirectory = '';
let tarball = '';
let packedFiles: string[] = [];

beforeAll(() => {
  assertFreshBuild();
  workDirectory = mkdtempSync(path.join(os.tmpdir(), 'autohedge-pack-'));
  // --ignore-scripts: `prepare` would rebuild dist/ while other test files read it.
  const packed = runOk('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', workDirectory], {
    cwd: repoRoot,
  });
  const [entry] = JSON.parse(packed.stdout) as PackEntry[];
  if (!entry) throw new Error(`npm pack printed no entry: ${packed.stdout}`);
  tarball = path.join(workDirectory, entry.filename);
  packedFiles = entry.files.map((file) => file.path).sort();
}, packageTimeoutMs);

// Removing a global install's node_modules takes long on a loaded machine.
afterAll(() => {
  if (workDirectory) rmSync(workDirectory, { recursive: true, force: true });
}, packageTimeoutMs);

describe('npm pack', () => {
  it('ships compiled code with declarations, bin, prompts, demo, README and licence — and nothing else', () => {
    const compiled = [...typeScriptSources('src'), ...typeScriptSources('agents')].flatMap((source) => {
      const base = `dist/${source.replace(/\.ts$/, '')}`;
      return [`${base}.js`, `${base}.d.ts`];
    });
    const expected = [
      'package.json',
      'README.md',
      'LICENSE',
      'bin/autohedge.js',
      ...listFiles('prompts'),
      ...listFiles('demo'),
      ...compiled,
    ].sort();
    // Equal sets: a missing file breaks the installed CLI; an extra one (a test, a
    // source map, a compiled module whose source is gone) is weight nobody asked for.
    expect(packedFiles).toEqual(expected);
  });

  it('includes the entry points package.json names', () => {
    for (const file of [
      'dist/src/index.js',
      'dist/src/index.d.ts',
      'dist/src/cli/main.js',
      'dist/agents/index.js',
      'prompts/director.md',
    ]) {
      expect(packedFiles).toContain(file);
    }
  });
});

describe('the tarball installed globally into an empty prefix', () => {
  let prefix = '';
  let elsewhere = '';
  let env: NodeJS.ProcessEnv = {};

  beforeAll(() => {
    prefix = path.join(workDirectory, 'prefix');
    runOk('npm', ['install', '--global', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', tarball], {
      cwd: workDirectory,
      timeoutMs: packageTimeoutMs,
    });
    // An unrelated working directory with decoy prompts: the CLI must read the
    // installed package's prompts, never the current directory's.
    elsewhere = mkdtempSync(path.join(os.tmpdir(), 'autohedge-elsewhere-'));
    mkdirSync(path.join(elsewhere, 'prompts'));
    for (const name of [
      'director.md',
      'director-plan.md',
      'director-decide.md',
      'quant.md',
      'risk.md',
      'execution.md',
      'sentiment.md',
    ]) {
      writeFileSync(path.join(elsewhere, 'prompts', name), 'DECOY PROMPT FROM THE CURRENT DIRECTORY\n');
    }
    env = childEnv({ AUTOHEDGE_HOME: path.join(workDirectory, 'home') }, [path.join(prefix, 'bin')]);
  }, packageTimeoutMs);

  afterAll(() => {
    if (elsewhere) rmSync(elsewhere, { recursive: true, force: true });
  }, packageTimeoutMs);

  const autohedge = (...args: string[]) =>
    run(path.join(prefix, 'bin', 'autohedge'), args, { cwd: elsewhere, env, timeoutMs: 60_000 });

  it('autohedge --help lists the commands', () => {
    const result = autohedge('--help');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Usage: autohedge \[options\] \[command\]/);
    for (const command of ['analyze', 'market', 'agents', 'tools', 'runs'])
      expect(result.stdout).toMatch(new RegExp(`^  ${command}[ |]`, 'm'));
  });

  it('autohedge --version prints the package version', () => {
    const result = autohedge('--version');
    expect(result).toEqual({ code: 0, stdout: `${manifest.version}\n`, stderr: '' });
  });

  it('autohedge agents lists the five agents in order, under a header', () => {
    const result = autohedge('agents');
    expect(result.code).toBe(0);
    const ids = result.stdout
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => line.split(/\s+/)[0]);
    expect(ids).toEqual(['director', 'quant', 'risk', 'execution', 'sentiment']);
  });

  it('autohedge tools --json prints the same strict exa_search definition as the repo build', () => {
    const installed = autohedge('tools', '--json');
    expect(installed.code).toBe(0);
    const fromRepo = runOk(process.execPath, [path.join(repoRoot, 'bin', 'autohedge.js'), 'tools', '--json'], {
      cwd: repoRoot,
    });
    expect(installed.stdout).toBe(fromRepo.stdout);
    const tools = JSON.parse(installed.stdout) as Array<{
      name: string;
      definition: { type: string; function: { name: string; strict: boolean } };
    }>;
    expect(tools.map((tool) => tool.name)).toEqual(['exa_search']);
    expect(tools[0]?.definition).toMatchObject({ type: 'function', function: { name: 'exa_search', strict: true } });
  });

  it.skipIf(!hasDemo)('autohedge analyze ACME --demo --json runs the shipped demo with no keys, from anywhere', () => {
    const result = autohedge('analyze', 'ACME', '--demo', '--json');
    if (result.code !== 0) throw new Error(`exit ${result.code}\n--- stderr\n${result.stderr}`);
    const analysis = JSON.parse(result.stdout) as {
      ticker: string;
      demo: boolean;
      status: string;
      decision: { action: string } | null;
      error: string | null;
    };
    expect(analysis).toMatchObject({ ticker: 'ACME', demo: true, status: 'ok', error: null });
    expect(analysis.decision?.action).toEqual(expect.any(String));

    // The saved demo run scores offline against the shipped synthetic prices.
    const evaluated = autohedge('evaluate', '--demo', '--json', '--no-save');
    if (evaluated.code !== 0) throw new Error(`exit ${evaluated.code}\n--- stderr\n${evaluated.stderr}`);
    const evaluation = JSON.parse(evaluated.stdout) as { demo?: { syntheticPrices: boolean }; decisions: unknown[] };
    expect(evaluation.demo?.syntheticPrices).toBe(true);
    expect(evaluation.decisions.length).toBeGreaterThan(0);
  });
});

describe('a TypeScript ESM project depending on the tarball', () => {
  const consumerSource = `import { analyze, defineTool, runAgent, type AgentReport, type AnalysisResult } from 'autohedge';
import { ScriptedModel } from 'autohedge/testing';
import { z } from 'zod';

const lookup = defineTool({
  name: 'lookup_price',
  description: 'Look up the last price of a ticker',
  parameters: z.object({ ticker: z.string() }),
  outputs: 'the last price, or "unknown"',
  run: async ({ ticker }) => (ticker === 'ACME' ? '101.5' : 'unknown'),
});

defineTool({
  name: 'typed_arguments',
  description: 'Arguments are typed from the zod schema',
  parameters: z.object({ count: z.number() }),
  outputs: 'nothing',
  // @ts-expect-error count is a number, so this must not typecheck
  run: async ({ count }) => count.toUpperCase(),
});

const model = new ScriptedModel([{ toolCalls: [{ name: 'lookup_price', arguments: { ticker: 'ACME' } }] }, { text: 'ACME last traded at 101.5.' }]);
const report: AgentReport = await runAgent(
  { id: 'analyst', name: 'Analyst', description: 'Answers price questions', model: 'scripted', instructions: 'Answer briefly.', tools: [lookup] },
  'What is the last price of ACME?',
  { model, asOf: new Date('2026-01-02T00:00:00Z') },
);
const status: 'ok' | 'failed' = report.status;

// analyze needs market data and a model; here only its signature is checked.
type Analyze = (ticker: string, options: Parameters<typeof analyze>[1], deps: Parameters<typeof analyze>[2]) => Promise<AnalysisResult>;
const typedAnalyze: Analyze = analyze;

console.log(JSON.stringify({ status, text: report.text, results: report.toolCalls.map((call) => call.result), analyze: typeof typedAnalyze }));
`;

  let project = '';

  beforeAll(() => {
    project = path.join(workDirectory, 'consumer');
    mkdirSync(project);
    writeFileSync(
      path.join(project, 'package.json'),
      `${JSON.stringify({ name: 'consumer', private: true, type: 'module' }, null, 2)}\n`,
    );
    runOk('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball], {
      cwd: project,
      timeoutMs: packageTimeoutMs,
    });
  }, packageTimeoutMs);

  it(
    "typechecks `import { analyze, runAgent, defineTool } from 'autohedge'` under NodeNext strict, and runs it",
    () => {
      writeFileSync(path.join(project, 'consumer.ts'), consumerSource);
      const tsconfig = {
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          // Checks autohedge's shipped .d.ts files too, not only the consumer.
          skipLibCheck: false,
          noEmitOnError: true,
          outDir: 'out',
          types: ['node'],
          typeRoots: [path.join(repoRoot, 'node_modules', '@types')],
        },
        files: ['consumer.ts'],
      };
      writeFileSync(path.join(project, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2));
      const compile = run(
        process.execPath,
        [path.join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', project],
        {
          cwd: project,
          timeoutMs: 120_000,
        },
      );
      expect(compile.stdout + compile.stderr).toBe('');
      expect(compile.code).toBe(0);

      const executed = runOk(process.execPath, [path.join(project, 'out', 'consumer.js')], { cwd: project });
      expect(JSON.parse(executed.stdout)).toEqual({
        status: 'ok',
        text: 'ACME last traded at 101.5.',
        results: ['101.5'],
        analyze: 'function',
      });
    },
    packageTimeoutMs,
  );

  it(
    'fails to typecheck a consumer that misuses the API (the declarations are real types, not any)',
    () => {
      writeFileSync(
        path.join(project, 'misuse.ts'),
        `import { runAgent } from 'autohedge';\nawait runAgent('not a spec', 'task', { asOf: new Date() });\n`,
      );
      const compile = run(
        process.execPath,
        [
          path.join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc'),
          '--noEmit',
          '--strict',
          '--skipLibCheck',
          '--module',
          'NodeNext',
          '--moduleResolution',
          'NodeNext',
          '--target',
          'ES2022',
          '--types',
          'node',
          '--typeRoots',
          path.join(repoRoot, 'node_modules', '@types'),
          'misuse.ts',
        ],
        { cwd: project, timeoutMs: 120_000 },
      );
      expect(compile.code).not.toBe(0);
      expect(compile.stdout).toContain(
        "misuse.ts(2,16): error TS2345: Argument of type 'string' is not assignable to parameter of type 'AgentSpec<string>'.",
      );
    },
    packageTimeoutMs,
  );
});
