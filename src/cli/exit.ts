import { AutohedgeError, errorCode, ExitCode } from '../errors.js';
import { sanitizeText } from '../sanitize.js';
import { scrubText } from '../scrub.js';
import type { RunStatus } from '../result/types.js';

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
  const precedence: ExitCode[] = [
    ExitCode.interrupted,
    ExitCode.usage,
    ExitCode.failed,
    ExitCode.flagged,
    ExitCode.degraded,
    ExitCode.ok,
  ];
  return precedence.find((code) => codes.includes(code)) ?? ExitCode.ok;
}

/**
 * One clear line for the user; the stack only with --verbose. A message may quote a
 * server, a file or a command-line value, so it is sanitised and scrubbed here too.
 * A bug (a TypeError from our own code) says so, instead of passing as a domain error.
 */
export function formatError(error: unknown, verbose: boolean): string {
  const message = sanitizeText(scrubText(error instanceof Error ? error.message : String(error)));
  const firstLine = message.split('\n')[0] ?? message;
  const stack = verbose && error instanceof Error && error.stack ? `\n${sanitizeText(scrubText(error.stack))}` : '';
  if (isProgrammerError(error)) {
    return `autohedge: unexpected error: ${firstLine}${verbose ? stack : ' (run with --verbose for the stack)'}`;
  }
  // A user needs the message; the class is for bug reports, so only --verbose names it.
  const label = verbose && error instanceof AutohedgeError && error.name !== 'AutohedgeError' ? `${error.name}: ` : '';
  return `autohedge: ${label}${firstLine}${stack}`;
}

const programmerErrors = [TypeError, ReferenceError, RangeError, SyntaxError, EvalError, URIError];

/**
 * A bug rather than a failure of the world: one of JavaScript's own error classes, or a
 * thrown non-Error. A system or network failure (fetch's `TypeError: fetch failed`
 * carries an ECONNREFUSED cause) is not one; nor is anything autohedge typed.
 */
export function isProgrammerError(error: unknown): boolean {
  if (error instanceof AutohedgeError || isCommanderError(error)) return false;
  if (!(error instanceof Error)) return true;
  return programmerErrors.some((kind) => error instanceof kind) && errorCode(error) === undefined;
}

/**
 * commander's own usage errors ("error: unknown option '--jsn'\n(Did you mean --json?)")
 * in the style of every other usage error: one line, `autohedge: …`.
 */
export function formatCommanderError(text: string): string {
  const [first = '', ...rest] = text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  const hints = rest.map((line) => line.replace(/^\(Did you mean/, '(did you mean'));
  return [`autohedge: ${first.replace(/^error:\s*/, '')}`, ...hints].join(' ');
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
