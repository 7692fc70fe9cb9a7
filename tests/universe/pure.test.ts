import { describe, expect, it } from 'vitest';
import { DataError, ModelError, UsageError, type ModelErrorKind } from '../../src/errors.js';
import { parseUniverse, mergeTickers } from '../../src/universe/universe-file.js';
import { UniverseTally, rankScore } from '../../src/universe/universe-summary.js';
import { renderUniverseSummary } from '../../src/report/universe-summary.js';
import type { AnalysisResult, RunFailure } from '../../src/result/types.js';
import { verdictOnError, verdictOnResult } from '../../src/queue/classify.js';
import { jobIdFor } from '../../src/queue/jobs.js';
import { decisionFor, type Stance } from './support.js';

describe('parseUniverse', () => {
  it('a list: comments, blank lines, CRLF and a BOM ignored, symbols upper-cased, file order kept', () => {
    expect(parseUniverse('\uFEFF# index\r\naapl\r\n\r\n  brk-b  # class B\r\n^gspc\r\n')).toEqual([
      'AAPL',
      'BRK-B',
      '^GSPC',
    ]);
  });
  it('a CSV: the ticker or symbol column, quoted cells, any case of header', () => {
    expect(parseUniverse('"Name","SYMBOL"\n"Apple",aapl\n"Sap",SAP.DE\n')).toEqual(['AAPL', 'SAP.DE']);
    expect(parseUniverse('ticker\nMSFT\n')).toEqual(['MSFT']);
  });
  it('names the line of a bad symbol and of an empty cell', () => {
    expect(() => parseUniverse('ticker,name\n,Nothing\n', 'u.csv')).toThrow(
      new UsageError('u.csv:2: no ticker in this row'),
    );
    expect(() => parseUniverse('AAPL\nA/B\n', 'u.txt')).toThrow(/^u\.txt:2: invalid ticker 'A\/B'/);
  });
  it('mergeTickers keeps the first position of each symbol', () => {
    expect(mergeTickers(['B', 'A'], ['A', 'C', 'B'])).toEqual(['B', 'A', 'C']);
  });
});

const result = (ticker: string, stance: Stance | null, costUsd: number | null = 0.01): AnalysisResult =>
  ({
    ticker,
    status: stance ? 'ok' : 'failed',
    decision: stance ? decisionFor(stance) : null,
    usage: { costUsd },
  }) as unknown as AnalysisResult;

describe('UniverseTally', () => {
  it('keeps only the names at each end, ranked BUY high to SELL high, and sums the priced cost', () => {
    const tally = new UniverseTally(2);
    const stances: Array<[string, Stance | null]> = [
      ['B60', { action: 'BUY', conviction: 60 }],
      ['S90', { action: 'SELL', conviction: 90 }],
      ['H50', { action: 'HOLD', conviction: 50 }],
      ['B80', { action: 'BUY', conviction: 80 }],
      ['S70', { action: 'SELL', conviction: 70 }],
      ['NONE', null],
    ];
    for (const [ticker, stance] of stances) tally.addResult(result(ticker, stance, ticker === 'H50' ? null : 0.01));
    tally.addError();
    tally.addSkipped();
    const summary = tally.result();
    expect(summary.top.map((name) => name.ticker)).toEqual(['B80', 'B60']);
    expect(summary.bottom.map((name) => name.ticker)).toEqual(['S90', 'S70']);
    expect(summary).toMatchObject({
      analysed: 7,
      decided: 5,
      byStatus: { ok: 5, failed: 1, error: 1, skipped: 1 },
      unpricedRuns: 1,
    });
    expect(summary.costUsd).toBeCloseTo(0.05, 10);
    expect(rankScore({ action: 'HOLD', conviction: 99 })).toBe(0);
  });

  it('an interrupted run is not counted as analysed, and the summary says how to finish with --resume', () => {
    const tally = new UniverseTally(2);
    tally.addResult({ ...result('DEG', null), status: 'degraded' } as AnalysisResult);
    tally.addResult({ ...result('INT', null), status: 'interrupted' } as AnalysisResult);
    const summary = tally.result();
    expect(summary).toMatchObject({ analysed: 1, byStatus: { degraded: 1, interrupted: 1 } });
    const text = renderUniverseSummary(summary);
    expect(text.split('\n').slice(0, 2)).toEqual([
      'Universe: 1 analysed — 1 degraded',
      '1 interrupted: run the same command again with --resume to finish them (finished tickers are skipped)',
    ]);
  });
});

