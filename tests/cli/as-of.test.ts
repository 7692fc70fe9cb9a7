import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { DataError } from '../../src/errors.js';
import type { MarketData } from '../../src/market/types.js';
import { createYahooMarketData } from '../../src/market/sources/yahoo/index.js';
import type { AnalysisResult } from '../../src/result/types.js';
import { ScriptedModel, type ScriptedStep } from '../../src/testing/scripted-model.js';
import type { SearchProvider, SearchRequest } from '../../src/tools/exa-search.js';
import { acmeRoutes, createYahooRouter } from '../market/support/yahoo-router.js';
import { captureIo } from '../support/cli.js';
import { deskIds } from '../../agents/index.js';
import { decisionFixture, planFor } from '../../src/testing/index.js';

/** `analyze --as-of` and `market --as-of` in-process: the real Yahoo client on the loopback stand-in, a scripted model. */

const plan = planFor(deskIds, { thesis: 'Thesis.' });
const decision = decisionFixture({ rationale: 'Because.', keyRisks: ['earnings'] });
const now = () => new Date('2025-10-11T12:00:00Z');

function script(): Record<string, ScriptedStep[]> {
  return {
    director: [{ text: JSON.stringify(plan) }, { text: JSON.stringify(decision) }],
    quant: [{ text: 'Quant report.' }],
    risk: [{ text: 'Risk report.' }],
    execution: [{ text: 'Execution report.' }],
    sentiment: [
      { toolCalls: [{ name: 'exa_search', arguments: { query: 'ACME news', daysBack: 30 } }] },
      { text: 'Sentiment report.' },
    ],
  };
}

function setup() {
  const router = createYahooRouter(acmeRoutes());
  const market = createYahooMarketData({ fetch: router.fetch });
  const searches: SearchRequest[] = [];
  // One result before the as-of close, one after it, one undated: only the first may reach the desk.
  const search: SearchProvider = {
    search: async (request) => {
      searches.push(request);
      return [
        {
          title: 'Before the close',
          url: 'https://news.example.com/before',
          publishedDate: '2025-05-30T14:00:00.000Z',
          author: null,
          snippet: 'old news',
        },
        {
          title: 'After the close',
          url: 'https://news.example.com/after',
          publishedDate: '2025-06-03T14:00:00.000Z',
          author: null,
          snippet: 'future news',
        },
        {
          title: 'Undated',
          url: 'https://news.example.com/undated',
          publishedDate: null,
          author: null,
          snippet: 'undated news',
        },
      ];
    },
  };
  return { router, market, search, searches, io: captureIo() };
}

