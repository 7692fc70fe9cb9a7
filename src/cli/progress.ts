import { formatDuration } from '../report/format.js';
import type { EventSink, RunEvent } from '../events.js';
import { sanitizeDeep } from '../sanitize.js';
import { scrubText } from '../scrub.js';

export interface ProgressOptions {
  write: (text: string) => void;
  /** A terminal with a width: draw a live spinner; otherwise print plain lines. */
  live: boolean;
  quiet: boolean;
  color: boolean;
  /** The ora stream when live (process.stderr). */
  stream?: NodeJS.WritableStream;
  /** The terminal's size when live: a block taller or wider than it cannot be redrawn in place. */
  rows?: number;
  columns?: number;
  /** Key values to scrub: ora writes to the stream itself, past the scrubbing io. */
  secrets?: readonly string[];
}

export interface Progress {
  sink(ticker: string): EventSink;
  /** The ticker's analysis has ended: a live view drops its lines, keeping only what went wrong, so a universe's view stays the size of what runs. */
  done(ticker: string): void;
  stop(): void;
}

export type AgentState = { status: 'running' | 'done' | 'failed'; detail: string };

/**
 * Progress on stderr: on a terminal one ora spinner whose text has a line per
 * agent (running / done / failed); elsewhere plain lines as states change; nothing
 * with --quiet. ora is imported only when a spinner is really drawn.
 */
export async function createProgress(options: ProgressOptions): Promise<Progress> {
  if (options.quiet) return { sink: () => () => {}, done: () => {}, stop: () => {} };
  if (!options.live) return plainProgress(options);
  const { default: ora } = await import('ora');
  const spinner = ora({
    stream: options.stream,
    color: options.color ? 'cyan' : false,
    discardStdin: false,
    hideCursor: true,
  });
  const board = new ProgressBoard();
  const render = () => {
    // ora writes to the stream itself, past the CLI's scrubbing io: scrub by pattern here.
    spinner.text = scrubText(
      progressBlock(board.states, { rows: options.rows ?? 0, columns: options.columns ?? 0 }),
      options.secrets,
    );
  };
  spinner.start('starting');
  return {
    // Tool names and error messages come from servers and models.
    sink: (ticker) => (unsafe: RunEvent) => {
      if (board.record(ticker, sanitizeDeep(unsafe))) render();
    },
    done: (ticker) => {
      board.end(ticker);
      render();
    },
    stop: () => {
      if (spinner.isSpinning) spinner.stop();
      // The spinner's lines are gone; what went wrong must stay on the screen.
      for (const line of board.lastLines()) options.write(line);
    },
  };
}

/**
 * Off a terminal: one line per event that has one, and each event once — the run's
 * "<agent> failed: …" warning (kept in the report and the JSON) repeats the agent's own
 * "failed —" line, so it is not printed again.
 */
function plainProgress(options: ProgressOptions): Progress {
  const failed = new Set<string>();
  return {
    sink: (ticker) => (event: RunEvent) => {
      if (event.type === 'agent-end' && event.status !== 'ok') failed.add(`${ticker}\u0000${event.agent}`);
      if (event.type === 'warning' && repeatsFailure(event.message, ticker, failed)) return;
      const line = plainLine(sanitizeDeep(event));
      if (line) options.write(`[${ticker}] ${line}\n`);
    },
    done: () => {},
    stop: () => {},
  };
}

/** What the live block shows: each running ticker's agents, and what to print once it is gone. */
class ProgressBoard {
  readonly states = new Map<string, Map<string, AgentState>>();
  private readonly warnings: Array<{ ticker: string; message: string }> = [];
  /** Failed agents of tickers that have ended, for the lines printed at stop(). */
  private readonly failures: Array<{ ticker: string; agent: string; detail: string }> = [];

