import { AutohedgeError, ExitCode } from '../errors.js';
import type { RunStatus } from '../pipeline/types.js';

/** The one place errors become exit codes. */
export function exitCodeFor(error: unknown): ExitCode {
  if (error instanceof AutohedgeError) return error.exitCode;
  if (isCommanderError(error)) return ExitCode.usage;
  return ExitCode.failed;
}

/** A finished run's status as an exit code. */
export function exitCodeForStatus(status: RunStatus): ExitCode {
  switch (status) {
    case 'ok':
      return ExitCode.ok;
    case 'degraded':
      return ExitCode.degraded;
    case 'flagged':
      return ExitCode.flagged;
    case 'failed':
      return ExitCode.failed;
    case 'interrupted':
      return ExitCode.interrupted;
  }
}

/** Several tickers, one exit code: interrupted beats usage beats failed beats flagged beats degraded beats ok. */
export function worstExitCode(codes: readonly ExitCode[]): ExitCode {
  const precedence: ExitCode[] = [ExitCode.interrupted, ExitCode.usage, ExitCode.failed, ExitCode.flagged, ExitCode.degraded, ExitCode.ok];
  return precedence.find((code) => codes.includes(code)) ?? ExitCode.ok;
}

/** One clear line for the user; the stack only with --verbose. */
export function formatError(error: unknown, verbose: boolean): string {
  const message = error instanceof Error ? error.message : String(error);
  const firstLine = message.split('\n')[0] ?? message;
  const label = error instanceof AutohedgeError && !(error.name === 'AutohedgeError') ? `${error.name}: ` : '';
  const line = `autohedge: ${label}${firstLine}`;
  if (verbose && error instanceof Error && error.stack) return `${line}\n${error.stack}`;
  return line;
}

/**
 * commander's own usage errors ("error: unknown option '--jsn'\n(Did you mean --json?)")
 * in the style of every other usage error: one line, `autohedge: UsageError: …`.
 */
export function formatCommanderError(text: string): string {
  const [first = '', ...rest] = text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  const hints = rest.map((line) => line.replace(/^\(Did you mean/, '(did you mean'));
  return [`autohedge: UsageError: ${first.replace(/^error:\s*/, '')}`, ...hints].join(' ');
}

interface CommanderLikeError {
  code: string;
  exitCode: number;
}

export function isCommanderError(error: unknown): error is CommanderLikeError {
  return (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as { code?: unknown }).code === 'string' &&
    (error as { code: string }).code.startsWith('commander.')
  );
}
