import { CassetteError, ExitCode, UsageError } from '../../errors.js';
import { validateTicker } from '../../market/ticker.js';
import type { AnalyzeInput, ServeHandlers } from '../../mcp/server.js';
import type { AnalysisResult } from '../../result/types.js';
import { autohedgeHome, packageVersion } from '../../paths.js';
import { scrubDeep } from '../../scrub.js';
import type { CliDeps } from '../deps.js';
import { formatError } from '../exit.js';
import { warningWriter, type CliIo } from '../io.js';
import type { McpCliOptions } from '../command-table.js';
import { defaultMcpCallCapUsd } from '../../run/defaults.js';
import { runOptionsRecord, withRunRecord } from '../run-options.js';
import { resolveSearchChoice } from '../../search/choice.js';
import type { SearchChoice } from '../../search/types.js';
import { buildServices, checkedFlagBaseUrl, type Session } from '../services.js';
import { checkPricesKnown, demoCassettePath } from './analyze.js';
import { demoBanner } from '../../report/format.js';

type McpOptions = McpCliOptions & { maxCost: number };

/**
 * `autohedge mcp`: an MCP server over stdio, a thin shell over analyze() and the run
 * store. stdout carries JSON-RPC only; warnings go to stderr. Each call builds its own
 * session (a replayed cassette answers one run), and under --demo or --replay calls run
 * one at a time, since one replay serves the process.
 */
export async function mcpCommand(cliOptions: McpCliOptions, io: CliIo, deps: CliDeps, argv: string[]): Promise<number> {
  // An upstream agent can loop: every analyze call is capped unless the caller asks for less.
  const options: McpOptions = { ...cliOptions, maxCost: cliOptions.maxCost ?? defaultMcpCallCapUsd };
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
      maxCostUsd: options.maxCost,
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
  const open = (needsModel: boolean) =>
    buildServices(
      {
        env: io.env,
        cwd: io.cwd,
        baseUrl: options.baseUrl,
        replay: options.demo ? demoCassettePath() : options.replay,
        demo: options.demo,
        argv,
        needsModel,
        search,
        warn: warningWriter(io),
        mcpConfig: needsModel ? options.mcpConfig : undefined,
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
        session.checkDemoTickers([symbol], 'market');
        // The fictional company's data must never read as real market data to an assistant.
        const snapshot = await session.market.snapshot(symbol, { asOf: session.asOf(), signal });
        return { ...snapshot, source: 'demo', text: `${demoBanner}\n\n${snapshot.text}` };
      });
    },
    analyze: (input, signal, onEvent) => {
      const symbol = validateTicker(input.ticker);
      return withSession(
        true,
        (session) => analyzeOnce(symbol, input, session, { ...options, searchChoice: search }, signal, onEvent),
        (result) => (result.reviewFailure?.kind === 'replay-miss' ? ['director'] : []),
      );
    },
    runsList: async (limit) => {
      const { listRuns } = await import('../../store/index.js');
      return (await listRuns(autohedgeHome(io.env))).slice(0, limit);
    },
    runGet: async (id) => {
      const { loadRun } = await import('../../store/index.js');
      return loadRun(autohedgeHome(io.env), id);
    },
  };
}

async function analyzeOnce(
  symbol: string,
  input: AnalyzeInput,
  session: Session,
  options: McpOptions & { searchChoice: SearchChoice },
  signal: AbortSignal,
  onEvent: Parameters<ServeHandlers['analyze']>[2],
): Promise<AnalysisResult> {
  if (session.demo) session.checkDemoTickers([symbol]);
  const cap = Math.min(input.maxCostUsd ?? options.maxCost, options.maxCost);
  checkPricesKnown(options.model, input.agents, session, options.searchChoice, 'the per-call cost cap');
  const { analyze } = await import('../../pipeline/analyze.js');
  const { createTranscript } = await import('../../report/transcript.js');
  const transcript = createTranscript({ secrets: session.secrets });
  const raw = await analyze(
    symbol,
    {
      asOf: session.asOf(),
      agents: input.agents,
      model: options.model,
      env: session.env,
      maxCostUsd: cap,
      signal,
      demo: session.demo,
      replay: session.replaying,
      maxPositionPct: options.maxPosition,
      guardrailLimits: { maxRiskPct: options.maxRisk, minRewardRisk: options.minRewardRisk },
      ...(input.blind ? { blind: true } : {}),
      ...(input.samples !== undefined ? { samples: input.samples } : {}),
    },
    {
      model: session.model,
      market: session.market,
      search: session.search,
      prices: session.prices,
      agentTools: session.mcp?.agentTools,
      events: (event) => {
        transcript.sink(event);
        onEvent(event);
      },
    },
  );
  const record = runOptionsRecord(
    {
      model: options.model,
      agent: input.agents ?? [],
      maxPosition: options.maxPosition,
      maxRisk: options.maxRisk,
      minRewardRisk: options.minRewardRisk,
      maxCost: cap,
      search: options.searchChoice,
      blind: input.blind === true,
      samples: input.samples ?? 1,
    },
    session,
  );
  const result = scrubDeep(withRunRecord(raw, record), session.secrets);
  const { saveRun } = await import('../../store/index.js');
  const { renderRunFiles } = await import('../../report/run-files.js');
  // A run cut short by cancellation is saved too, as interrupted: the same files as the CLI's.
  await saveRun(autohedgeHome(session.env), result, { transcript: transcript.lines(), ...renderRunFiles(result) });
  return result;
}
