import { AutohedgeError, ExitCode, ModelError, errorMessage, type ModelErrorKind } from '../errors.js';
import type { ChatModel } from '../llm/types.js';
import type { AnalysisResult } from '../result/types.js';

/** What a worker does with a finished attempt. */
export type JobVerdict =
  | { kind: 'done'; result: AnalysisResult }
  /** A model call was refused with 429 after the client's own retries: pause the queue, run the job again later, no attempt spent. */
  | { kind: 'rate-limited'; reason: string }
  /** Worth another attempt after a back-off: a server error, a dropped connection, a timeout, Yahoo unreachable. */
  | { kind: 'transient'; reason: string }
  /** No attempt can succeed: a malformed or unknown ticker, a bad key, an unknown model. */
  | { kind: 'unrecoverable'; reason: string };

const transientKinds: ReadonlySet<ModelErrorKind> = new Set(['server', 'connection', 'timeout', 'invalid-response']);

/** A usage-class error (exit code 2) is the caller's mistake: retrying cannot help. */
export function isUsageClass(error: unknown): boolean {
  return error instanceof AutohedgeError && error.exitCode === ExitCode.usage;
}

/** The verdict on an analysis that threw instead of returning a result. */
export function verdictOnError(error: unknown): JobVerdict {
  const reason = describe(error);
  return isUsageClass(error) ? { kind: 'unrecoverable', reason } : { kind: 'transient', reason };
}

/**
 * The verdict on a returned result, from the model errors its calls met. A rate limit
 * anywhere in the run re-runs the whole job once the queue resumes, so the result is
 * complete rather than degraded; a failed run is retried only when what failed it can
 * pass (a 5xx, a timeout), never for a bad key or a schema slip.
 */
export function verdictOnResult(result: AnalysisResult, modelErrors: readonly ModelError[]): JobVerdict {
  const usage = modelErrors.find(isUsageClass);
  if (usage) return { kind: 'unrecoverable', reason: describe(usage) };
  const limited = modelErrors.find((error) => error.kind === 'rate-limited');
  if (limited) return { kind: 'rate-limited', reason: limited.message };
  if (result.status === 'failed' && modelErrors.some((error) => transientKinds.has(error.kind))) {
    return { kind: 'transient', reason: result.error ?? modelErrors[0]!.message };
  }
  return { kind: 'done', result };
}

/** The model a job's analysis uses, noting every ModelError its calls end in. */
export function observeModelErrors(model: ChatModel): { model: ChatModel; errors: ModelError[] } {
  const errors: ModelError[] = [];
  return {
    errors,
    model: {
      prepare: () => model.prepare?.(),
      async complete(request) {
        try {
          return await model.complete(request);
        } catch (error) {
          if (error instanceof ModelError) errors.push(error);
          throw error;
        }
      },
    },
  };
}

function describe(error: unknown): string {
  const name = error instanceof AutohedgeError ? `${error.name}: ` : '';
  return `${name}${errorMessage(error).split('\n')[0]}`;
}
