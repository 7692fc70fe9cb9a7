// Fault matrix, CLI and environment: bad input ends with exit 2 and one line before
// any request; trouble saving a finished analysis is a warning, never a lost analysis.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect } from 'vitest';
import { ScriptedModel, type ScriptedStep } from '../../src/testing/scripted-model.js';
import { fakeMarket } from '../support/market.js';
import {
  allOk,
  decision,
  deskText,
  faultMatrix,
  plan,
  type FaultContext,
  type FaultScenario,
} from '../support/faults.js';

const search = { search: async () => [] };
const fixtures = resolve(import.meta.dirname, '..', 'fixtures', 'record');

/** A model no request may reach: bad input is refused before anything is spent. */
function untouchedModel(context: FaultContext): ScriptedModel {
  const model = new ScriptedModel([]);
  context.defer(() => expect(model.requests).toEqual([]));
  return model;
}

function refused(
  name: string,
  argv: string[],
  line: string | ((vars: Record<string, string>) => string),
  setup?: (context: FaultContext) => Record<string, string>,
): FaultScenario {
  return {
    name,
    arrange(context) {
      const vars = setup?.(context) ?? {};
      const market = fakeMarket();
      context.defer(() => expect(market.calls).toEqual([]));
      return {
        argv: [
          'analyze',
          'ACME',
          ...argv.map((argument) => argument.replace(/\{(\w+)\}/g, (_, key: string) => vars[key] ?? '')),
        ],
        deps: { model: untouchedModel(context), market, search },
        vars,
      };
    },
    expect: (vars) => ({ exitCode: 2, result: null, stderr: typeof line === 'string' ? line : line(vars) }),
  };
}

function goodScript(overrides: Record<string, ScriptedStep[]> = {}): Record<string, ScriptedStep[]> {
  return {
    director: [{ text: JSON.stringify(plan) }, { text: JSON.stringify(decision) }],
    quant: [{ text: deskText.quant! }],
    risk: [{ text: deskText.risk! }],
    execution: [{ text: deskText.execution! }],
    sentiment: [{ text: deskText.sentiment! }],
    ...overrides,
  };
}

/** $AUTOHEDGE_HOME under a regular file: nothing can be created there (even as root). */
function unwritableHome(): string {
  const directory = mkdtempSync(join(tmpdir(), 'autohedge-faults-'));
  writeFileSync(join(directory, 'file'), 'not a directory');
  return join(directory, 'file', 'home');
}

