import { CassetteError, ExitCode, UsageError } from '../../errors.js';
import { validateTicker } from '../../market/ticker.js';
import type { AnalyzeEvent, AnalyzeInput, ServeHandlers } from '../../mcp/server.js';
import { requestOfCall } from '../../mcp/analyze-input.js';
import type { EvaluateInput } from '../../mcp/server-tools.js';
import { defaultBenchmark, defaultHorizons, defaultSeed } from '../../evaluate/defaults.js';
import { autohedgeHome, packageVersion } from '../../paths.js';
import type { CliDeps } from '../deps.js';
import { formatError } from '../exit.js';
import { warningWriter, type CliIo } from '../io.js';
import type { McpCliOptions } from '../command-table.js';
import { defaultMcpServerCapUsd } from '../../run/defaults.js';
import { resolveRunClock } from '../../run/as-of.js';
import { scopeCap } from '../../run/cap.js';
import { AnalysisGate, type Admission, type QueuedState } from '../../run/gate.js';
import { homeSpendReservations, whileReserved } from '../../run/spend-reservations.js';
import type { SpendingCap } from '../../pipeline/budget.js';
import type { AnalysisResult } from '../../result/types.js';
import type { RunIndex } from '../../store/run-index.js';
import { parseRunRequest, type RunRequest } from '../../run/request.js';
import { runAndSave } from '../../run/run-and-save.js';
import { checkSearchForHistoricalRun, resolveSearchChoice } from '../../search/choice.js';
import { requestFromFlags } from '../run-request-flags.js';
import { serviceConfigOf } from '../request-session.js';
import type { SearchChoice } from '../../search/types.js';
import { buildServices, checkedFlagBaseUrl, type Session } from '../services.js';
import { checkPricesKnown } from './analyze.js';
import { demoBanner } from '../../report/format.js';

/** `maxCost`: the server's lifetime budget; `runMaxCost`: each analyze call's cap. */
type McpOptions = McpCliOptions & { maxCost: number };

/**
 * `autohedge mcp`: an MCP server over stdio, a thin shell over analyze() and the run
 * store. stdout carries JSON-RPC only; warnings go to stderr. Each call builds its own
 * session (a replayed cassette answers one run), and under --demo or --replay calls run
 * one at a time, since one replay serves the process. Analyses pass the server's gate:
 * --max-cost over its lifetime, --concurrency at once (src/run/gate.ts).
 */
export async function mcpCommand(cliOptions: McpCliOptions, io: CliIo, deps: CliDeps, argv: string[]): Promise<number> {
  // An upstream agent can loop: the server has a lifetime budget, and every analyze call is
  // capped under it unless the caller asks for less.
  const options: McpOptions = { ...cliOptions, maxCost: cliOptions.maxCost ?? defaultMcpServerCapUsd };
  if (options.demo && options.replay) throw new UsageError('--replay and --demo cannot be combined');
  // Refused before serving, as analyze refuses it before running.
  checkedFlagBaseUrl(options.baseUrl);
  const { serveMcpStdio } = await import('../../mcp/server.js');
  const handlers = createHandlers(options, io, deps, argv);
  const end = await serveMcpStdio(
    handlers,
    {
      name: 'autohedge',
      version: packageVersion(),
      errorLine: (error) => formatError(error, false),
      maxCostUsd: options.runMaxCost,
      budgetUsd: options.maxCost,
      concurrency: options.concurrency,
    },
    io.signal,
  );
  // A host closing stdin is the normal end; a signal's exit code is set by src/cli/main.ts.
  return end === 'aborted' ? ExitCode.interrupted : ExitCode.ok;
}

