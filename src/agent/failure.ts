import { formatSeconds } from '../clock.js';
import {
  BudgetExceededError,
  CassetteError,
  InterruptedError,
  ModelError,
  errorMessage,
  findCause,
} from '../errors.js';
import type { AgentFailure, FailureKind, ModelFailure } from './types.js';

/** The error of a report whose run was aborted through context.signal without a reason. */
export const interruptedMessage = new InterruptedError().message;

/** The two ways a run is stopped from outside the model: its caller, or its own time limit. */
export interface StopSignals {
  caller?: AbortSignal;
  timeout?: AbortSignal;
  timeoutMs?: number;
}

/** Why a run stopped, when it was stopped rather than failed: null while neither signal fired. */
export function stoppedFailure(signals: StopSignals): AgentFailure | null {
  if (signals.caller?.aborted) {
    const reason: unknown = signals.caller.reason;
    // A caller that gives a reason (the Director could not plan) is named; a bare abort reads "interrupted".
    const message = reason instanceof Error && reason.name !== 'AbortError' ? reason.message : interruptedMessage;
    return { kind: 'interrupted', message };
  }
  if (signals.timeout?.aborted) {
    // Three decimals at most, so a sub-second limit never reads "0 s".
    return { kind: 'timeout', message: `timed out after ${formatSeconds(signals.timeoutMs ?? 0)}` };
  }
  return null;
}

/** A thrown model-call error as a typed failure; a stop signal that fired explains it first. */
export function failureOf(error: unknown, signals: StopSignals): AgentFailure {
  const stopped = stoppedFailure(signals);
  if (stopped) return stopped;
  const kind = kindOf(error);
  const model =
    kind === 'model' ? findCause(error, (cause): cause is ModelError => cause instanceof ModelError) : undefined;
  return { kind, message: errorMessage(error), ...(model ? { model: modelFailureOf(model) } : {}) };
}

/** What a failure keeps of its model error: typed facts its readers act on (the queue's pause reads the retry-after). */
function modelFailureOf(error: ModelError): ModelFailure {
  const retryAfterMs = error.rateLimit?.retryAfterMs;
  return {
    kind: error.kind,
    status: error.status,
    retryable: error.retryable,
    ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
  };
}

function kindOf(error: unknown): FailureKind {
  if (findCause(error, (cause) => cause instanceof BudgetExceededError)) return 'budget';
  // During a model call a cassette error is a replay that lacks the exchange.
  if (findCause(error, (cause) => cause instanceof CassetteError)) return 'replay-miss';
  return 'model';
}
