import { join } from 'node:path';
import { errorMessage } from '../errors.js';
import type { EventSink } from '../events.js';
import type { PriceTable } from '../llm/prices.js';
import type { ChatModel } from '../llm/types.js';
import type { MarketData } from '../market/types.js';
import { appendRunToLedger } from '../ledger/entry.js';
import { autohedgeHome } from '../paths.js';
import { analyze, type AnalyzeDeps, type AnalyzeOptions } from '../pipeline/analyze.js';
import type { PromptLayout } from '../pipeline/shared-prefix.js';
import type { SpendingCap } from '../pipeline/budget.js';
import { renderRunFiles } from '../report/run-files.js';
import { createTranscript } from '../report/transcript.js';
import type { AnalysisResult } from '../result/types.js';
import { scrubDeep } from '../scrub.js';
import type { SearchProvider } from '../search/types.js';
import { saveRun, writeRunFiles } from '../store/index.js';
import { resolveRunClock, type RunClock } from './as-of.js';
import type { RunRequest } from './request.js';
import { runRecord, withRunRecord } from './run-record.js';

/**
 * The clients a request runs on (the CLI's Session satisfies it): one per command, a
 * worker, or an MCP call, built from the request's baseUrl, mcpConfig and cassette.
 */
export interface RunSession {
  env: NodeJS.ProcessEnv;
  /** The OpenAI-compatible base URL the model talks to (undefined: the SDK's default). */
  baseUrl: string | undefined;
  /** Replaying a cassette: nothing leaves the machine. */
  replaying: boolean;
  /** `legacy` for a version 1 cassette's replay (src/pipeline/shared-prefix.ts); default cacheable. */
  promptLayout?: PromptLayout;
  /** Synthetic data (the demo cassette): the result carries the DEMO banner. */
  demo: boolean;
  model: ChatModel;
  market: MarketData;
  search: SearchProvider | null;
  prices: PriceTable;
  mcp: { agentTools: AnalyzeDeps['agentTools'] } | null;
  /** Every value scrubbed from what is written. */
  secrets: readonly string[];
  /** A live run's clock: now, or a replayed cassette's recorded instant. */
  asOf(): Date;
  /** The wall clock a historical day is checked against (default: the system's). */
  now?(): Date;
}

/** Where a run's progress and notices go; the result itself is returned. */
export interface RunSinks {
  /** Every event as it happens: progress, --trace, MCP progress notifications. */
  events?: EventSink;
  /** A save that failed ("run … not saved"): the run is still returned, with a `save` failure. */
  warn?: (message: string) => void;
  /**
   * The files asked for could not be written (the run store, `--out`): said here instead of
   * `warn` when given, so a shell can fail the command after showing the analysis.
   */
  writeFailed?: (message: string) => void;
  /** Where a run was written ("saved <dir>"). */
  info?: (message: string) => void;
}

/** What one run shares with the others of its scope. */
export interface RunScope {
  /** The scope's --max-cost cap (src/run/cap.ts), or null. */
  cap?: SpendingCap | null;
  /** Aborts the run (Ctrl-C, a cancelled MCP call, a closing worker): it ends interrupted, and is saved. */
  signal?: AbortSignal;
  /**
   * Whether this result is kept — saved and handed to afterSave. Default: always. A queue
   * job's attempt that will run again (a 429, a retryable failure) is not: its retry is
   * the run that counts.
   */
  keep?: (result: AnalysisResult) => boolean;
}

/** A run as saved: the result (scrubbed, with its run record), where it went, and its transcript. */
export interface SavedRun {
  request: RunRequest;
  result: AnalysisResult;
  /** $AUTOHEDGE_HOME/runs/<runId>, or null when not saved (save: false, or the write failed). */
  dir: string | null;
  /** The request's `out` directory, when written. */
  outDir: string | null;
  transcript: readonly string[];
}

/**
 * The one path from a request to a saved run, for every shell alike: analyze →
 * transcript → run record (`options` = the request as run, `autohedgeVersion`) → scrub
 * → save (run store, `out`) → afterSave. Throws only what analyze() throws (bad input:
 * an unknown ticker, a closed --as-of day); a model failure is in the result.
 */
export async function runAndSave(
  request: RunRequest,
  session: RunSession,
  sinks: RunSinks = {},
  scope: RunScope = {},
): Promise<SavedRun> {
  const clock = resolveRunClock(request, session.now?.() ?? new Date(), () => session.asOf());
  const transcript = createTranscript({ secrets: session.secrets });
  const raw = await analyze(request.ticker, analyzeOptionsOf(request, session, clock, scope.signal), {
    model: session.model,
    market: session.market,
    search: session.search,
    prices: session.prices,
    agentTools: session.mcp?.agentTools,
    cap: scope.cap ?? null,
    events: (event) => {
      transcript.sink(event);
      sinks.events?.(event);
    },
  });
  const result = scrubDeep(withRunRecord(raw, runRecord(request, session)), [...session.secrets]);
  if (scope.keep && !scope.keep(result))
    return { request, result, dir: null, outDir: null, transcript: transcript.lines() };
  const { saved, resultJson } = await saveFiles(request, result, transcript.lines(), session, sinks);
  await afterSave(saved, resultJson, session, sinks);
  return saved;
}

