import type { AgentFailure, ModelFailure } from '../agent/types.js';
import type { RunFailure, RunStage, RunStatus } from '../result/types.js';

/** What a run's failure is decided from, beside runStatus's facts: typed, never parsed from messages. */
export interface FailureFacts {
  status: RunStatus;
  /** The phase the run was in when it ended (what an interruption cut short). */
  stage: RunStage;
  /** Why the market data is missing, or null when it is there. */
  market: string | null;
  /** The failure that stopped the Director, and in which phase. */
  director: { stage: 'plan' | 'decision'; failure: AgentFailure } | null;
  /** The failures of the desks that did not report. */
  desks: readonly AgentFailure[];
  /** A failed review pass of the Director (its decision before stands). */
  review: AgentFailure | null;
  /** The --max-cost cap that stopped the Director's samples early. */
  samplesCut?: AgentFailure | null;
  /** The run's error line, when it has one. */
  error: string | null;
}

/**
 * The one rule from facts to the typed failure, beside runStatus: an interruption;
 * else the Director's failure; else the desks' (the cap first, since it is why the
 * rest stopped, then a failure no retry can pass, then the others); else missing market
 * data; else a failed review. Undefined when the run is whole.
 */
export function runFailure(facts: FailureFacts): RunFailure | undefined {
  if (facts.status === 'interrupted')
    return { stage: facts.stage, kind: 'interrupted', message: facts.error ?? 'interrupted', retryable: false };
  if (facts.director) return fromAgent(facts.director.stage, facts.director.failure, facts.error);
  const desk = worstDeskFailure(facts.desks);
  if (desk) return fromAgent('desks', desk, facts.status === 'failed' ? facts.error : null);
  // Market data that could not be had (the vendor unreachable) may be there on another try.
  if (facts.market !== null) return { stage: 'market', kind: 'market', message: facts.market, retryable: true };
  if (facts.samplesCut) return fromAgent('decision', facts.samplesCut, null);
  if (facts.review) return fromAgent('decision', facts.review, null);
  return undefined;
}

function worstDeskFailure(failures: readonly AgentFailure[]): AgentFailure | undefined {
  const rank = (failure: AgentFailure) =>
    failure.kind === 'budget' ? 0 : failure.kind === 'model' && !retryableAgentFailure(failure) ? 1 : 2;
  return [...failures].sort((left, right) => rank(left) - rank(right))[0];
}

/** A model failure is as retryable as its model error says; an agent's own time limit may pass next time; the cap, a schema slip or a replay miss never do. */
function retryableAgentFailure(failure: AgentFailure): boolean {
  if (failure.kind === 'model') return failure.model?.retryable ?? false;
  return failure.kind === 'timeout';
}

function fromAgent(stage: RunStage, failure: AgentFailure, error: string | null): RunFailure {
  return {
    stage,
    kind: failure.kind,
    message: error ?? failure.message,
    retryable: retryableAgentFailure(failure),
    ...(failure.model ? { model: runModelFailure(failure.model) } : {}),
  };
}

function runModelFailure(model: ModelFailure): NonNullable<RunFailure['model']> {
  const { kind, status, retryAfterMs } = model;
  return { kind, status, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) };
}

/** Whether a run was stopped by the --max-cost cap somewhere: the scope it shares a cap with should start nothing more. */
export function capReached(result: {
  failure?: RunFailure;
  reports: ReadonlyArray<{ failure: AgentFailure | null }>;
}): boolean {
  return result.failure?.kind === 'budget' || result.reports.some((report) => report.failure?.kind === 'budget');
}