function createHandlers(options: McpOptions, io: CliIo, deps: CliDeps, argv: string[]): ServeHandlers {
  const replaying = options.demo || options.replay !== undefined;
  const search = resolveSearchChoice(options.search, io.env);
  let queue: Promise<unknown> = Promise.resolve();
  // One replay per process at a time; live sessions need no turn-taking.
  const exclusive = <T>(work: () => Promise<T>): Promise<T> => {
    if (!replaying) return work();
    const next = queue.then(work, work);
    queue = next.catch(() => {});
    return next;
  };
  const flags = options;
  let runIndex: Promise<RunIndex> | null = null;
  const gate = new AnalysisGate({
    budgetUsd: options.maxCost,
    concurrency: options.concurrency,
    waiting: options.concurrency,
    flags: { budget: '--max-cost', concurrency: '--concurrency' },
  });
  const open = (needsModel: boolean) =>
    buildServices(
      needsModel
        ? serviceConfigOf(parseRunRequest({ ...requestFromFlags(flags, search), ticker: 'ACME' }), io, argv)
        : {
            ...serviceConfigOf({ ...requestFromFlags(flags), mcpConfig: undefined, refresh: false }, io, argv),
            needsModel,
          },
      deps,
    );
  // `tolerated`: the agents whose replay misses the result itself reports (as the CLI does
  // for a Director's review the cassette lacks: the run ends flagged, not as a stale cassette).
  const withSession = <T>(
    needsModel: boolean,
    work: (session: Session) => Promise<T>,
    tolerated: (value: T) => string[] = () => [],
  ): Promise<T> =>
    exclusive(async () => {
      const session = await open(needsModel);
      try {
        const value = await work(session);
        const [miss] = session.replayMisses(tolerated(value));
        if (miss !== undefined) throw new CassetteError(miss);
        return value;
      } finally {
        await session.close();
      }
    });

  return {
    market: (ticker, signal) => {
      const symbol = validateTicker(ticker);
      return withSession(false, async (session) => {
        if (!session.demo) return session.market.snapshot(symbol, { asOf: session.asOf(), signal });
        session.checkDemoTickers([symbol], 'mcp');
        // The fictional company's data must never read as real market data to an assistant.
        const snapshot = await session.market.snapshot(symbol, { asOf: session.asOf(), signal });
        return { ...snapshot, source: 'demo', text: `${demoBanner}\n\n${snapshot.text}` };
      });
    },
    analyze: (input, signal, onEvent) =>
      analyzeWithin(gate, { input, signal, onEvent }, { flags, search, io, deps, withSession }),
    runsList: async (limit) => {
      // One index for the server's lifetime: a run is read again only when its result.json changes.
      runIndex ??= import('../../store/index.js').then(({ RunIndex }) => new RunIndex(autohedgeHome(io.env)));
      return (await (await runIndex).list()).slice(0, limit);
    },
    evaluate: (input, signal) => exclusive(() => evaluateOnce(input, { ...io, signal }, deps, argv, options)),
    runGet: async (id) => {
      const { loadRun } = await import('../../store/index.js');
      return loadRun(autohedgeHome(io.env), id);
    },
  };
}

type AnalyzeCall = { input: AnalyzeInput; signal: AbortSignal; onEvent: (event: AnalyzeEvent) => void };

/** How often a waiting call says it is still waiting: well inside the minute after which hosts cut a silent call. */
const waitingNoticeMs = 20_000;

/** The gate's admission, saying so (as progress) when the call has to wait for a slot, and again while it waits. */
async function admitWithNotice(
  gate: AnalysisGate,
  wantUsd: number,
  call: AnalyzeCall,
  concurrency: number,
): Promise<Admission> {
  let timer: NodeJS.Timeout | undefined;
  const onQueued = ({ running, ahead, waitingFor }: QueuedState) => {
    const why = {
      slot: `${running} of ${concurrency} analyses running (--concurrency)`,
      turn: 'calls ahead of this one are waiting',
      budget: `${running} running hold too much of the server's --max-cost for this one's cap`,
    }[waitingFor];
    call.onEvent({ type: 'queued', message: `waiting: ${why}; ${ahead} ahead of this one` });
    timer = setInterval(() => call.onEvent({ type: 'queued', message: 'still waiting to start' }), waitingNoticeMs);
  };
  try {
    return await gate.admit(wantUsd, { signal: call.signal, onQueued });
  } finally {
    clearInterval(timer);
  }
}

const homeReservations = (io: CliIo) => homeSpendReservations(autohedgeHome(io.env));

type WithSession = <T>(
  needsModel: boolean,
  work: (session: Session) => Promise<T>,
  tolerated?: (value: T) => string[],
) => Promise<T>;

/**
 * One analyze call through the server's gate: bad input (a bad ticker or desk, a ticker the
 * demo does not hold, a model with no price for the cap) is refused at once, never after a
 * wait; then the call waits for its admission (a slot and its cap, held against the
 * server's budget), runs with that cap, and settles with what the run actually cost — none
 * under --demo or --replay, where nothing is paid.
 */
