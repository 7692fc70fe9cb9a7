import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { DataError } from '../../src/errors.js';
import type { AnalysisResult } from '../../src/result/types.js';
import { ScriptedModel } from '../../src/testing/scripted-model.js';
import { deskIds } from '../../agents/index.js';
import { planFor } from '../../src/testing/index.js';
import type { SearchProvider } from '../../src/search/types.js';
import { captureIo, type CapturedIo } from '../support/cli.js';
import { fakeMarket, makeSnapshot } from '../support/market.js';
import { universeModel, type Stance } from './support.js';

const search: SearchProvider = { search: async () => [] };
const now = () => new Date('2026-11-28T12:00:00Z');

function universeFile(io: CapturedIo, name: string, text: string): string {
  writeFileSync(join(io.cwd, name), text);
  return name;
}

const savedResults = (io: CapturedIo): AnalysisResult[] => {
  const runs = join(io.env.AUTOHEDGE_HOME as string, 'runs');
  return readdirSync(runs).map(
    (name) => JSON.parse(readFileSync(join(runs, name, 'result.json'), 'utf8')) as AnalysisResult,
  );
};

describe('analyze --universe', () => {
  it('reads a ticker list with comments, adds the command line tickers, collapses duplicates, streams --jsonl', async () => {
    const io = captureIo();
    const file = universeFile(io, 'watchlist.txt', '# my watchlist\nAAA\nbbb   # lower case is fine\n\nCCC\nAAA\n');
    const model = universeModel(4);
    const market = fakeMarket();
    const code = await runCli(['analyze', 'DDD', 'aaa', '--universe', file, '--jsonl', '--concurrency', '3'], io, {
      model,
      market,
      search,
      now,
    });
    expect(code).toBe(0);
    const lines = io.out().trimEnd().split('\n');
    expect(lines).toHaveLength(4);
    const results = lines.map((line) => JSON.parse(line) as AnalysisResult);
    expect(results.map((result) => result.ticker).sort()).toEqual(['AAA', 'BBB', 'CCC', 'DDD']);
    expect(market.calls.sort()).toEqual(['AAA', 'BBB', 'CCC', 'DDD']);
    expect(
      savedResults(io)
        .map((result) => result.ticker)
        .sort(),
    ).toEqual(['AAA', 'BBB', 'CCC', 'DDD']);
    // The summary goes to stderr when stdout carries JSON lines.
    expect(io.err()).toContain('Universe: 4 analysed — 4 ok');
    model.assertComplete();
  });

  it('reads a CSV universe by its ticker or symbol column', async () => {
    const io = captureIo();
    const file = universeFile(io, 'index.csv', 'Name,Symbol,Weight\n"Acme Robotics",ACME,0.5\nGlobex,GLBX,0.5\n');
    const code = await runCli(['analyze', '--universe', file, '--json', '--quiet'], io, {
      model: universeModel(2),
      market: fakeMarket(),
      search,
      now,
    });
    expect(code).toBe(0);
    // --json keeps its one array, in the universe's order, and adds no summary.
    expect((JSON.parse(io.out()) as AnalysisResult[]).map((result) => result.ticker)).toEqual(['ACME', 'GLBX']);
    expect(io.err()).toBe('');
  });

  it('refuses a bad universe file before any request, naming the line', async () => {
    for (const [text, message] of [
      ['AAPL\nBRK B\n', 'autohedge: list.txt:2: invalid ticker'],
      ['Name,Weight\nAcme,1\n', "autohedge: list.txt: a CSV universe needs a 'ticker' or 'symbol' column"],
      ['# nothing but a comment\n', 'autohedge: no tickers in --universe list.txt'],
    ] as const) {
      const io = captureIo();
      const model = universeModel(0);
      const code = await runCli(['analyze', '--universe', universeFile(io, 'list.txt', text)], io, {
        model,
        market: fakeMarket(),
        search,
        now,
      });
      expect(code).toBe(2);
      expect(io.err()).toContain(message);
      expect(io.out()).toBe('');
      expect(model.requests).toHaveLength(0);
    }
    const missing = captureIo();
    expect(
      await runCli(['analyze', '--universe', 'nope.txt'], missing, {
        model: universeModel(0),
        market: fakeMarket(),
        search,
        now,
      }),
    ).toBe(2);
    expect(missing.err()).toMatch(
      /^autohedge: cannot read --universe .*nope\.txt: ENOENT: no such file or directory\n$/,
    );
  });

  it('refuses --json with --jsonl, and --resume with --no-save', async () => {
    for (const [flags, message] of [
      [['--json', '--jsonl'], '--json and --jsonl cannot be combined'],
      [['--resume', '--no-save'], '--resume reads and fills the run store: it cannot be combined with --no-save'],
    ] as const) {
      const io = captureIo();
      expect(
        await runCli(['analyze', 'ACME', ...flags], io, { model: universeModel(0), market: fakeMarket(), search, now }),
      ).toBe(2);
      expect(io.err()).toContain(message);
    }
  });

  it('ends with a summary: counts by status, names ranked by action and conviction, total cost', async () => {
    const io = captureIo();
    const stances: Record<string, Stance> = {
      LONG1: { action: 'BUY', conviction: 80 },
      LONG2: { action: 'BUY', conviction: 60 },
      FLAT: { action: 'HOLD', conviction: 50 },
      SHORT1: { action: 'SELL', conviction: 70 },
      SHORT2: { action: 'SELL', conviction: 90 },
    };
    const tickers = Object.keys(stances);
    const market = fakeMarket((ticker) => {
      if (ticker === 'NOPE') throw new DataError("unknown ticker 'NOPE'", 'unknown-ticker');
      return makeSnapshot(ticker);
    });
    const code = await runCli(['analyze', ...tickers, 'NOPE', '--concurrency', '2'], io, {
      model: universeModel(5, (ticker) => stances[ticker]!),
      market,
      search,
      now,
    });
    // The unknown ticker is the user's input: usage beats ok.
    expect(code).toBe(2);
    const summary = io.out().slice(io.out().indexOf('Universe:'));
    expect(summary).toContain('Universe: 6 analysed — 5 ok, 1 error');
    const ranked = summary
      .split('\n')
      .filter((line) => /^ {2}\S/.test(line))
      .map((line) => line.trim().split(/\s+/).slice(0, 3).join(' '));
    expect(ranked).toEqual(['LONG1 BUY 80', 'LONG2 BUY 60', 'FLAT HOLD 50', 'SHORT1 SELL 70', 'SHORT2 SELL 90']);
    expect(summary).toMatch(/Total cost: \$0\.\d{4}\n$/);
    expect(io.err()).toContain("autohedge: unknown ticker 'NOPE' (NOPE)");
  });
});

