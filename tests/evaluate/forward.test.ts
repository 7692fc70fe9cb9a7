import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { forwardLine, forwardVerdict, outcomeStart, type LedgerView } from '../../src/evaluate/forward.js';
import { appendRunToLedger } from '../../src/ledger/entry.js';
import { ledgerPaths } from '../../src/ledger/paths.js';
import type { LedgerRecord } from '../../src/ledger/record.js';
import { createYahooMarketData } from '../../src/market/sources/yahoo/index.js';
import type { AnalysisResult, Decision } from '../../src/result/types.js';
import { saveRun } from '../../src/store/index.js';
import { acmeRoutes, createYahooRouter } from '../market/support/yahoo-router.js';
import { captureIo } from '../support/cli.js';
import { makeDecision, makeMarket, makeResult } from '../support/results.js';
import { content } from '../ledger/support.js';
import { faketime, makeTestCa, opensslTs, startLocalTsa } from '../ledger/support/local-tsa.js';
import { acmePath, benchmarkPath, chartOf, yearBefore } from './support.js';

/** `evaluate --forward-only`: only decisions sealed in the ledger before the prices that score them. */

describe('forwardVerdict (pure)', () => {
  const asOf = '2025-06-02T20:00:00.000Z';
  const record = (overrides: Partial<LedgerRecord>): LedgerRecord =>
    ({
      ...content(0, { asOf, resultDigest: 'd'.repeat(64) }),
      v: 1,
      seq: 0,
      prev: '0'.repeat(64),
      hash: 'h'.repeat(64),
      ...overrides,
    }) as LedgerRecord;
  const view = (records: LedgerRecord[], intact = true): LedgerView => ({
    intact,
    byRunId: new Map(records.length > 0 ? [['run', records]] : []),
  });
  const digest = 'd'.repeat(64);

  it('the outcome window opens at the next session’s open (09:30 New York)', () => {
    expect(outcomeStart(asOf, 'ACME').toISOString()).toBe('2025-06-03T13:30:00.000Z');
    // Before the bell, that same day's session is the first of the outcome.
    expect(outcomeStart('2025-06-03T12:00:00.000Z', 'ACME').toISOString()).toBe('2025-06-03T13:30:00.000Z');
    // After a Friday close: Monday.
    expect(outcomeStart('2025-06-06T20:30:00.000Z', 'ACME').toISOString()).toBe('2025-06-09T13:30:00.000Z');
  });

  it.each([
    {
      name: 'recorded before the open, clean',
      records: [record({ recordedAt: '2025-06-02T20:05:00.000Z' })],
      expected: null,
    },
    {
      name: 'recorded a second before the open',
      records: [record({ recordedAt: '2025-06-03T13:29:59.000Z' })],
      expected: null,
    },
    {
      name: 'recorded at the open',
      records: [record({ recordedAt: '2025-06-03T13:30:00.000Z' })],
      expected: 'recorded-after-outcome',
    },
    {
      name: 'an as-of run of a past day',
      records: [record({ asOfMode: 'historical', recordedAt: '2025-06-10T12:00:00.000Z' })],
      expected: 'historical',
    },
    {
      // Issue 47 item 5: `--as-of 2025-06-02` on a clock set to that evening is still not forward.
      name: 'an as-of run recorded by a clock set back before the open',
      records: [record({ asOfMode: 'historical', recordedAt: '2025-06-02T20:05:00.000Z' })],
      expected: 'historical',
    },
    {
      name: 'contaminated',
      records: [record({ contamination: 'contaminated', recordedAt: '2025-06-10T12:00:00.000Z' })],
      expected: 'contaminated',
    },
    {
      name: 'unknown contamination is not clean',
      records: [record({ contamination: 'unknown', recordedAt: '2025-06-02T20:05:00.000Z' })],
      expected: 'contaminated',
    },
    { name: 'no record', records: [], expected: 'no-record' },
    {
      name: 'result.json changed since',
      records: [record({ resultDigest: 'e'.repeat(64) })],
      expected: 'result-edited',
    },
  ])("by the writer's own clock: $name → $expected", ({ records, expected }) => {
    expect(forwardVerdict({ runId: 'run' }, view(records), digest, { trustLocalClock: true })).toBe(expected);
  });

  it.each([
    { name: 'anchored before the open', genTime: '2025-06-03T13:29:59.000Z', expected: null },
    { name: 'anchored at the open', genTime: '2025-06-03T13:30:00.000Z', expected: 'not-anchored-before-outcome' },
    { name: 'not anchored', genTime: null, expected: 'not-anchored-before-outcome' },
  ])('by an RFC 3161 anchor: $name → $expected', ({ genTime, expected }) => {
    // The record says it was made well before the open: only the anchor's time counts.
    const ledger = {
      ...view([record({ recordedAt: '2025-06-02T20:05:00.000Z' })]),
      anchoredBy: new Map(genTime ? [[0, { genTime, tsa: 'tsa.example' }]] : []),
    };
    expect(forwardVerdict({ runId: 'run' }, ledger, digest)).toBe(expected);
  });

  it('a chain that does not verify: nothing in it counts', () => {
    expect(forwardVerdict({ runId: 'run' }, view([record({})], false), digest)).toBe('chain-broken');
  });

  it('the summary line names each reason with its count', () => {
    expect(
      forwardLine({ applied: true, included: 1, excluded: { contaminated: 1, 'recorded-after-outcome': 2 } }, 4),
    ).toBe(
      'Forward-only: 1 of 4 decision(s) were on record before their outcome; excluded: 1 contaminated, 2 recorded-after-outcome.',
    );
  });
});

