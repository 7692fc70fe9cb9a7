import type { LedgerRecord } from '../ledger/record.js';
import { calendarOf } from '../market/calendar/index.js';
import type { AnalysisResult } from '../result/types.js';

/**
 * `evaluate --forward-only`: only decisions that were on record before the prices that
 * score them. A decision counts when its run has a ledger record in a chain that
 * verifies, made before the open of the outcome window's first session, with a clean
 * contamination label, and the saved result.json is still the one recorded. An `--as-of`
 * run of a past day is recorded after its outcome, so it never counts.
 */

export const forwardReasons = [
  'chain-broken',
  'no-record',
  'result-edited',
  'contaminated',
  'historical',
  'not-anchored-before-outcome',
  'recorded-after-outcome',
] as const;

export type ForwardReason = (typeof forwardReasons)[number];

export interface ForwardSummary {
  /** Whether the evaluation scored only these (`--forward-only`). */
  applied: boolean;
  included: number;
  excluded: Partial<Record<ForwardReason, number>>;
  /** Whose clock said "before the outcome": an RFC 3161 anchor's, or the writer's own (--trust-local-clock). */
  clock?: 'anchors' | 'local';
  /** How many of the decisions have a record covered by a valid anchor, and by which TSAs. */
  anchored?: { decisions: number; byTsa: Record<string, number> };
}

export interface AnchorCover {
  genTime: string;
  tsa: string;
}

export interface LedgerView {
  /** False when the chain does not verify: then no decision of it counts. */
  intact: boolean;
  byRunId: ReadonlyMap<string, readonly LedgerRecord[]>;
  /** By record seq: the earliest valid RFC 3161 anchor covering it. */
  anchoredBy?: ReadonlyMap<number, AnchorCover>;
}

/** The instant the outcome of a decision as of `asOf` starts: the open of the next session on the ticker's exchange. */
export function outcomeStart(asOf: string, ticker: string): Date {
  const calendar = calendarOf(ticker);
  return calendar.openAt(calendar.nextSessionAfter(new Date(asOf)));
}

/** Why a decision is not forward, or null when it is. Pure; the first reason that applies, in `forwardReasons` order. */
export function forwardVerdict(
  result: Pick<AnalysisResult, 'runId'>,
  ledger: LedgerView,
  resultDigest: string | null,
  options: { trustLocalClock?: boolean } = {},
): ForwardReason | null {
  if (!ledger.intact) return 'chain-broken';
  const records = ledger.byRunId.get(result.runId) ?? [];
  if (records.length === 0) return 'no-record';
  // The record that sealed the bytes being scored; the sealed fields are read from it, not from the file.
  const record = records.find((item) => item.resultDigest === resultDigest);
  if (!record) return 'result-edited';
  if (record.contamination !== 'clean') return 'contaminated';
  // An --as-of run of a past day is never forward, whatever the clock of its writer said.
  if (record.asOfMode === 'historical') return 'historical';
  const outcome = outcomeStart(record.asOf, record.ticker).getTime();
  if (options.trustLocalClock) return Date.parse(record.recordedAt) >= outcome ? 'recorded-after-outcome' : null;
  // A third party's clock: a TSA's genTime over a head at or after this record, before the outcome.
  const anchor = ledger.anchoredBy?.get(record.seq);
  if (!anchor || Date.parse(anchor.genTime) >= outcome) return 'not-anchored-before-outcome';
  return null;
}

export function describeReason(reason: ForwardReason): string {
  switch (reason) {
    case 'chain-broken':
      return 'the ledger does not verify (see `autohedge ledger verify`)';
    case 'no-record':
      return 'no ledger record';
    case 'result-edited':
      return 'result.json was changed after it was recorded';
    case 'contaminated':
      return 'not clean: the models may know what came after it';
    case 'historical':
      return 'an --as-of run of a past day: decided after the fact';
    case 'not-anchored-before-outcome':
      return 'no RFC 3161 anchor covering its record is dated before its outcome window opened (`autohedge ledger anchor`)';
    case 'recorded-after-outcome':
      return 'recorded after its outcome window opened';
  }
}

/** The summary line of the terminal report and evaluation.md. */
export function forwardLine(summary: ForwardSummary, total: number): string {
  const excluded = forwardReasons
    .filter((reason) => (summary.excluded[reason] ?? 0) > 0)
    .map((reason) => `${summary.excluded[reason]} ${summary.applied ? reason : describeReason(reason)}`);
  // Without --forward-only nothing is excluded: every decision is scored, so say what the flag would leave out.
  const why =
    excluded.length === 0
      ? ''
      : summary.applied
        ? `; excluded: ${excluded.join(', ')}`
        : `; would be excluded under --forward-only: ${excluded.join('; ')}`;
  const clock = summary.clock === 'local' ? ", forward by the writer's own clock" : '';
  const line = summary.applied
    ? `Forward-only: ${summary.included} of ${total} decision(s) were on record before their outcome${clock}${why}.`
    : `Ledger: ${summary.included} of ${total} decision(s) were on record before their outcome${clock}${why} (score only those with --forward-only).`;
  return `${line}${anchoredLine(summary)}`;
}

function anchoredLine(summary: ForwardSummary): string {
  if (!summary.anchored) return '';
  const tsas = Object.entries(summary.anchored.byTsa)
    .sort(([left], [right]) => left.localeCompare(right))
    .map(([tsa, count]) => `${tsa} ${count}`);
  return ` ${summary.anchored.decisions} decision(s) anchored by RFC 3161 time-stamps${tsas.length > 0 ? ` (${tsas.join(', ')})` : ''}.`;
}