  /** Takes an event in; true when the block changed. */
  record(ticker: string, event: RunEvent): boolean {
    if (event.type === 'agent-start') this.update(ticker, event.agent, { status: 'running', detail: '' });
    else if (event.type === 'tool-call')
      this.update(ticker, event.agent, { status: 'running', detail: `(${event.name})` });
    else if (event.type === 'agent-end') {
      this.update(ticker, event.agent, {
        status: event.status === 'ok' ? 'done' : 'failed',
        detail: event.status === 'ok' ? formatDuration(event.durationMs) : `— ${event.error ?? 'failed'}`,
      });
    } else if (event.type === 'warning') {
      this.warnings.push({ ticker, message: event.message });
      return false;
    } else return false;
    return true;
  }

  end(ticker: string): void {
    this.keepFailures(ticker);
    this.states.delete(ticker);
  }

  /** Each failed agent, then each warning not already said by a failure line. */
  lastLines(): string[] {
    for (const ticker of [...this.states.keys()]) this.keepFailures(ticker);
    const lines = this.failures.map(({ ticker, agent, detail }) => `[${ticker}] ${agent}: failed ${detail}\n`);
    for (const { ticker, message } of this.warnings) {
      // "<agent> failed: …" repeats a line just written.
      const said = this.failures.some(
        (failure) => failure.ticker === ticker && message.startsWith(`${failure.agent} failed: `),
      );
      if (!said) lines.push(`[${ticker}] warning: ${message}\n`);
    }
    return lines;
  }

  private update(ticker: string, agent: string, state: AgentState): void {
    const agents = this.states.get(ticker) ?? new Map<string, AgentState>();
    agents.set(agent, state);
    this.states.set(ticker, agents);
  }

  private keepFailures(ticker: string): void {
    for (const [agent, state] of this.states.get(ticker) ?? []) {
      if (state.status === 'failed') this.failures.push({ ticker, agent, detail: state.detail });
    }
  }
}

function repeatsFailure(message: string, ticker: string, failed: ReadonlySet<string>): boolean {
  const agent = /^([a-z]+) failed: /.exec(message)?.[1];
  return agent !== undefined && failed.has(`${ticker}\u0000${agent}`);
}

function plainLine(event: RunEvent): string | null {
  switch (event.type) {
    case 'agent-start':
      return `${event.agent}: running (${event.model})`;
    case 'tool-call':
      return `${event.agent}: calling ${event.name}`;
    case 'agent-end':
      return event.status === 'ok'
        ? `${event.agent}: done (${formatDuration(event.durationMs)})`
        : `${event.agent}: failed — ${event.error ?? 'unknown error'}`;
    case 'warning':
      return `warning: ${event.message}`;
    default:
      return null;
  }
}

/**
 * The live block: a line per agent, each cut to the terminal's width (a wrapped line
 * would break the spinner's redraw). When the lines do not fit the terminal's height
 * (many tickers on a short terminal), one summary line instead:
 * `12 running · 3 done · 1 failed`. 0 rows or columns means unknown: no limit.
 */
export function progressBlock(
  states: ReadonlyMap<string, ReadonlyMap<string, AgentState>>,
  size: { rows: number; columns: number },
): string {
  const lines: string[] = [];
  const counts = { running: 0, done: 0, failed: 0 };
  for (const [ticker, agents] of states) {
    for (const [agent, state] of agents) {
      counts[state.status] += 1;
      const mark = state.status === 'running' ? '…' : state.status === 'done' ? '✓' : '✗';
      lines.push(`${ticker} ${agent.padEnd(10)} ${mark} ${state.status}${state.detail ? ` ${state.detail}` : ''}`);
    }
  }
  // The spinner's own glyph and space take two columns; its line plus one spare row stay free.
  const width = size.columns > 0 ? size.columns - 2 : Infinity;
  const fit = (line: string) => (line.length <= width ? line : `${line.slice(0, Math.max(0, width - 1))}…`);
  if (size.rows > 0 && lines.length > size.rows - 2) {
    return fit(`${counts.running} running · ${counts.done} done · ${counts.failed} failed`);
  }
  return lines.map(fit).join('\n');
}
