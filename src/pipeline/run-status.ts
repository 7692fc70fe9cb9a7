import type { FailureKind } from '../agent/types.js';
import type { GuardrailFinding, RunStatus } from '../result/types.js';

/** What a run's status is decided from: typed facts, never messages. */
export interface RunFacts {
  /** The run's own signal aborted (Ctrl-C, SIGTERM, a library caller's abort). */
  interrupted: boolean;
  /** No market snapshot: the desks worked without numbers. */
  marketMissing: boolean;
  /** One entry per desk that ran: its failure's kind, or null when it reported. */
  desks: ReadonlyArray<FailureKind | null>;
  /** The failure that stopped the Director (its plan, or its first decision), or null. */
  director: FailureKind | null;
  /** Severities of the findings on the decision that stands. */
  findings: ReadonlyArray<GuardrailFinding['severity']>;
  /** The --max-cost cap stopped the Director's samples before all asked for were made. */
  samplesCut?: boolean;
}

/**
 * The one rule from facts to status, worst first: interrupted; failed (the Director
 * failed, or every desk did); flagged (the decision breaks a guardrail rule: an
 * `error` finding); degraded (a desk, the market data, or samples the cap cut are missing); ok. A stop by
 * the --max-cost cap is no failure of the model: where it ends a run, the run is
 * degraded, not failed.
 */
export function runStatus(facts: RunFacts): RunStatus {
  if (facts.interrupted) return 'interrupted';
  if (facts.director !== null) return facts.director === 'budget' ? 'degraded' : 'failed';
  const failedDesks = facts.desks.filter((kind) => kind !== null);
  if (facts.desks.length > 0 && failedDesks.length === facts.desks.length) {
    return failedDesks.includes('budget') ? 'degraded' : 'failed';
  }
  if (facts.findings.includes('error')) return 'flagged';
  if (failedDesks.length > 0 || facts.marketMissing || facts.samplesCut) return 'degraded';
  return 'ok';
}
