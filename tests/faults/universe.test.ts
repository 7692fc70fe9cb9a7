// Fault matrix, universes and the job queue: a bad universe file, contradictory output
// flags, a queue with no Redis behind it — each one line and exit 2 before any request.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { ScriptedModel } from '../../src/testing/scripted-model.js';
import { fakeMarket } from '../support/market.js';
import { faultMatrix, type FaultContext, type FaultScenario } from '../support/faults.js';

const search = { search: async () => [] };

function untouched(context: FaultContext) {
  const model = new ScriptedModel([]);
  const market = fakeMarket();
  context.defer(() => {
    expect(model.requests).toEqual([]);
    expect(market.calls).toEqual([]);
  });
  return { model, market, search };
}

function universe(name: string, text: string | null, argv: string[], stderr: string): FaultScenario {
  return {
    name,
    arrange(context) {
      if (text !== null) writeFileSync(join(context.io.cwd, 'universe.txt'), text);
      return { argv: ['analyze', '--universe', 'universe.txt', ...argv], deps: untouched(context) };
    },
    expect: { exitCode: 2, result: null, stderr },
  };
}

const scenarios: FaultScenario[] = [
  universe(
    '--universe file missing',
    null,
    [],
    'autohedge: cannot read --universe universe.txt: ENOENT: no such file or directory',
  ),
  universe(
    'a malformed ticker in the universe file',
    'AAPL\n\nMS FT\n',
    [],
    "autohedge: universe.txt:3: invalid ticker 'MS FT': expected 1–15 characters: letters, digits and . - = ^ (e.g. AAPL, BRK-B, ^GSPC, EURUSD=X)",
  ),
  universe(
    'a CSV universe without a ticker or symbol column',
    'name,weight\nApple,1\n',
    [],
    "autohedge: universe.txt: a CSV universe needs a 'ticker' or 'symbol' column in its first row (got 'name', 'weight')",
  ),
  universe('an empty universe file', '# only comments\n', [], 'autohedge: no tickers in --universe universe.txt'),
  universe(
    '--json with --jsonl',
    'AAPL\n',
    ['--json', '--jsonl'],
    'autohedge: --json and --jsonl cannot be combined: --json prints one array at the end, --jsonl one line per result as it finishes',
  ),
  universe(
    '--resume with --no-save',
    'AAPL\n',
    ['--resume', '--no-save'],
    'autohedge: --resume reads and fills the run store: it cannot be combined with --no-save',
  ),
  {
    name: 'enqueue with no Redis listening: one ConfigError line, exit 2',
    arrange: (context) => ({ argv: ['enqueue', 'ACME', '--redis', 'redis://127.0.0.1:1'], deps: untouched(context) }),
    expect: {
      exitCode: 2,
      result: null,
      stderr:
        'autohedge: cannot reach Redis at redis://127.0.0.1:1 (ECONNREFUSED): start redis-server, or point --redis / AUTOHEDGE_REDIS_URL at yours',
    },
  },
  {
    name: 'worker with no Redis listening: one ConfigError line, exit 2, the key never printed',
    arrange: (context) => ({
      argv: ['worker', '--redis', 'redis://:s3cret-password@127.0.0.1:1', '--base-url', 'http://127.0.0.1:9/v1'],
      deps: untouched(context),
    }),
    expect: {
      exitCode: 2,
      result: null,
      stderr:
        'autohedge: cannot reach Redis at redis://REDACTED@127.0.0.1:1 (ECONNREFUSED): start redis-server, or point --redis / AUTOHEDGE_REDIS_URL at yours',
    },
  },
  {
    name: 'enqueue with an as-of day after today: refused as analyze --as-of refuses it',
    arrange: (context) => ({
      argv: ['enqueue', 'ACME', '--as-of', '2026-11-29', '--redis', 'redis://127.0.0.1:1'],
      deps: { ...untouched(context), now: () => new Date('2026-11-28T12:00:00Z') },
    }),
    expect: {
      exitCode: 2,
      result: null,
      stderr:
        'autohedge: --as-of 2026-11-29 for ACME is in the future or its session has not closed yet; the latest closed session of the New York Stock Exchange (XNYS) is 2026-11-27',
    },
  },
];

faultMatrix('fault matrix: universes and the job queue', scenarios);