const bars = [...yearBefore('2025-06-02', (index) => 80 + index * 0.05), acmePath[0]!].map((session) => ({
  ...session,
  adjClose: session.close,
  volume: 1_000_000,
}));

function run(runId: string, decision: Partial<Decision>, overrides: Partial<AnalysisResult> = {}): AnalysisResult {
  return makeResult({
    runId,
    // Each fixture run stands for its own configuration: re-runs of one call are scored once (reruns.ts).
    autohedgeVersion: `test-${runId}`,
    asOf: '2025-06-02T20:00:00.000Z',
    asOfMode: 'live',
    contamination: { label: 'clean', models: [], reason: '' },
    market: makeMarket({ bars }),
    decision: makeDecision({ orderType: 'market', entry: null, ...decision }),
    ...overrides,
  });
}

/** Each run saved, and recorded in the ledger at `recordedAt` (null: never recorded). */
async function home(runs: Array<{ result: AnalysisResult; recordedAt: string | null }>) {
  const io = captureIo();
  const at = io.env.AUTOHEDGE_HOME!;
  for (const { result, recordedAt } of runs) {
    const { resultJson } = await saveRun(at, result, { transcript: [], markdown: '' });
    if (recordedAt) await appendRunToLedger({ home: at, result, resultJson, now: () => new Date(recordedAt) });
  }
  const router = createYahooRouter(
    acmeRoutes({ chart: (symbol) => chartOf(symbol, symbol === 'SPY' ? benchmarkPath : acmePath) }),
  );
  return { io, at, market: createYahooMarketData({ fetch: router.fetch }) };
}

const live = run('20250602T200000Z-ACME-live01', { action: 'BUY', conviction: 80, stopLoss: 95, takeProfit: 105 });
const pastDay = run(
  '20250610T120000Z-ACME-asof01',
  { action: 'SELL', conviction: 60, stopLoss: 103, takeProfit: 99.5 },
  { asOfMode: 'historical' },
);
const contaminated = run(
  '20250610T120000Z-ACME-cont01',
  { action: 'BUY', conviction: 70, stopLoss: 95, takeProfit: 105 },
  { asOfMode: 'historical', contamination: { label: 'contaminated', models: [], reason: 'trained after' } },
);
const unrecorded = run('20250602T200000Z-ACME-none01', {
  action: 'BUY',
  conviction: 50,
  stopLoss: 95,
  takeProfit: 105,
});

