import { sanitizeText } from '../sanitize.js';
/**
 * Everything the CLI touches in the outside world, passed in so tests run the
 * real program in-process with captured output and a chosen environment.
 */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Whether stderr is a terminal (progress spinners go there). */
  stderrIsTTY: boolean;
  /** Whether stdout is a terminal (colour and charts in the report). */
  stdoutIsTTY: boolean;
  columns: number;
  /** The terminal's height (stderr), when known. */
  rows?: number;
  /** Aborted on SIGINT by the shim; tests abort it themselves. */
  signal?: AbortSignal;
}

export function processIo(signal?: AbortSignal): CliIo {
  return {
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
    env: process.env,
    cwd: process.cwd(),
    stderrIsTTY: Boolean(process.stderr.isTTY),
    stdoutIsTTY: Boolean(process.stdout.isTTY),
    columns: process.stderr.columns ?? process.stdout.columns ?? 0,
    rows: process.stderr.rows ?? process.stdout.rows ?? 0,
    signal,
  };
}

/**
 * Colour decision per https://no-color.org and FORCE_COLOR: chalk itself ignores
 * NO_COLOR, so this is decided once here and chalk is given an explicit level.
 */
export function colorEnabled(env: NodeJS.ProcessEnv, isTTY: boolean): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force !== 'false';
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.TERM === 'dumb') return false;
  return isTTY;
}

/** How a report is drawn on stdout: the same for a live run and `runs show`. */
export function reportOptions(io: CliIo): { color: boolean; unicode: boolean; width: number } {
  return {
    color: colorEnabled(io.env, io.stdoutIsTTY),
    unicode: io.stdoutIsTTY,
    width: Math.max(60, Math.min(io.columns || 100, 120)),
  };
}

/**
 * The one way a command reports a warning on stderr. Warnings quote what others sent (an MCP
 * server's stderr, a vendor's notices, tool names), so they are sanitised here, once.
 */
export function warningWriter(io: Pick<CliIo, 'stderr'>): (message: string) => void {
  return (message) => io.stderr(`autohedge: warning: ${sanitizeText(message)}\n`);
}
