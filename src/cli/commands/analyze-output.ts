import { join } from 'node:path';
import { CassetteError, ExitCode, errorMessage } from '../../errors.js';
import type { EventSink } from '../../events.js';
import type { ChatModel } from '../../llm/types.js';
import type { AnalyzeDeps } from '../../pipeline/analyze.js';
import type { TickerOutcome } from '../../universe/analyze-many.js';
import type { AnalysisResult } from '../../result/types.js';
import { UniverseTally } from '../../universe/universe-summary.js';
import { autohedgeHome } from '../../paths.js';
import { scrubDeep } from '../../scrub.js';
import { exitCodeFor, exitCodeForStatus, formatError, worstExitCode } from '../exit.js';
import { colorEnabled, type CliIo } from '../io.js';
import type { AnalyzeCliOptions } from '../command-table.js';
import { createProgress } from '../progress.js';
import type { Session } from '../services.js';
import { runOptionsRecord, withRunRecord } from '../run-options.js';
import { createResultPrinter } from './result-printer.js';

interface OutputContext {
  tickers: string[];
  options: AnalyzeCliOptions;
  session: Session;
  io: CliIo;
}

/**
 * What `analyze` does with each finished ticker, as it finishes: scrub it, save it,
 * print it (`--jsonl` a line, the terminal report), count it for the summary, and
 * forget it. Only `--json` keeps results, for its one array at the end.
 */
export async function createUniverseOutput({ tickers, options, session, io }: OutputContext) {
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
  const { createTranscript } = await import('../../report/transcript.js');
  const printer = await createResultPrinter(options, io, tickers);
  const record = runOptionsRecord(options, session);
  const transcripts = new Map<string, ReturnType<typeof createTranscript>>();
  const secrets = session.secrets;
  const several = tickers.length > 1;
  const tally = new UniverseTally();
  const codes = new Set<ExitCode>();
  // A Director's review the cassette does not hold leaves its decision standing, flagged,
  // with a warning: the run says so itself, so that miss is not a stale cassette.
  let reviewNotReplayed = false;

  return {
    tally,
    stopProgress: () => progress.stop(),
    depsFor(ticker: string, model: ChatModel, search: Session['search']): AnalyzeDeps {
      const transcript = createTranscript({ secrets });
      transcripts.set(ticker, transcript);
      const sinks: EventSink[] = [progress.sink(ticker), transcript.sink];
      if (createTraceSink)
        sinks.push(createTraceSink({ write: io.stderr, color: stderrColor, label: several ? ticker : undefined }));
      return {
        model,
        market: session.market,
        search,
        prices: session.prices,
        agentTools: session.mcp?.agentTools,
        events: (event) => {
          for (const sink of sinks) sink(event);
        },
      };
    },
    async add(outcome: TickerOutcome): Promise<void> {
      const transcript = transcripts.get(outcome.ticker);
      transcripts.delete(outcome.ticker);
      progress.done(outcome.ticker);
      if (outcome.result === undefined) {
        io.stderr(`${formatError(outcome.error, options.verbose)}${several ? ` (${outcome.ticker})` : ''}\n`);
        codes.add(exitCodeFor(outcome.error));
        tally.addError();
        return;
      }
      const result = scrubDeep(withRunRecord(outcome.result, record), secrets);
      if (result.reviewFailure?.kind === 'replay-miss') reviewNotReplayed = true;
      codes.add(exitCodeForStatus(result.status));
      tally.addResult(result);
      printer.print(result);
      await saveResult(result, transcript?.lines() ?? [], { options, session, io, several });
    },
    /** The --json array, the summary, replay misses and the cassette; the exit code. */
    async finish(current: Session): Promise<number> {
      const misses = current.replayMisses(reviewNotReplayed ? ['director'] : []);
      for (const miss of misses) io.stderr(`${formatError(new CassetteError(miss), false)}\n`);
      printer.flushJson();
      if (several) await printer.summary(tally);
      await current.finish(io);
      const code = worstExitCode([...codes]);
      // A replay that asked for something its cassette does not hold is a stale or wrong
      // cassette (re-record it), not a failed analysis: exit like a usage error.
      return misses.length > 0 && code !== ExitCode.interrupted ? ExitCode.usage : code;
    },
  };
}

async function saveResult(
  result: AnalysisResult,
  transcript: string[],
  context: { options: AnalyzeCliOptions; session: Session; io: CliIo; several: boolean },
): Promise<void> {
  const { options, session, io } = context;
  if (!options.save && !options.out) return;
  const { saveRun, writeRunFiles } = await import('../../store/index.js');
  const { renderRunFiles } = await import('../../report/run-files.js');
  const files = { transcript, ...renderRunFiles(result) };
  if (options.save) {
    try {
      const { dir } = await saveRun(autohedgeHome(session.env), result, files);
      if (!options.quiet) io.stderr(`saved ${dir}\n`);
    } catch (error) {
      io.stderr(`autohedge: warning: run ${result.runId} not saved: ${errorMessage(error)}\n`);
    }
  }
  if (options.out) {
    const directory = context.several ? join(options.out, result.ticker) : options.out;
    try {
      await writeRunFiles(directory, result, files);
      if (!options.quiet) io.stderr(`wrote ${directory}\n`);
    } catch (error) {
      io.stderr(`autohedge: warning: could not write --out ${directory}: ${errorMessage(error)}\n`);
    }
  }
}