describe('the queue: job ids and verdicts', () => {
  it('one job id per (ticker, as-of day), with no ":" in it', () => {
    expect(jobIdFor('BRK-B', '2026-11-28')).toBe('BRK-B@2026-11-28');
    expect(jobIdFor('EURUSD=X', '2026-11-28')).not.toContain(':');
  });
  it("usage-class errors are unrecoverable; the result's typed failure decides the rest", () => {
    const ok = result('A', { action: 'BUY', conviction: 60 });
    const failing = (failure: RunFailure, status: AnalysisResult['status'] = 'failed') =>
      ({ ...result('A', null), status, error: failure.message, failure }) as AnalysisResult;
    const model = (kind: ModelErrorKind, status: number | null) => {
      const error = new ModelError(`${kind} (${status})`, kind, status);
      return { kind: 'model' as const, message: error.message, retryable: error.retryable, model: { kind, status } };
    };
    expect(verdictOnError(new DataError("unknown ticker 'NOPE'", 'unknown-ticker'))).toEqual({
      kind: 'unrecoverable',
      reason: "DataError: unknown ticker 'NOPE'",
    });
    expect(verdictOnError(new DataError('could not reach Yahoo Finance', 'unreachable')).kind).toBe('transient');
    expect(verdictOnResult(failing({ stage: 'plan', ...model('authentication', 401) })).kind).toBe('unrecoverable');
    // A 429 anywhere re-runs the job, degraded or failed.
    expect(verdictOnResult(failing({ stage: 'desks', ...model('rate-limited', 429) }, 'degraded')).kind).toBe(
      'rate-limited',
    );
    // The pause is the server's retry-after, read from the typed failure.
    const limited = model('rate-limited', 429);
    expect(
      verdictOnResult(failing({ stage: 'plan', ...limited, model: { ...limited.model, retryAfterMs: 1_200 } })),
    ).toEqual({ kind: 'rate-limited', reason: 'rate-limited (429)', retryAfterMs: 1_200 });
    expect(verdictOnResult(failing({ stage: 'plan', ...limited }))).toEqual({
      kind: 'rate-limited',
      reason: 'rate-limited (429)',
    });
    expect(verdictOnResult(failing({ stage: 'plan', ...model('server', 503) }))).toEqual({
      kind: 'transient',
      reason: 'server (503)',
    });
    // A degraded run (a desk's 5xx) is a result, not a retry.
    const degraded = failing({ stage: 'desks', ...model('server', 503) }, 'degraded');
    expect(verdictOnResult(degraded)).toEqual({ kind: 'done', result: degraded });
    // A failed run no retry can pass (a schema slip, the cap) is a result too.
    const slipped = failing({ stage: 'decision', kind: 'schema', message: 'schema', retryable: false });
    expect(verdictOnResult(slipped)).toEqual({ kind: 'done', result: slipped });
    expect(verdictOnResult(ok)).toEqual({ kind: 'done', result: ok });
    // Degraded because Yahoo was unreachable: not the analysis asked for, so the fetch is retried.
    const noData = failing(
      { stage: 'market', kind: 'market', message: 'could not reach Yahoo Finance', retryable: true },
      'degraded',
    );
    expect(verdictOnResult(noData)).toEqual({
      kind: 'transient',
      reason: 'market data missing: could not reach Yahoo Finance',
    });
  });
});
