import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { errorCode } from '../errors.js';
import { verifyHomeLedger } from '../ledger/check.js';
import { LedgerError } from '../ledger/errors.js';
import { ledgerPaths } from '../ledger/paths.js';
import { sha256Hex, type LedgerRecord } from '../ledger/record.js';
import type { AnalysisResult } from '../result/types.js';
import { describeReason, forwardVerdict, type ForwardReason, type ForwardSummary, type LedgerView } from './forward.js';
import type { Selection } from './select.js';

/** The ledger and the saved bytes behind `evaluate --forward-only` (the rules are in forward.ts, pure). */

async function ledgerView(home: string, demo: boolean): Promise<LedgerView> {
  let report;
  try {
    report = await verifyHomeLedger(ledgerPaths(home, { demo }));
  } catch (error) {
    // No ledger yet: every decision is simply without a record.
    if (error instanceof LedgerError && error.kind === 'missing') return { intact: true, byRunId: new Map() };
    throw error;
  }
  const byRunId = new Map<string, LedgerRecord[]>();
  for (const record of report.verified) byRunId.set(record.runId, [...(byRunId.get(record.runId) ?? []), record]);
  // The chain decides intactness; a bad token only fails to cover (verify names it).
  return { intact: report.firstBad === undefined, byRunId, anchoredBy: report.anchoredBy };
}

/** How many selected decisions have a record covered by a valid anchor, by the TSA of that anchor. */
function anchoredCount(
  results: readonly AnalysisResult[],
  views: ReadonlyMap<boolean, LedgerView>,
): ForwardSummary['anchored'] {
  const byTsa: Record<string, number> = {};
  let decisions = 0;
  for (const result of results) {
    const view = views.get(result.demo);
    const covered = (view?.byRunId.get(result.runId) ?? [])
      .map((record) => view?.anchoredBy?.get(record.seq))
      .find(Boolean);
    if (!covered) continue;
    decisions += 1;
    byTsa[covered.tsa] = (byTsa[covered.tsa] ?? 0) + 1;
  }
  return { decisions, byTsa };
}

async function savedDigest(home: string, runId: string): Promise<string | null> {
  try {
    return sha256Hex(await readFile(join(home, 'runs', runId, 'result.json')));
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return null;
    throw error;
  }
}

/** Each selected run's verdict against the home's ledger (demo runs against the demo ledger). */
export async function forwardSelection(
  home: string,
  results: readonly AnalysisResult[],
  applied: boolean,
  trustLocalClock = false,
): Promise<{
  included: AnalysisResult[];
  excluded: Array<{ result: AnalysisResult; reason: ForwardReason }>;
  summary: ForwardSummary;
}> {
  const views = new Map<boolean, LedgerView>();
  const included: AnalysisResult[] = [];
  const excluded: Array<{ result: AnalysisResult; reason: ForwardReason }> = [];
  for (const result of results) {
    if (!views.has(result.demo)) views.set(result.demo, await ledgerView(home, result.demo));
    const reason = forwardVerdict(result, views.get(result.demo)!, await savedDigest(home, result.runId), {
      trustLocalClock,
    });
    if (reason === null) included.push(result);
    else excluded.push({ result, reason });
  }
  const counts: Partial<Record<ForwardReason, number>> = {};
  for (const { reason } of excluded) counts[reason] = (counts[reason] ?? 0) + 1;
  const summary: ForwardSummary = {
    applied,
    included: included.length,
    excluded: counts,
    clock: trustLocalClock ? 'local' : 'anchors',
    anchored: anchoredCount(results, views),
  };
  return { included, excluded, summary };
}

/**
 * The hook of `evaluate`: every selected decision's verdict, counted; with `applied`
 * (--forward-only) only the forward ones stay selected and the rest are listed as skipped.
 */
export async function applyForward(
  home: string,
  selection: Selection,
  applied: boolean,
  trustLocalClock = false,
): Promise<{ selection: Selection; summary: ForwardSummary }> {
  const { included, excluded, summary } = await forwardSelection(home, selection.results, applied, trustLocalClock);
  if (!applied) return { selection, summary };
  const skipped = excluded.map(({ result, reason }) => ({
    runId: result.runId,
    reason: `--forward-only: ${reason} (${describeReason(reason)})`,
  }));
  return { selection: { results: included, skipped: [...selection.skipped, ...skipped] }, summary };
}
