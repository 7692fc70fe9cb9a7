import { contaminationLabel, modelsOf } from '../result/run-facts.js';
import type { AnalysisResult } from '../result/types.js';
import { canonicalJson, sealedDecisionOf, sha256Hex, type LedgerBody } from './record.js';

/** What a record says of its run: everything but its place in the chain and its key. */
export type RecordContent = Omit<LedgerBody, 'v' | 'seq' | 'prev' | 'keyId'>;

/** SHA-256 of the canonical market snapshot the desks saw; null when the run had none. */
export function inputDigest(result: AnalysisResult): string | null {
  return result.market === null ? null : sha256Hex(canonicalJson(result.market));
}

/**
 * What the record of a saved run says (null for a run without a decision). Pure: the
 * caller supplies the time of the append and the bytes of result.json as saved.
 */
export function recordContentOf(
  result: AnalysisResult,
  resultJson: string | Uint8Array,
  recordedAt: Date,
): RecordContent | null {
  const decision = result.decision;
  if (decision === null) return null;
  return {
    recordedAt: recordedAt.toISOString(),
    runId: result.runId,
    ticker: result.ticker,
    asOf: result.asOf,
    asOfMode: result.asOfMode ?? 'live',
    status: result.status,
    demo: result.demo,
    decision: sealedDecisionOf(decision),
    models: modelsOf(result),
    contamination: contaminationLabel(result),
    autohedgeVersion: result.autohedgeVersion ?? null,
    inputDigest: inputDigest(result),
    resultDigest: sha256Hex(resultJson),
  };
}
