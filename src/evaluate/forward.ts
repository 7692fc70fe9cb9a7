import type { LedgerRecord } from '../ledger/record.js';
import { nextSessionAfter, sessionOpen } from '../market/sessions.js';
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
  'recorded-after-outcome',
] as const;

export type ForwardReason = (typeof forwardReasons)[number];

export interface ForwardSummary {
  /** Whether the evaluation scored only these (`--forward-only`). */
  applied: boolean;
  included: number;
  excluded: Partial<Record<ForwardReason, number>>;
}

export interface LedgerView {
  /** False when the chain does not verify: then no decision of it counts. */
  intact: boolean;
  byRunId: ReadonlyMap<string, readonly LedgerRecord[]>;
}

/** The instant the outcome of a decision as of `asOf` starts: the open of the next session. */
export function outcomeStart(asOf: string): Date {
  return sessionOpen(nextSessionAfter(new Date(asOf)));
}

/** Why a decision is not forward, or null when it is. Pure; the first reason that applies, in `forwardReasons` order. */
export function forwardVerdict(
  result: Pick<AnalysisResult, 'runId'>,
  ledger: LedgerView,
  resultDigest: string | null,
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
  if (Date.parse(record.recordedAt) >= outcomeStart(record.asOf).getTime()) return 'recorded-after-outcome';
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
    case 'recorded-after-outcome':
      return 'recorded after its outcome window opened';
  }
}

/** The summary line of the terminal report and evaluation.md. */
export function forwardLine(summary: ForwardSummary, total: number): string {
  const excluded = forwardReasons
    .filter((reason) => (summary.excluded[reason] ?? 0) > 0)
    .map((reason) => `${summary.excluded[reason]} ${reason}`);
  const why = excluded.length > 0 ? `; excluded: ${excluded.join(', ')}` : '';
  return summary.applied
    ? `Forward-only: ${summary.included} of ${total} decision(s) were on record before their outcome${why}.`
    : `Ledger: ${summary.included} of ${total} decision(s) were on record before their outcome${why} (score only those with --forward-only).`;
}
