/**
 * Typed errors. Each class carries the exit code the CLI uses for it; the mapping
 * from error to exit code and to the one line a user sees lives in src/cli/exit.ts.
 */

export const ExitCode = {
  ok: 0,
  failed: 1,
  usage: 2,
  degraded: 3,
  interrupted: 130,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

export class AutohedgeError extends Error {
  get exitCode(): ExitCode {
    return ExitCode.failed;
  }
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** Bad command-line input: unknown flag values, malformed ticker, unknown agent id. */
export class UsageError extends AutohedgeError {
  override get exitCode(): ExitCode {
    return ExitCode.usage;
  }
}

/** Missing or invalid configuration: no API key, unreadable file, unknown price with a cap. */
export class ConfigError extends AutohedgeError {
  override get exitCode(): ExitCode {
    return ExitCode.usage;
  }
}

/** Market data could not be had: unknown ticker, Yahoo unreachable. */
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
  | 'replay-mismatch';

/** A model call failed after the SDK's retries. */
export class ModelError extends AutohedgeError {
  constructor(
    message: string,
    readonly kind: ModelErrorKind,
    readonly status: number | null = null,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
  override get exitCode(): ExitCode {
    return this.kind === 'authentication' || this.kind === 'model-not-found' ? ExitCode.usage : ExitCode.failed;
  }
}

/** The next model call would pass the --max-cost cap. */
export class BudgetExceededError extends AutohedgeError {
  override get exitCode(): ExitCode {
    return ExitCode.degraded;
  }
}

/** A cassette is missing, corrupt, or a request has no recorded match. */
export class CassetteError extends AutohedgeError {
  override get exitCode(): ExitCode {
    return ExitCode.usage;
  }
}

/** The user pressed Ctrl-C or the caller aborted. */
export class InterruptedError extends AutohedgeError {
  override get exitCode(): ExitCode {
    return ExitCode.interrupted;
  }
  constructor(message = 'interrupted') {
    super(message);
  }
}

export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