const scenarios: FaultScenario[] = [
  {
    name: 'unknown flag: exit 2, one line, nothing run',
    arrange: (context) => ({
      argv: ['analyze', 'ACME', '--frobnicate'],
      deps: { model: untouchedModel(context), market: fakeMarket(), search },
    }),
    expect: { exitCode: 2, result: null, stderr: "autohedge: unknown option '--frobnicate'" },
  },
  refused(
    'a --base-url that is not http(s)',
    ['--base-url', 'ftp://models.example'],
    'autohedge: --base-url must be an http(s) URL, not ftp:',
  ),
  refused(
    'unknown agent id',
    ['--agent', 'oracle'],
    "autohedge: unknown agent 'oracle' (choose from quant, risk, execution, sentiment)",
  ),
  refused(
    'negative --concurrency',
    ['--concurrency', '-1'],
    "autohedge: --concurrency must be a whole number of at least 1 (got '-1')",
  ),
  refused(
    'non-numeric --concurrency',
    ['--concurrency', 'two'],
    "autohedge: --concurrency must be a whole number of at least 1 (got 'two')",
  ),
  refused('zero --concurrency', ['--concurrency', '0'], "autohedge: --concurrency must be at least 1 (got '0')"),
  refused(
    'negative --max-position',
    ['--max-position=-5'],
    "autohedge: --max-position must be a positive number (got '-5')",
  ),
  refused(
    '--max-position over 100',
    ['--max-position', '150'],
    "autohedge: --max-position must be at most 100 (got '150')",
  ),
  refused(
    'non-numeric --max-position',
    ['--max-position', 'ten'],
    "autohedge: --max-position must be a positive number (got 'ten')",
  ),
  refused('negative --max-cost', ['--max-cost', '-1'], "autohedge: --max-cost must be a positive number (got '-1')"),
  refused(
    'non-numeric --max-cost',
    ['--max-cost', 'abc'],
    "autohedge: --max-cost must be a positive number (got 'abc')",
  ),
  refused(
    'malformed ticker',
    ['QQQ,'],
    "autohedge: invalid ticker 'QQQ,': expected 1–15 characters: letters, digits and . - = ^ (e.g. AAPL, BRK-B, ^GSPC, EURUSD=X)",
  ),
  refused(
    'unreadable .env (a directory): exit 2 naming the file',
    [],
    ({ cwd }) => `autohedge: cannot read ${cwd}/.env: EISDIR: illegal operation on a directory, read`,
    (context) => {
      mkdirSync(join(context.io.cwd, '.env'));
      return { cwd: context.io.cwd };
    },
  ),
  refused(
    'a truncated cassette: exit 2 naming the path',
    ['--replay', '{path}'],
    ({ path }) => `autohedge: cannot replay '${path}': not valid JSON (truncated or corrupt?)`,
    () => ({ path: join(fixtures, 'truncated.json') }),
  ),
  refused(
    'a JSON file that is not a cassette: exit 2 naming the path',
    ['--replay', '{path}'],
    ({ path }) => `autohedge: cannot replay '${path}': not an autohedge cassette`,
    () => ({ path: join(fixtures, 'foreign.json') }),
  ),
  refused(
    'a cassette from a newer autohedge: exit 2 naming the version',
    ['--replay', '{path}'],
    ({ path }) =>
      `autohedge: cannot replay '${path}': unsupported cassette version 99 (this autohedge reads versions 1 and 2)`,
    () => ({ path: join(fixtures, 'future-version.json') }),
  ),
  refused(
    'a cassette path that does not exist: exit 2',
    ['--replay', '{path}'],
    ({ path }) => `autohedge: cannot replay '${path}': file not found`,
    () => ({ path: join(tmpdir(), 'autohedge-no-such-cassette.json') }),
  ),
  {
    name: 'no OPENAI_API_KEY and no base URL: exit 2 with a pointer to --demo',
    arrange: () => ({ argv: ['analyze', 'ACME'], deps: { market: fakeMarket(), search } }),
    expect: {
      exitCode: 2,
      result: null,
      stderr:
        'autohedge: OPENAI_API_KEY is not set: export it (or put it in .env), or point --base-url / OPENAI_BASE_URL at an OpenAI-compatible server; to try autohedge with no key, run `autohedge analyze ACME --demo`',
    },
  },
  {
    // Issue 44 item 19: one line and one exit code wherever an unusable home is met, before any request.
    name: 'an unusable $AUTOHEDGE_HOME (under a file): one line naming it, exit 2, nothing asked of the model',
    arrange(context) {
      const home = unwritableHome();
      return {
        argv: ['analyze', 'ACME', '--json', '--quiet'],
        deps: { model: new ScriptedModel(goodScript()), market: fakeMarket(), search },
        io: { env: { ...context.io.env, AUTOHEDGE_HOME: home } },
        vars: { home },
      };
    },
    expect: ({ home }) => ({
      exitCode: 2,
      result: null,
      stderrLines: [
        new RegExp(
          `autohedge: AUTOHEDGE_HOME ${home} is not a usable folder: \\S+ is a file; set AUTOHEDGE_HOME to a folder you can write \\(default ~/\\.autohedge\\)`,
        ),
      ],
    }),
  },
  {
    name: 'unwritable --out directory: printed, saved under $AUTOHEDGE_HOME, one line names --out, exit 1',
    arrange() {
      const out = join(unwritableHome(), 'out');
      return {
        argv: ['analyze', 'ACME', '--json', '--quiet', '--out', out],
        deps: { model: new ScriptedModel(goodScript()), market: fakeMarket(), search },
        vars: { out },
      };
    },
    expect: ({ out }) => ({
      exitCode: 1,
      result: { status: 'ok', error: null, decision: true, reports: allOk, warnings: [] },
      stderr: `autohedge: could not write --out ${out}: cannot write ${out}: ENOTDIR: not a directory`,
    }),
    verify(outcome) {
      expect(Object.keys(outcome.saved ?? {}).sort()).toEqual([
        'chart.svg',
        'report.html',
        'report.md',
        'result.json',
        'transcript.jsonl',
      ]);
    },
  },
];

faultMatrix('fault matrix: CLI and environment', scenarios);