describe('analyze --resume', () => {
  it('after an interrupted universe re-runs only the unfinished tickers, and is idempotent', async () => {
    const io = captureIo();
    const file = universeFile(io, 'universe.txt', 'AAA\nBBB\nCCC\nDDD\nEEE\n');
    const controller = new AbortController();
    const first = fakeMarket((ticker) => {
      // Ctrl-C while CCC fetches its data: CCC ends interrupted, DDD and EEE never start.
      if (ticker === 'CCC') controller.abort(new Error('interrupted'));
      return makeSnapshot(ticker);
    });
    const interrupted = await runCli(
      ['analyze', '--universe', file, '--jsonl', '--concurrency', '1', '--quiet'],
      { ...io, signal: controller.signal },
      { model: universeModel(3), market: first, search, now },
    );
    expect(interrupted).toBe(130);
    expect(first.calls).toEqual(['AAA', 'BBB', 'CCC']);
    expect(
      savedResults(io)
        .map((result) => [result.ticker, result.status])
        .sort(),
    ).toEqual([
      ['AAA', 'ok'],
      ['BBB', 'ok'],
      ['CCC', 'interrupted'],
    ]);

    const again = fakeMarket();
    const resumed = captureIo({ env: io.env, cwd: io.cwd });
    const code = await runCli(['analyze', '--universe', file, '--jsonl', '--resume'], resumed, {
      model: universeModel(3),
      market: again,
      search,
      now,
    });
    expect(code).toBe(0);
    expect(again.calls.sort()).toEqual(['CCC', 'DDD', 'EEE']);
    expect(resumed.err()).toContain(
      'autohedge: --resume: 2 of 5 tickers already have a finished run for 2026-11-28; analysing 3',
    );
    expect(resumed.err()).toContain('Universe: 3 analysed — 3 ok, 2 skipped');

    // Everything finished for the day: a third run analyses nothing and makes no call.
    const idle = fakeMarket();
    const model = universeModel(0);
    const third = captureIo({ env: io.env, cwd: io.cwd });
    expect(
      await runCli(['analyze', '--universe', file, '--resume', '--json'], third, { model, market: idle, search, now }),
    ).toBe(0);
    expect(idle.calls).toEqual([]);
    expect(model.requests).toEqual([]);

    // Another as-of day is another key: everything runs again.
    const nextDay = fakeMarket();
    const fourth = captureIo({ env: io.env, cwd: io.cwd });
    expect(
      await runCli(['analyze', 'AAA', 'BBB', '--resume', '--quiet'], fourth, {
        model: universeModel(2),
        market: nextDay,
        search,
        now: () => new Date('2026-11-29T12:00:00Z'),
      }),
    ).toBe(0);
    expect(nextDay.calls.sort()).toEqual(['AAA', 'BBB']);
  });

  it('re-runs a ticker whose run failed', async () => {
    const io = captureIo();
    // The Director answers the plan, then breaks the decision schema twice: failed.
    const failing = new ScriptedModel({
      director: [{ text: JSON.stringify(planFor(deskIds, { thesis: 'T' })) }, { text: 'no' }, { text: 'still no' }],
      quant: [{ text: 'q' }],
      risk: [{ text: 'r' }],
      execution: [{ text: 'e' }],
      sentiment: [{ text: 's' }],
    });
    expect(
      await runCli(['analyze', 'AAA', '--quiet', '--json'], io, { model: failing, market: fakeMarket(), search, now }),
    ).toBe(1);
    const again = fakeMarket();
    const resumed = captureIo({ env: io.env, cwd: io.cwd });
    expect(
      await runCli(['analyze', 'AAA', '--resume', '--json', '--quiet'], resumed, {
        model: universeModel(1),
        market: again,
        search,
        now,
      }),
    ).toBe(0);
    expect(again.calls).toEqual(['AAA']);
  });
});

describe('analyze --max-cost over a universe', () => {
  it('caps the whole universe: once a call is refused no further ticker starts', async () => {
    const io = captureIo();
    const market = fakeMarket();
    const tickers = Array.from({ length: 8 }, (_, index) => `T${index}`);
    // Each call really spends 20,000 prompt tokens ($0.04 at gpt-4.1's $2 per million), so
    // seven calls an analysis cost about $0.28: a $1 cap has room for three, not eight.
    const model = universeModel(8, undefined, { promptTokens: 20_000 });
    const code = await runCli(
      ['analyze', ...tickers, '--max-cost', '1', '--model', 'gpt-4.1', '--concurrency', '1', '--jsonl'],
      io,
      { model, market, search, now },
    );
    expect(code).toBe(3);
    expect(market.calls.length).toBeGreaterThanOrEqual(2);
    expect(market.calls.length).toBeLessThan(8);
    expect(io.err()).toMatch(
      new RegExp(
        `--max-cost \\$1\\.0000 reached: ${8 - market.calls.length} ticker\\(s\\) not started \\(run again with --resume to continue\\)`,
      ),
    );
  });
});