type Output = {
  decisions: Array<{ runId: string; horizons: Array<{ outcome: string }> }>;
  skipped: Array<{ runId: string; reason: string }>;
  forward: { applied: boolean; included: number; excluded: Record<string, number> };
};

async function evaluate(setup: Awaited<ReturnType<typeof home>>, args: string[], now: string, localClock = true) {
  const io = captureIo({ env: setup.io.env });
  const clock = localClock ? ['--trust-local-clock'] : [];
  const code = await runCli(['evaluate', '--horizon', '5', '--no-save', ...clock, ...args], io, {
    market: setup.market,
    now: () => new Date(now),
  });
  return { code, io };
}

describe('autohedge evaluate --forward-only', () => {
  const runs = [
    { result: live, recordedAt: '2025-06-02T20:00:05.000Z' },
    { result: pastDay, recordedAt: '2025-06-10T12:00:05.000Z' },
    { result: contaminated, recordedAt: '2025-06-10T12:01:00.000Z' },
    { result: unrecorded, recordedAt: null },
  ];

  it('excludes an as-of run of a past day, a contaminated run and an unrecorded one; includes the live run once its horizon has passed', async () => {
    const setup = await home(runs);
    const { code, io } = await evaluate(setup, ['--forward-only', '--json'], '2025-06-10T21:00:00Z');
    expect(code, io.err()).toBe(0);
    const output = JSON.parse(io.out()) as Output;
    expect(output.decisions.map((row) => row.runId)).toEqual([live.runId]);
    expect(output.decisions[0]!.horizons[0]!.outcome).toBe('target');
    expect(output.forward).toEqual({
      applied: true,
      included: 1,
      total: 4,
      excluded: { historical: 1, contaminated: 1, 'no-record': 1 },
      clock: 'local',
      anchored: { decisions: 0, byTsa: {} },
    });
    expect(Object.fromEntries(output.skipped.map((item) => [item.runId, item.reason.split(' ')[1]]))).toEqual({
      [pastDay.runId]: 'historical',
      [contaminated.runId]: 'contaminated',
      [unrecorded.runId]: 'no-record',
    });
  });

  it('before its horizon has passed, the live run is included but pending', async () => {
    // Levels no session reaches: only the horizon's close can settle it.
    const wide = run('20250602T200000Z-ACME-wide01', { action: 'BUY', conviction: 80, stopLoss: 50, takeProfit: 150 });
    const setup = await home([{ result: wide, recordedAt: '2025-06-02T20:00:05.000Z' }]);
    const early = JSON.parse(
      (await evaluate(setup, ['--forward-only', '--json'], '2025-06-05T21:00:00Z')).io.out(),
    ) as Output;
    expect(early.forward.included).toBe(1);
    expect(early.decisions[0]!.horizons[0]!.outcome).toBe('pending');
    const later = JSON.parse(
      (await evaluate(setup, ['--forward-only', '--json'], '2025-06-10T21:00:00Z')).io.out(),
    ) as Output;
    expect(later.decisions[0]!.horizons[0]!.outcome).toBe('horizon');
  });

  it('without --forward-only every decision is scored, and the verdict still counted', async () => {
    const setup = await home(runs);
    const { io } = await evaluate(setup, ['--json'], '2025-06-10T21:00:00Z');
    const output = JSON.parse(io.out()) as Output;
    expect(output.decisions).toHaveLength(4);
    expect(output.forward).toMatchObject({ applied: false, included: 1 });
    const text = await evaluate(setup, ['--forward-only'], '2025-06-10T21:00:00Z');
    expect(text.io.out()).toContain(
      "Forward-only: 1 of 4 decision(s) were on record before their outcome, forward by the writer's own clock; excluded: 1 no-record, 1 contaminated, 1 historical.",
    );
  });

  it('an edited result.json and a broken chain are excluded, by name', async () => {
    const setup = await home(runs.slice(0, 1));
    const file = join(setup.at, 'runs', live.runId, 'result.json');
    const original = readFileSync(file, 'utf8');
    writeFileSync(file, original.replace('"conviction": 80', '"conviction": 99'));
    const edited = JSON.parse(
      (await evaluate(setup, ['--forward-only', '--json'], '2025-06-10T21:00:00Z')).io.out(),
    ) as Output;
    expect(edited.forward.excluded).toEqual({ 'result-edited': 1 });
    writeFileSync(file, original);
    const ledger = ledgerPaths(setup.at).file;
    writeFileSync(ledger, readFileSync(ledger, 'utf8').replace('"action":"BUY"', '"action":"SELL"'));
    const broken = JSON.parse(
      (await evaluate(setup, ['--forward-only', '--json'], '2025-06-10T21:00:00Z')).io.out(),
    ) as Output;
    expect(broken.forward.excluded).toEqual({ 'chain-broken': 1 });
    expect(broken.decisions).toEqual([]);
  });
});