/**
 * The request's fields that runAndSave and the session act on (where the run goes, what it
 * runs on, its cap and clock); every other field is analyze()'s, under the request's name.
 */
const runFields = [
  'version',
  'ticker',
  'asOf',
  'baseUrl',
  'search',
  'mcpConfig',
  'cassette',
  'save',
  'out',
  'maxCostUsd',
] as const satisfies ReadonlyArray<keyof RunRequest>;
type AnalysisFields = Omit<RunRequest, (typeof runFields)[number]>;
const isRunField = (field: string) => (runFields as readonly string[]).includes(field);

/** What analyze() is told, all of it from the request and the session: a new request field reaches it as it is named. */
function analyzeOptionsOf(
  request: RunRequest,
  session: RunSession,
  clock: RunClock,
  signal: AbortSignal | undefined,
): AnalyzeOptions {
  const analysis = Object.fromEntries(Object.entries(request).filter(([field]) => !isRunField(field)));
  return {
    ...(analysis as AnalysisFields),
    asOf: clock.at,
    historical: clock.historical,
    env: session.env,
    demo: session.demo,
    signal,
    ...(session.promptLayout ? { promptLayout: session.promptLayout } : {}),
  };
}

/** The run store and `out`, result.json last in each; a write that fails is a warning and a `save` failure, never a lost result. */
async function saveFiles(
  request: RunRequest,
  result: AnalysisResult,
  transcript: string[],
  session: RunSession,
  sinks: RunSinks,
): Promise<{ saved: SavedRun; resultJson: string | null }> {
  const saved: SavedRun = { request, result, dir: null, outDir: null, transcript };
  // The exact text of the run store's result.json: the ledger seals its digest.
  let resultJson: string | null = null;
  if (!request.save && request.out === undefined) return { saved, resultJson };
  const files = { transcript, ...renderRunFiles(result) };
  const failed = (message: string) => {
    if (sinks.writeFailed) sinks.writeFailed(message);
    else sinks.warn?.(message);
    result.failure ??= { stage: 'save', kind: 'save', message, retryable: false };
  };
  if (request.save) {
    try {
      const stored = await saveRun(autohedgeHome(session.env), result, files);
      saved.dir = stored.dir;
      resultJson = stored.resultJson;
      sinks.info?.(`saved ${saved.dir}`);
    } catch (error) {
      failed(`run ${result.runId} not saved: ${errorMessage(error)}`);
    }
  }
  if (request.out !== undefined) {
    try {
      await writeRunFiles(request.out, result, files);
      saved.outDir = request.out;
      sinks.info?.(`wrote ${request.out}`);
    } catch (error) {
      failed(`could not write --out ${request.out}: ${errorMessage(error)}`);
    }
  }
  return { saved, resultJson };
}

/**
 * THE hook after a run is saved — the one step every shell's run passes through once
 * its files are written (the CLI, a universe, a queue job, an MCP call alike). The
 * decision ledger (#26) appends `saved.result` here; whatever else must follow every
 * saved run belongs here too, not in a shell. `saved.dir` is null when the request
 * asked for no save or the write failed.
 */
async function afterSave(
  saved: SavedRun,
  resultJson: string | null,
  session: RunSession,
  sinks: RunSinks,
): Promise<void> {
  if (saved.dir === null || resultJson === null) return;
  // The decision ledger (#26): a run with a decision gets its sealed record (a demo run, in the
  // demo's own ledger). A ledger that cannot be written does not unsave the run: it is said.
  try {
    const appended = await appendRunToLedger({
      home: autohedgeHome(session.env),
      result: saved.result,
      resultJson,
      secrets: session.secrets,
      env: session.env,
      replaying: session.replaying,
    });
    // A completed or torn tail, an anchor (AUTOHEDGE_ANCHOR=1) that failed: said, never fatal.
    for (const notice of appended?.notices ?? []) sinks.warn?.(notice);
  } catch (error) {
    sinks.warn?.(`run ${saved.result.runId} was saved but not recorded in the ledger: ${errorMessage(error)}`);
  }
}

/** `out` for one of several tickers: a folder per ticker under it. */
export function outFor(out: string | undefined, ticker: string, several: boolean): string | undefined {
  return out === undefined || !several ? out : join(out, ticker);
}