async function analyzeWithin(
  gate: AnalysisGate,
  call: AnalyzeCall,
  shell: { flags: McpOptions; search: SearchChoice; io: CliIo; deps: CliDeps; withSession: WithSession },
): Promise<AnalysisResult> {
  const { flags, search, io, deps, withSession } = shell;
  const request = requestOf(call.input, flags, search, deps);
  return withSession(
    true,
    async (session) => {
      if (session.demo) session.checkDemoTickers([request.ticker], 'mcp');
      checkPricesKnown(request.model, request.agents, session, search, 'the per-call cost cap');
      const admission = await admitWithNotice(gate, request.maxCostUsd ?? flags.runMaxCost, call, flags.concurrency);
      const cap = scopeCap(admission.capUsd, session, "this call's cap");
      let result: AnalysisResult | null = null;
      try {
        const sinks = { events: call.onEvent, warn: warningWriter(io) };
        const scoped = { ...request, maxCostUsd: admission.capUsd };
        const run = () => runAndSave(scoped, session, sinks, { cap, signal: call.signal });
        // What a paid call may spend is held in the home until its run is saved, so that a
        // `watch --budget-usd` sharing the home counts it (a replay pays nothing).
        const saved = session.replaying
          ? await run()
          : await whileReserved(homeReservations(io), admission.capUsd, run);
        result = saved.result;
        return result;
      } finally {
        const [spent, capStopped] = spendOf(cap, result);
        admission.settle(session.replaying ? 0 : spent, capStopped);
      }
    },
    (value) => (value.reviewFailure?.kind === 'replay-miss' ? ['director'] : []),
  );
}

/**
 * One MCP analyze call as a RunRequest: the server's flags with what the call set
 * (requestOfCall), its cap the lower of the call's and --run-max-cost (the server's budget
 * may grant it less: see AnalysisGate). A closed or future day is refused before any session
 * opens, as `analyze --as-of` refuses it.
 */
function requestOf(input: AnalyzeInput, flags: McpOptions, search: SearchChoice, deps: CliDeps): RunRequest {
  const request = parseRunRequest(
    requestOfCall(
      { ...input, ticker: validateTicker(input.ticker) },
      requestFromFlags(flags, search),
      flags.runMaxCost,
    ),
  );
  const clock = resolveRunClock(request, deps.now?.() ?? new Date(), () => new Date());
  checkSearchForHistoricalRun(search, clock.historical);
  if (flags.demo && clock.historical)
    throw new UsageError('this demo server (autohedge mcp --demo) replays a live run of its own day: leave asOf out');
  return request;
}

/**
 * What a settled MCP run cost, for the server's budget: the cap's own tally (every model
 * call and search charged as its usage said), never less than the result's own figure;
 * and whether the cap refused a call.
 */
function spendOf(cap: SpendingCap | null, result: AnalysisResult | null): [number, boolean] {
  const tallied = cap?.spentUsd ?? 0;
  const reported = result?.usage.costUsd ?? 0;
  return [Math.max(tallied, reported), cap?.refusedCall != null];
}

/**
 * The MCP `evaluate` call as `autohedge evaluate --json` with the same options: the same
 * selection, scoring and JSON (price history through the server's own --replay, if any).
 */
async function evaluateOnce(
  input: EvaluateInput,
  io: CliIo,
  deps: CliDeps,
  argv: string[],
  options: McpOptions,
): Promise<Record<string, unknown>> {
  const { evaluateSaved, evaluationJson } = await import('./evaluate.js');
  const outcome = await evaluateSaved(
    input.runIds ?? [],
    {
      since: input.since,
      horizon: [...new Set(input.horizons ?? defaultHorizons)].sort((left, right) => left - right),
      benchmark: input.benchmark ?? defaultBenchmark,
      seed: input.seed ?? defaultSeed,
      includeDemo: input.includeDemo ?? false,
      forwardOnly: input.forwardOnly ?? false,
      trustLocalClock: input.trustLocalClock ?? false,
      // A demo server scores its demo runs against the bundled synthetic prices.
      demo: options.demo,
      record: undefined,
      replay: options.demo ? undefined : options.replay,
      quiet: false,
      askedBy: 'mcp',
    },
    io,
    deps,
    argv,
  );
  if ('misses' in outcome) throw new CassetteError(outcome.misses[0] ?? 'the cassette lacks a request');
  return evaluationJson(outcome.view);
}