describe.skipIf(!opensslTs.ok || !faketime.ok)('autohedge evaluate --forward-only rests on RFC 3161 anchors', () => {
  if (!opensslTs.ok || !faketime.ok)
    console.warn(`skipping the anchored forward-only test: ${opensslTs.why || faketime.why}`);

  /** A home with one decision, recorded at `recordedAt` and anchored by a TSA whose clock reads `anchoredAt`. */
  async function anchoredHome(recordedAt: string, anchoredAt: string | undefined) {
    const setup = await home([{ result: live, recordedAt }]);
    const ca = await makeTestCa('Forward', anchoredAt === undefined ? undefined : '2025-01-01 00:00:00');
    const tsa = await startLocalTsa({ ...ca, at: anchoredAt });
    try {
      const io = captureIo({ env: setup.io.env });
      expect(await runCli(['ledger', 'anchor', '--tsa', tsa.url, '--tsa-cert', ca.root], io), io.err()).toBe(0);
    } finally {
      await tsa.close();
    }
    return setup;
  }

  it('a back-dated chain (recordedAt before the outcome, anchored after it) is excluded; an honestly anchored one is included', async () => {
    // Back-dated: the writer's clock says 2 June; the TSA saw the head only now, after the outcome.
    const backDated = await anchoredHome('2025-06-02T20:00:05.000Z', undefined);
    const excluded = await evaluate(backDated, ['--forward-only', '--json'], '2025-06-10T21:00:00Z', false);
    const output = JSON.parse(excluded.io.out()) as Output & { forward: { anchored: unknown } };
    expect(output.decisions).toEqual([]);
    expect(output.forward).toMatchObject({
      included: 0,
      excluded: { 'not-anchored-before-outcome': 1 },
      clock: 'anchors',
    });
    // By the writer's own clock it would have counted: that is what the anchor rules out.
    const trusting = await evaluate(backDated, ['--forward-only', '--json'], '2025-06-10T21:00:00Z', true);
    expect((JSON.parse(trusting.io.out()) as Output).forward.included).toBe(1);

    // Honest: a TSA stamped the head on the evening of 2 June, before the 3 June open.
    const honest = await anchoredHome('2025-06-02T20:00:05.000Z', '2025-06-02 20:10:00');
    const included = await evaluate(honest, ['--forward-only'], '2025-06-10T21:00:00Z', false);
    expect(included.code, included.io.err()).toBe(0);
    expect(included.io.out()).toMatch(
      /Forward-only: 1 of 1 decision\(s\) were on record before their outcome\. 1 decision\(s\) anchored by RFC 3161 time-stamps \(127\.0\.0\.1-\d+ 1\)\./,
    );
  }, 60_000);
});
