import { CassetteError, ExitCode } from '../../errors.js';
import type { EventSink } from '../../events.js';
import type { TickerOutcome } from '../../universe/analyze-many.js';
import { UniverseTally } from '../../universe/universe-summary.js';
import type { RunSinks } from '../../run/run-and-save.js';
import { exitCodeFor, exitCodeForStatus, formatError, worstExitCode } from '../exit.js';
import { colorEnabled, type CliIo } from '../io.js';
import type { AnalyzeCliOptions } from '../command-table.js';
import { createProgress } from '../progress.js';
import type { Session } from '../services.js';
import { createResultPrinter } from './result-printer.js';

interface OutputContext {
  tickers: string[];
  options: AnalyzeCliOptions;
  session: Session;
  io: CliIo;
  /** More than one ticker named (a repeated one included): --json prints an array. */
  several?: boolean;
}

/**
 * What `analyze` shows of each ticker: progress and --trace while it runs (its sinks),
 * then, as it finishes (saved already by runAndSave), `--jsonl` a line or the terminal
 * report, counted for the summary and forgotten. Only `--json` keeps results, for its
 * one array at the end.
 */
export async function createUniverseOutput({ tickers, options, session, io, several: named }: OutputContext) {
  const stderrColor = colorEnabled(io.env, io.stderrIsTTY);
  const progress = await createProgress({
    write: io.stderr,
    live: io.stderrIsTTY && io.columns > 0 && !options.trace,
    quiet: options.quiet,
    color: stderrColor,
    stream: process.stderr,
    rows: io.rows,
    columns: io.columns,
    secrets: session.secrets,
  });
  const { createTraceSink } = options.trace ? await import('../../report/trace.js') : { createTraceSink: null };
  const several = named ?? tickers.length > 1;
  const printer = await createResultPrinter(options, io, tickers, several);
  const tally = new UniverseTally();
  const codes = new Set<ExitCode>();
  // A Director's review the cassette does not hold leaves its decision standing, flagged,
  // with a warning: the run says so itself, so that miss is not a stale cassette.
  let reviewNotReplayed = false;

  return {
    tally,
    stopProgress: () => progress.stop(),
    sinksFor(ticker: string): RunSinks {
      const sinks: EventSink[] = [progress.sink(ticker)];
      if (createTraceSink)
        sinks.push(createTraceSink({ write: io.stderr, color: stderrColor, label: several ? ticker : undefined }));
      return {
        events: (event) => {
          for (const sink of sinks) sink(event);
        },
        warn: (message) => io.stderr(`autohedge: warning: ${message}\n`),
        // The user asked for these files: the analysis is still shown, and the command fails.
        writeFailed: (message) => {
          io.stderr(`autohedge: ${message}\n`);
          codes.add(ExitCode.failed);
        },
        info: options.quiet ? undefined : (message) => io.stderr(`${message}\n`),
      };
    },
    add(outcome: TickerOutcome): void {
      progress.done(outcome.ticker);
      if (outcome.result === undefined) {
        io.stderr(`${formatError(outcome.error, options.verbose)}${several ? ` (${outcome.ticker})` : ''}\n`);
        codes.add(exitCodeFor(outcome.error));
        tally.addError();
        return;
      }
      const result = outcome.result;
      if (result.reviewFailure?.kind === 'replay-miss') reviewNotReplayed = true;
      codes.add(exitCodeForStatus(result.status));
      tally.addResult(result);
      printer.print(result);
    },
    /** The --json array, the summary, replay misses and the cassette; the exit code. */
    async finish(current: Session): Promise<number> {
      const misses = current.replayMisses(reviewNotReplayed ? ['director'] : []);
      for (const miss of misses) io.stderr(`${formatError(new CassetteError(miss), false)}\n`);
      printer.flushJson();
      if (several) await printer.summary(tally);
      if ((several || options.verbose) && !options.quiet) await reportPacing(current, io);
      await current.finish(io);
      const code = worstExitCode([...codes]);
      // A replay that asked for something its cassette does not hold is a stale or wrong
      // cassette (re-record it), not a failed analysis: exit like a usage error.
      return misses.length > 0 && code !== ExitCode.interrupted ? ExitCode.usage : code;
    },
  };
}

/** How long requests waited for rate-limit budget, the 429s met, tokens/min against the limit: one stderr line. */
async function reportPacing(session: Session, io: CliIo): Promise<void> {
  if (!session.pacers) return;
  const { describePacing, pacingSummary } = await import('../../llm/pacer.js');
  const stats = await pacingSummary(session.pacers);
  if (stats) io.stderr(`${describePacing(stats)}\n`);
}
