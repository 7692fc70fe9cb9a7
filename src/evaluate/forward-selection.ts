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
  return { intact: report.ok, byRunId };
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
    const reason = forwardVerdict(result, views.get(result.demo)!, await savedDigest(home, result.runId));
    if (reason === null) included.push(result);
    else excluded.push({ result, reason });
  }
  const counts: Partial<Record<ForwardReason, number>> = {};
  for (const { reason } of excluded) counts[reason] = (counts[reason] ?? 0) + 1;
  return { included, excluded, summary: { applied, included: included.length, excluded: counts } };
}

/**
 * The hook of `evaluate`: every selected decision's verdict, counted; with `applied`
 * (--forward-only) only the forward ones stay selected and the rest are listed as skipped.
 */
export async function applyForward(
  home: string,
  selection: Selection,
  applied: boolean,
): Promise<{ selection: Selection; summary: ForwardSummary }> {
  const { included, excluded, summary } = await forwardSelection(home, selection.results, applied);
  if (!applied) return { selection, summary };
  const skipped = excluded.map(({ result, reason }) => ({
    runId: result.runId,
    reason: `--forward-only: ${reason} (${describeReason(reason)})`,
  }));
  return { selection: { results: included, skipped: [...selection.skipped, ...skipped] }, summary };
}
