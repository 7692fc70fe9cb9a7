/**
 * Typed errors. Each class carries the exit code the CLI uses for it; the mapping
 * from error to exit code and to the one line a user sees lives in src/cli/exit.ts.
 */
import type { RateLimitInfo } from './rate-limit.js';

export const ExitCode = {
  ok: 0,
  failed: 1,
  usage: 2,
  degraded: 3,
  /** The decision broke a guardrail rule (an `error` finding). */
  flagged: 4,
  /** SIGINT (Ctrl-C); SIGHUP and SIGTERM end a run the same way with their own codes (128 + signal). */
  interrupted: 130,
  hangup: 129,
  terminated: 143,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

export class AutohedgeError extends Error {
  /** The exit code of the class's errors; a class whose code depends on the case overrides the getter. */
  static readonly exitCode: ExitCode = ExitCode.failed;
  get exitCode(): ExitCode {
    return (this.constructor as typeof AutohedgeError).exitCode;
  }
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** Bad command-line input: unknown flag values, malformed ticker, unknown agent id. */
export class UsageError extends AutohedgeError {
  static override readonly exitCode: ExitCode = ExitCode.usage;
}

/** Missing or invalid configuration: no API key, unreadable file, unknown price with a cap. */
export class ConfigError extends AutohedgeError {
  static override readonly exitCode: ExitCode = ExitCode.usage;
}

/** Market data could not be had: unknown ticker, a vendor unreachable or answering something that is not data. */
export class DataError extends AutohedgeError {
  /** An unknown ticker is the user's input, so it exits like a usage error. */
  constructor(
    message: string,
    readonly kind: 'unknown-ticker' | 'unreachable' | 'invalid' = 'unreachable',
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
  override get exitCode(): ExitCode {
    return this.kind === 'unknown-ticker' ? ExitCode.usage : ExitCode.failed;
  }
}

export type ModelErrorKind =
  | 'authentication'
  | 'model-not-found'
  | 'rate-limited'
  | 'quota'
  | 'bad-request'
  | 'server'
  | 'connection'
  | 'timeout'
  | 'aborted'
  | 'invalid-response'
  | 'refusal'
  | 'replay-mismatch'
  /** The server kept less of the prompt than was sent (a local engine's context size): never answered from. */
  | 'context-truncated';

/** A model call failed after the SDK's retries. */
export class ModelError extends AutohedgeError {
  /** The rate-limit headers of the answer that failed (a 429's retry-after), when it had any. */
  readonly rateLimit: RateLimitInfo | undefined;
  constructor(
    message: string,
    readonly kind: ModelErrorKind,
    readonly status: number | null = null,
    options?: { cause?: unknown; rateLimit?: RateLimitInfo },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.rateLimit = options?.rateLimit;
  }
  override get exitCode(): ExitCode {
    return this.kind === 'authentication' || this.kind === 'model-not-found' ? ExitCode.usage : ExitCode.failed;
  }
  /**
   * Whether the same call may succeed later, decided here once from the status (as the
   * AI SDK's APICallError.isRetryable is): 408, 409, 429 and 5xx, or no answer at all (a
   * dropped connection, a timeout). A spent quota, a bad key or request never are.
   */
  get retryable(): boolean {
    if (this.kind === 'quota') return false;
    if (this.status !== null) return [408, 409, 429].includes(this.status) || this.status >= 500;
    return retryableWithoutStatus.has(this.kind);
  }
}

const retryableWithoutStatus: ReadonlySet<ModelErrorKind> = new Set([
  'server',
  'connection',
  'timeout',
  'invalid-response',
]);

/** The next model call would pass the --max-cost cap. */
export class BudgetExceededError extends AutohedgeError {
  static override readonly exitCode: ExitCode = ExitCode.degraded;
}

/** A cassette is missing, corrupt, or a request has no recorded match. */
export class CassetteError extends AutohedgeError {
  static override readonly exitCode: ExitCode = ExitCode.usage;
}

/** The user pressed Ctrl-C or the caller aborted. */
export class InterruptedError extends AutohedgeError {
  static override readonly exitCode: ExitCode = ExitCode.interrupted;
  constructor(message = 'interrupted') {
    super(message);
  }
}

export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}

/**
 * The first of `error` and its causes that satisfies `predicate`: SDKs wrap the failure
 * that matters (a replay miss, a socket's ECONNRESET) a level or two deep. Follows
 * `.cause`, and the members of an AggregateError (how Node reports a connection tried
 * on several addresses). Only objects are tested; `maxDepth` levels and a visited set
 * keep a long or cyclic chain from looping.
 */
export function findCause<T>(
  error: unknown,
  predicate: (cause: unknown) => cause is T,
  maxDepth?: number,
): T | undefined;
export function findCause(error: unknown, predicate: (cause: unknown) => boolean, maxDepth?: number): unknown;
export function findCause(error: unknown, predicate: (cause: unknown) => boolean, maxDepth = 8): unknown {
  const seen = new Set<object>();
  const visit = (current: unknown, depth: number): unknown => {
    if (depth >= maxDepth || typeof current !== 'object' || current === null || seen.has(current)) return undefined;
    seen.add(current);
    if (predicate(current)) return current;
    if (current instanceof AggregateError) {
      for (const member of current.errors as unknown[]) {
        const found = visit(member, depth + 1);
        if (found !== undefined) return found;
      }
    }
    return visit((current as { cause?: unknown }).cause, depth + 1);
  };
  return visit(error, 0);
}

/** Node's style of code (ENOENT, ECONNRESET, UND_ERR_SOCKET); an API's own codes are lowercase. */
const nodeStyleCode = /^[A-Z_]+$/;

/**
 * The Node-style `.code` of the error or of its nearest cause that has one, e.g.
 * ECONNRESET under the SDK's "Connection error.". An API's own codes (OpenAI's
 * `model_not_found`) are not this kind and are skipped.
 */
export function errorCode(error: unknown): string | undefined {
  const found = findCause(error, (cause): cause is { code: string } => {
    const code = (cause as { code?: unknown }).code;
    return typeof code === 'string' && nodeStyleCode.test(code);
  });
  return found?.code;
}