describe('analyze --as-of', () => {
  it("runs as of the session's close: clock, data notes, search window, result marked historical and clean", async () => {
    const { market, search, searches, io, router } = setup();
    const model = new ScriptedModel(script());
    const code = await runCli(['analyze', 'ACME', '--as-of', '2025-06-02', '--json'], io, {
      model,
      market,
      search,
      now,
    });
    expect(io.err()).not.toContain('Error');
    expect(code).toBe(0);
    const result = JSON.parse(io.out()) as AnalysisResult;
    expect(result.asOf).toBe('2025-06-02T20:00:00.000Z');
    expect(result.asOfMode).toBe('historical');
    expect(result.contamination).toMatchObject({
      label: 'clean',
      models: [
        { model: 'gpt-4.1', cutoff: '2024-06-30' },
        { model: 'gpt-4o-mini', cutoff: '2023-10-31' },
      ],
    });
    expect(result.market?.bars.at(-1)?.date).toBe('2025-06-02');
    expect(result.market?.quote.marketCap).toBeNull();
    // The agents see the day and the historical note; the prompts' date is the as-of day.
    const quantRequest = model.requests.find((request) => request.agent === 'quant')!;
    expect(JSON.stringify(quantRequest.messages)).toContain('as of 2025-06-02');
    expect(JSON.stringify(quantRequest.messages)).toContain('historical run as of the 2025-06-02 close');
    // The news window ends at the close, not today.
    expect(searches).toHaveLength(1);
    expect(searches[0]!.endPublishedDate).toBe('2025-06-02T20:00:00.000Z');
    // The tool result the desk read: the future-dated and the undated results dropped.
    const toolResult = result.reports.find((report) => report.agent === 'sentiment')!.toolCalls[0]!.result!;
    expect(toolResult).toContain('https://news.example.com/before');
    expect(toolResult).not.toContain('https://news.example.com/after');
    expect(toolResult).not.toContain('https://news.example.com/undated');
    // No chart request reaches past the as-of close.
    for (const request of router.dataRequests().filter((seen) => seen.url.includes('/v8/finance/chart/'))) {
      expect(Number(new URL(request.url).searchParams.get('period2')) * 1000).toBeLessThanOrEqual(
        Date.parse(result.asOf),
      );
    }
    model.assertComplete();
  });

  it('before the training cutoff: labelled contaminated, warned on stderr, and the report says so', async () => {
    const { market, search, io } = setup();
    const code = await runCli(['analyze', 'ACME', '--as-of', '2024-09-27', '--model', 'gpt-5'], io, {
      model: new ScriptedModel(script()),
      market,
      search,
      now,
    });
    expect(code).toBe(0);
    expect(io.out()).toContain(
      'HISTORICAL - as of the 2024-09-27 US market close; no market data from after it - CONTAMINATED',
    );
    expect(io.out()).toContain('CONTAMINATED');
    expect(io.err()).toContain(
      'contaminated: as of 2024-09-27, before the training cutoff of gpt-5 (trained to 2024-09-30)',
    );
    // The saved report.md opens with the same line.
    const runsDirectory = join(io.env.AUTOHEDGE_HOME as string, 'runs');
    const markdown = readFileSync(join(runsDirectory, readdirSync(runsDirectory)[0]!, 'report.md'), 'utf8');
    expect(markdown).toContain(
      '> **HISTORICAL — as of the 2024-09-27 US market close; no market data from after it · CONTAMINATED',
    );
  });

  it('a model with no known cutoff: contamination unknown', async () => {
    const { market, search, io } = setup();
    await runCli(['analyze', 'ACME', '--as-of', '2025-06-02', '--model', 'llama3.1:8b', '--json'], io, {
      model: new ScriptedModel(script()),
      market,
      search,
      now,
    });
    const result = JSON.parse(io.out()) as AnalysisResult;
    expect(result.contamination?.label).toBe('unknown');
  });

  it('a live run is marked live and clean', async () => {
    const { market, search, io } = setup();
    await runCli(['analyze', 'ACME', '--json'], io, { model: new ScriptedModel(script()), market, search, now });
    const result = JSON.parse(io.out()) as AnalysisResult;
    expect(result.asOfMode).toBe('live');
    expect(result.contamination?.label).toBe('clean');
    expect(io.out()).not.toContain('HISTORICAL');
  });

  it('a future day or a closed market: exit 2 naming the nearest session, no request made', async () => {
    for (const [day, message] of [
      [
        '2025-10-13',
        'autohedge: --as-of 2025-10-13 for ACME is in the future or its session has not closed yet; the latest closed session of the New York Stock Exchange (XNYS) is 2025-10-10',
      ],
      [
        '2025-07-04',
        'autohedge: --as-of 2025-07-04 for ACME: the New York Stock Exchange (XNYS) was closed (Independence Day); the nearest sessions are 2025-07-03 and 2025-07-07',
      ],
    ] as const) {
      const { market, search, io, router } = setup();
      const model = new ScriptedModel([]);
      const code = await runCli(['analyze', 'ACME', '--as-of', day], io, { model, market, search, now });
      expect(code).toBe(2);
      expect(io.err().trim()).toBe(message);
      expect(io.out()).toBe('');
      expect(router.requests).toEqual([]);
      expect(model.requests).toEqual([]);
    }
  });

  it('--search openai (no date filter) is refused with --as-of: exit 2, no request', async () => {
    const { market, search, io, router } = setup();
    expect(
      await runCli(['analyze', 'ACME', '--as-of', '2025-06-02', '--search', 'openai'], io, {
        model: new ScriptedModel([]),
        market,
        search,
        now,
      }),
    ).toBe(2);
    expect(io.err()).toContain('autohedge: --search openai cannot be used with --as-of');
    expect(router.requests).toEqual([]);
  });

  it('--demo replays a live run: refused with --as-of', async () => {
    const { io } = setup();
    expect(await runCli(['analyze', 'ACME', '--demo', '--as-of', '2025-06-02'], io, { now })).toBe(2);
    expect(io.err().trim()).toBe(
      'autohedge: --demo replays a live run of its own day; it cannot be combined with --as-of',
    );
  });
});

describe('market --as-of', () => {
  it('prints the point-in-time block and its chart, ending at the session', async () => {
    const { market, io } = setup();
    const code = await runCli(['market', 'ACME', '--as-of', '2025-06-02', '--json'], io, { market, now });
    expect(code).toBe(0);
    const snapshot = JSON.parse(io.out()) as {
      asOf: string;
      bars: Array<{ date: string }>;
      quote: { trailingPE: number | null };
    };
    expect(snapshot.asOf).toBe('2025-06-02T20:00:00.000Z');
    expect(snapshot.bars.at(-1)?.date).toBe('2025-06-02');
    expect(snapshot.quote.trailingPE).toBeNull();
  });

  it('a weekend: exit 2', async () => {
    const { market, io } = setup();
    expect(await runCli(['market', 'ACME', '--as-of', '2025-06-01'], io, { market, now })).toBe(2);
    expect(io.err()).toContain(
      'the New York Stock Exchange (XNYS) was closed (a Sunday); the nearest sessions are 2025-05-30 and 2025-06-02',
    );
  });
});

describe('--as-of that is not a date', () => {
  it.each([
    ['analyze', 'ACME', '--search', 'none'],
    ['analyze', 'ACME', 'MSFT', '--search', 'none'],
    ['market', 'ACME'],
  ])('%s: one wording, exit 2, nothing fetched', async (...command) => {
    const { market, io } = setup();
    const asked: string[] = [];
    const watched: MarketData = {
      snapshot: (ticker, options) => (asked.push(ticker), market.snapshot(ticker, options)),
    };
    const code = await runCli([...command, '--as-of', 'yesterday'], io, {
      model: new ScriptedModel([]),
      market: watched,
      now,
    });
    expect(code).toBe(2);
    expect(io.err().trim()).toBe("autohedge: --as-of must be a date as YYYY-MM-DD (got 'yesterday')");
    expect(asked).toEqual([]);
  });
});

describe('one clock per ticker: a universe that mixes exchanges', () => {
  /** A market that records the clock each ticker was asked at, and has no data (the runs stop there). */
  function recordingMarket() {
    const asked: Array<{ ticker: string; asOf: string; historical: boolean }> = [];
    const market = {
      snapshot: async (ticker: string, options: { asOf: Date; historical?: boolean }) => {
        asked.push({ ticker, asOf: options.asOf.toISOString(), historical: options.historical === true });
        throw new DataError(`no data for ${ticker} in this test`);
      },
    };
    return { asked, market };
  }

  it('London, Tokyo and US tickers each run at their own close of the day: three requests, three instants', async () => {
    const { asked, market } = recordingMarket();
    const io = captureIo();
    await runCli(
      ['analyze', 'OCDO.L', '7203.T', 'ACME', '--as-of', '2025-06-02', '--search', 'none', '--no-save'],
      io,
      {
        model: new ScriptedModel([]),
        market,
        now,
      },
    );
    const byTicker = Object.fromEntries(asked.map((call) => [call.ticker, call]));
    expect(byTicker).toEqual({
      'OCDO.L': { ticker: 'OCDO.L', asOf: '2025-06-02T15:30:00.000Z', historical: true }, // 16:30 London (BST)
      '7203.T': { ticker: '7203.T', asOf: '2025-06-02T06:30:00.000Z', historical: true }, // 15:30 Tokyo
      ACME: { ticker: 'ACME', asOf: '2025-06-02T20:00:00.000Z', historical: true }, // 16:00 New York (EDT)
    });
  });

  it('a day one exchange did not trade is refused up front, naming that ticker, with no request made', async () => {
    const { asked, market } = recordingMarket();
    const io = captureIo();
    // 2025-07-21 is Marine Day in Tokyo; London and New York traded.
    const code = await runCli(
      ['analyze', 'OCDO.L', '7203.T', 'ACME', '--as-of', '2025-07-21', '--search', 'none'],
      io,
      {
        model: new ScriptedModel([]),
        market,
        now,
      },
    );
    expect(code).toBe(2);
    expect(io.err().trim()).toBe(
      'autohedge: --as-of 2025-07-21 for 7203.T: the Tokyo Stock Exchange (XTKS) was closed (Marine Day); the nearest sessions are 2025-07-18 and 2025-07-22',
    );
    expect(asked).toEqual([]);
  });

  it('analyze 7203.T --as-of 2025-07-04 is accepted (the NYSE was closed, Tokyo traded)', async () => {
    const { asked, market } = recordingMarket();
    const io = captureIo();
    await runCli(['analyze', '7203.T', '--as-of', '2025-07-04', '--search', 'none', '--no-save'], io, {
      model: new ScriptedModel([]),
      market,
      now,
    });
    expect(asked).toEqual([{ ticker: '7203.T', asOf: '2025-07-04T06:30:00.000Z', historical: true }]);
  });

  it('an unknown suffix: exit 2 listing the supported ones', async () => {
    const { asked, market } = recordingMarket();
    const io = captureIo();
    const code = await runCli(['analyze', 'AZT.OL', '--search', 'none'], io, {
      model: new ScriptedModel([]),
      market,
      now,
    });
    expect(code).toBe(2);
    expect(io.err()).toContain(
      "ticker AZT.OL: unknown exchange suffix '.OL'; supported: none (XNYS), .L (XLON), .DE (XETR)",
    );
    expect(asked).toEqual([]);
  });
});
