import { join, resolve } from 'node:path';
import { ConfigError, UsageError } from '../errors.js';
import { baseUrlProblem, chatBaseUrlOf } from '../llm/endpoints.js';
import { loadPriceTable, type PriceTable } from '../llm/prices.js';
import type { Ceilings } from '../llm/pacer-buckets.js';
import type { PacerRegistry } from '../llm/pacer.js';
import type { ChatModel } from '../llm/types.js';
import type { PromptLayout } from '../pipeline/shared-prefix.js';
import type { MarketData } from '../market/types.js';
import { autohedgeHome, demoCassettePath, packageVersion } from '../paths.js';
import type { SearchChoice, SearchProvider } from '../search/types.js';
import type { Recorder, Replay } from '../record/index.js';
import type { McpToolSources } from '../mcp/index.js';
import type { CliDeps } from './deps.js';
import { sanitizeText } from '../sanitize.js';
import { loadEnvFile } from './env-file.js';
import { unsafeInName } from './options.js';
import { secretsOf } from './redact.js';
import type { CliIo } from './io.js';

export interface ServiceConfig {
  env: NodeJS.ProcessEnv;
  cwd: string;
  baseUrl?: string;
  record?: string;
  /** A cassette to replay (the demo cassette for --demo). */
  replay?: string;
  demo?: boolean;
  refresh?: boolean;
  /** The command line, stored in a recorded cassette. */
  argv: string[];
  /** analyze needs a model; market does not. */
  needsModel: boolean;
  /** false: prices only (evaluate scores closes), so no fundamentals source, nothing to configure or request. */
  fundamentals?: boolean;
  /** What backs the search tool (`--search`, resolved with AUTOHEDGE_SEARCH). Default exa. */
  search?: SearchChoice;
  /** Warnings from the clients (an unwritable cache), for stderr. */
  warn: (message: string) => void;
  /** --mcp-config (else AUTOHEDGE_MCP_CONFIG): MCP servers whose allowed tools the desks get. */
  mcpConfig?: string;
  /** --rpm / --tpm: the quota to pace to before the server announces its own. */
  ceilings?: Ceilings;
  /** Where the model's pacers come from (the worker's live in Redis); default the process's for `ceilings`. */
  pacers?: PacerRegistry;
}

/** The clients of one CLI invocation, and the record/replay around them. */
export interface Session {
  env: NodeJS.ProcessEnv;
  asOf(): Date;
  /** The wall clock (CliDeps.now in tests), which a historical day is checked against. */
  now(): Date;
  /** The OpenAI-compatible base URL the model talks to (undefined: the SDK's default, api.openai.com). */
  baseUrl: string | undefined;
  /** Replaying a cassette (--replay or --demo): nothing leaves the machine. */
  replaying: boolean;
  /** `legacy` when replaying a version 1 cassette, recorded before the cacheable layout. */
  promptLayout: PromptLayout;
  model: ChatModel;
  /** The model's pacers (null under replay): what they waited and met is reported at the end. */
  pacers: PacerRegistry | null;
  market: MarketData;
  /** null for `--search none`. */
  search: SearchProvider | null;
  prices: PriceTable;
  /** The configured MCP servers' tools per desk; null without an MCP config. */
  mcp: McpToolSources | null;
  /** Every value to scrub from what is written: the API keys and the MCP config's env and header values. */
  secrets: string[];
  /** Synthetic data: --demo, or a replayed cassette labelled `demo` (so its results carry the DEMO banner however it is replayed). */
  demo: boolean;
  /** A usage error naming what the demo covers, with the right command to run instead. */
  checkDemoTickers(tickers: string[], command?: DemoCaller): void;
  /** The symbols a replayed cassette holds market data for (the demo's universe under --demo); none live. */
  coveredTickers(): string[];
  /** One line per request a replay had no recording for, leaving out those sent by the agents in `except`. */
  replayMisses(except?: readonly string[]): string[];
  /** Writes the cassette when recording. */
  finish(io: CliIo): Promise<void>;
  /** Removes the interception; always called. */
  close(): Promise<void>;
}

/** A placeholder key for replays: requests never leave the machine. */
const replayKey = 'REDACTED';

/**
 * Builds the clients from the environment. Recording or replay interception is
 * installed first, because exa-js captures fetch when it is imported.
 */
export async function buildServices(config: ServiceConfig, deps: CliDeps): Promise<Session> {
  const env = loadEnvFile(config.cwd, config.env);
  checkModelVariables(env);
  const prices = await loadPriceTable(env);
  // Checked before any recording starts; a replay talks to the recorded servers instead.
  const configuredBaseUrl = config.replay ? undefined : (checkedFlagBaseUrl(config.baseUrl) ?? checkedEnvBaseUrl(env));
  const interception = await startInterception(config, env, deps);
  // Whatever fails from here on must not leave the process's interception active: the MCP
  // server and in-process callers start another session after this one.
  try {
    return await buildSession(config, deps, { env, prices, configuredBaseUrl, interception });
  } catch (error) {
    interception.end();
    throw error;
  }
}

interface Interception {
  record: typeof import('../record/index.js') | null;
  replay: Replay | null;
  recorder: Recorder | null;
  asOf: () => Date;
  recordedUrls: readonly string[];
  /** Stops a replay and discards an unfinished recording; safe to call twice. */
  end(): void;
}

/** Recording or replay interception, installed first because exa-js captures fetch when it is imported. */
async function startInterception(config: ServiceConfig, env: NodeJS.ProcessEnv, deps: CliDeps): Promise<Interception> {
  // The interception layer loads only for a recording or a replay.
  const record = config.replay || config.record ? await import('../record/index.js') : null;
  const interception: Interception = {
    record,
    replay: null,
    recorder: null,
    asOf: deps.now ?? (() => new Date()),
    recordedUrls: [],
    end() {
      interception.replay?.stop();
      interception.recorder?.discard();
      interception.recorder = null;
    },
  };
  if (record && config.replay) {
    // A bad file is a usage error before any interception starts.
    const replay = await record.startReplay(config.replay, { secrets: secretsOf(env) });
    const fixed = new Date(replay.meta.asOf);
    Object.assign(interception, { replay, recordedUrls: replay.urls, asOf: () => fixed });
  } else if (record && config.record) {
    const fixed = interception.asOf();
    interception.asOf = () => fixed;
    interception.recorder = await record.startRecording(
      { autohedgeVersion: packageVersion(), asOf: fixed.toISOString(), argv: config.argv },
      { secrets: secretsOf(env) },
    );
  }
  return interception;
}

interface SessionInputs {
  env: NodeJS.ProcessEnv;
  prices: PriceTable;
  configuredBaseUrl: string | undefined;
  interception: Interception;
}

async function buildSession(config: ServiceConfig, deps: CliDeps, inputs: SessionInputs): Promise<Session> {
  const { env, prices, interception } = inputs;
  const clients = await buildClients(config, deps, inputs);
  const mcpMisses: string[] = [];
  const opened = await openMcp(config, env, interception.replay, interception.recorder, mcpMisses);
  const mcp: McpToolSources | null = opened?.sources ?? null;
  return {
    env,
    asOf: interception.asOf,
    now: deps.now ?? (() => new Date()),
    baseUrl: clients.baseURL,
    replaying: interception.replay !== null,
    promptLayout: interception.replay?.meta.version === 1 ? 'legacy' : 'cacheable',
    model: clients.model,
    pacers: clients.pacers,
    market: clients.market,
    search: clients.search,
    prices,
    mcp,
    secrets: [...secretsOf(env), ...(opened?.secrets ?? [])],
    demo: config.demo === true || interception.replay?.meta.demo === true,
    checkDemoTickers: (tickers, command = 'analyze') =>
      checkDemoTickers(clients.coveredSymbols(interception.recordedUrls), tickers, command),
    coveredTickers: () => clients.coveredSymbols(interception.recordedUrls),
    replayMisses: (except = []) => replayMisses(interception, mcpMisses, except),
    finish: (io) => finishRecording(interception, config, io),
    async close() {
      try {
        await mcp?.close();
      } finally {
        interception.end();
      }
    },
  };
}

interface Clients {
  baseURL: string | undefined;
  model: ChatModel;
  pacers: PacerRegistry | null;
  market: MarketData;
  search: SearchProvider | null;
  /** The symbols recorded URLs hold market data for (those whose chart they recorded). */
  coveredSymbols(urls: readonly string[]): string[];
}

/** The model, market and search clients (each SDK imported only now), or the ones a test injected. */
async function buildClients(config: ServiceConfig, deps: CliDeps, inputs: SessionInputs): Promise<Clients> {
  const { env, interception } = inputs;
  const { replay, recordedUrls } = interception;
  // A replay talks to whatever servers were recorded (api.openai.com, or a local one).
  const baseURL = replay ? firstDefined(recordedUrls, chatBaseUrlOf) : inputs.configuredBaseUrl;
  const apiKey = replay ? replayKey : env.OPENAI_API_KEY?.trim() || undefined;
  if (config.needsModel && !deps.model && !apiKey && !baseURL) {
    throw new ConfigError(
      'OPENAI_API_KEY is not set: export it (or put it in .env), or point --base-url / OPENAI_BASE_URL at an OpenAI-compatible server; to try autohedge with no key, run `autohedge analyze ACME --demo`',
    );
  }
  const { createOpenAIModel } = await import('../llm/openai-model.js');
  const marketModule = await import('../market/index.js');
  const intercepted = Boolean(replay || interception.recorder);
  // Retries stay on under replay: the cassette holds every exchange, a 429 or 5xx that was
  // retried included, so the replay has to retry the way the recording did.
  const { structuredModeFromEnv } = await import('../llm/structured-mode.js');
  // Validated even when a model is injected, so a typo is exit 2 whatever runs.
  const structuredMode = structuredModeFromEnv(env);
  // A replay must not wait on the limits it recorded: its requests are answered from the file.
  const pacers = replay ? null : (config.pacers ?? (await import('../llm/pacer.js')).processPacers(config.ceilings));
  // A local engine is told by its own signs; a replay asks only when its recording did.
  const { engineProbeUrls } = await import('../llm/engine.js');
  const detectEngine =
    baseURL !== undefined && (!replay || engineProbeUrls(baseURL).some((url) => recordedUrls.includes(url)));
  const model =
    deps.model ??
    createOpenAIModel({
      apiKey,
      baseURL,
      structuredMode,
      detectEngine,
      pacers,
      warn: (message) => config.warn(message),
    });
  // A vendor's warnings quote what the vendor sent.
  const logger = { debug: () => {}, warn: (message: string) => config.warn(sanitizeText(message)) };
  const synthetic = config.demo === true || replay?.meta.demo === true || deps.syntheticMarket === true;
  // A replay retries what the recording retried, without waiting; a miss is final anyway.
  const sourceOptions = { env, logger, retryDelayMs: replay ? 0 : undefined };
  const sources = synthetic ? marketModule.demoSources(sourceOptions) : marketModule.configuredSources(sourceOptions);
  const base =
    deps.market ??
    marketModule.createMarketData({
      sources,
      // A cassette must hold every exchange, so recording and replay never use the cache.
      cache: intercepted ? null : marketModule.createSnapshotCache({ dir: join(autohedgeHome(env), 'cache'), logger }),
      logger,
    });
  const market =
    deps.market ??
    (config.fundamentals === false ? base : await withFundamentalsOf(base, config, inputs, env, intercepted));
  const search =
    deps.search !== undefined
      ? deps.search
      : await buildSearch(config.search ?? 'exa', { env, replay: replay !== null, recordedUrls, apiKey, baseURL });
  const coveredSymbols = (urls: readonly string[]) => [
    ...new Set(urls.flatMap((url) => sources.flatMap((source) => source.symbolOfUrl?.(url) ?? []).slice(0, 1))),
  ];
  return { baseURL, model, pacers, market, search, coveredSymbols };
}

/** The snapshot service with fundamentals as filed (SEC EDGAR, or the demo's synthetic ones) attached, where they apply. */
async function withFundamentalsOf(
  market: MarketData,
  config: ServiceConfig,
  inputs: SessionInputs,
  env: NodeJS.ProcessEnv,
  intercepted: boolean,
): Promise<MarketData> {
  const { replay, recordedUrls, asOf } = inputs.interception;
  const { withFundamentals } = await import('../market/fundamentals-attach.js');
  if (showsDemoFundamentals(config, env)) {
    const { demoFundamentalsSource } = await import('../market/fundamentals-demo.js');
    // No split events: the demo's cassette holds no such request, and ACME never split.
    const { splits: _splits, ...withoutSplits } = market;
    return withFundamentals(withoutSplits, { source: demoFundamentalsSource, today: asOf });
  }
  const { edgarJoin, sayingNotConfigured } = await import('../market/sources/edgar/setup.js');
  const edgar = edgarJoin({
    env,
    replay: replay !== null,
    recordedUrls,
    cacheDir: intercepted ? null : join(autohedgeHome(env), 'cache', 'edgar'),
    today: asOf,
  });
  if (edgar === 'not-configured') return sayingNotConfigured(market, (message) => config.warn(message));
  return edgar ? withFundamentals(market, edgar) : market;
}

/**
 * The demo's synthetic fundamentals: `--demo`, a replay of the shipped demo cassette, or the
 * demo generator recording it (scripts/demo/generate.mjs sets AUTOHEDGE_DEMO_RECORDING=1),
 * so the recorded prompts and the replayed ones are the same.
 */
function showsDemoFundamentals(config: ServiceConfig, env: NodeJS.ProcessEnv): boolean {
  if (config.demo === true || env.AUTOHEDGE_DEMO_RECORDING === '1') return true;
  return config.replay !== undefined && resolve(config.cwd, config.replay) === demoCassettePath();
}

/** The demo cassette holds these symbols only: another is a usage error saying what to run instead. */
function checkDemoTickers(covered: string[], tickers: string[], command: DemoCaller): void {
  const uncovered = tickers.filter((ticker) => !covered.includes(ticker)).join(', ');
  if (uncovered === '') return;
  const example = covered[0] ?? 'ACME';
  // An assistant cannot run a command: a demo server names what it can answer, no CLI flags.
  if (command === 'mcp')
    throw new UsageError(
      `this demo server covers ${covered.join(', ')} only (synthetic data); ask about ${example}: ${uncovered} needs a server on real data`,
    );
  // `market` and a book need prices, not a model: their way to real data is simply dropping --demo.
  const instead = {
    market: `drop --demo for the real market data of ${uncovered}`,
    portfolio: `drop --demo to price ${uncovered} from the market (no model key needed)`,
    analyze: `set OPENAI_API_KEY to analyse ${uncovered}`,
    watch: `set OPENAI_API_KEY to watch ${uncovered}`,
    probe: `set OPENAI_API_KEY to probe ${uncovered}`,
    enqueue: `drop --demo to queue ${uncovered} for workers with a model key`,
  }[command];
  throw new UsageError(
    `the demo covers ${covered.join(', ')} only (synthetic data); run \`autohedge ${command} ${example} --demo\`, or ${instead}`,
  );
}

/** Who asks the demo for tickers: its refusal says what that caller can do instead. */
export type DemoCaller = 'analyze' | 'market' | 'portfolio' | 'mcp' | 'watch' | 'probe' | 'enqueue';

/** One line per request a replay had no recording for (leaving out those of the agents in `except`), then MCP's. */
function replayMisses(interception: Interception, mcpMisses: readonly string[], except: readonly string[]): string[] {
  const { record, replay } = interception;
  return [
    ...(record && replay
      ? replay.unmatched
          .filter((miss) => miss.agent === null || !except.includes(miss.agent))
          .map((miss) => new record.ReplayMissError(miss, replay.path).message)
      : []),
    ...new Set(mcpMisses),
  ];
}

/** Writes the cassette of a recording, once. */
async function finishRecording(interception: Interception, config: ServiceConfig, io: CliIo): Promise<void> {
  if (interception.recorder && config.record) {
    await interception.recorder.stop(config.record);
    io.stderr(`autohedge: recorded the run's HTTP exchanges to ${config.record}\n`);
    interception.recorder = null;
  }
}

/** AUTOHEDGE_MODEL and AUTOHEDGE_MODEL_<ID>, held to the rules of --model. */
function checkModelVariables(env: NodeJS.ProcessEnv): void {
  for (const [name, value] of Object.entries(env)) {
    if (/^AUTOHEDGE_MODEL(?:_[A-Z]+)?$/.test(name) && value !== undefined && unsafeInName.test(value.trim())) {
      throw new ConfigError(`${name} must not contain control characters or line breaks`);
    }
  }
}

/** --base-url, held to baseUrlProblem's rules: a usage error. */
export function checkedFlagBaseUrl(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const problem = baseUrlProblem(value, '--base-url');
  if (problem) throw new UsageError(problem);
  return value;
}

/** OPENAI_BASE_URL, held to the rules of --base-url (src/cli/options.ts). */
function checkedEnvBaseUrl(env: NodeJS.ProcessEnv): string | undefined {
  const value = env.OPENAI_BASE_URL?.trim();
  if (!value) return undefined;
  const problem = baseUrlProblem(value, 'OPENAI_BASE_URL');
  if (problem) throw new ConfigError(problem);
  return value;
}

/** The provider behind the search tool, for the choice made with `--search` / AUTOHEDGE_SEARCH. */
export async function buildSearch(
  choice: SearchChoice,
  context: {
    env: NodeJS.ProcessEnv;
    replay: boolean;
    recordedUrls: readonly string[];
    apiKey: string | undefined;
    baseURL: string | undefined;
  },
): Promise<SearchProvider | null> {
  if (choice === 'none') return null;
  if (choice === 'openai') {
    // The same server and key as the chat model: under replay, the recorded one.
    const { createOpenAISearchClient } = await import('../llm/openai-search.js');
    const { createOpenAISearchProvider } = await import('../search/openai.js');
    const model = context.env.AUTOHEDGE_SEARCH_MODEL?.trim() || undefined;
    return createOpenAISearchProvider({
      client: createOpenAISearchClient({ apiKey: context.apiKey, baseURL: context.baseURL }),
      model,
    });
  }
  const { createExaProvider, exaBaseUrlOf } = await import('../search/exa.js');
  // A replay searches only if the recording did: a run recorded without EXA_API_KEY told the
  // sentiment desk that exa_search is not configured, and its replay must say the same.
  const exaBase = context.replay
    ? firstDefined(context.recordedUrls, exaBaseUrlOf)
    : context.env.EXA_BASE_URL?.trim() || undefined;
  const exaKey = context.replay ? (exaBase ? replayKey : undefined) : context.env.EXA_API_KEY?.trim() || undefined;
  return createExaProvider({ apiKey: exaKey, baseURL: exaBase });
}

/**
 * The MCP servers of --mcp-config (or AUTOHEDGE_MCP_CONFIG), connected once for the
 * command; under replay answered from the cassette with nothing spawned. Loads the
 * MCP modules only when a config is given.
 */
async function openMcp(
  config: ServiceConfig,
  env: NodeJS.ProcessEnv,
  replay: Replay | null,
  recorder: Recorder | null,
  misses: string[],
): Promise<{ sources: McpToolSources; secrets: string[] } | null> {
  // Only a file named here is ever read: a stray .mcp.json in the working directory does nothing.
  const path = config.mcpConfig ?? (env.AUTOHEDGE_MCP_CONFIG?.trim() || undefined);
  if (path === undefined) return null;
  const { loadMcpConfig, configSecrets } = await import('../mcp/config.js');
  const { openMcpTools } = await import('../mcp/index.js');
  const { builtInToolNames } = await import('../tools/catalogue.js');
  const mcpConfig = await loadMcpConfig(path, config.cwd, env);
  if (config.demo) {
    // A bad file is reported as such first; a good one would change the desks' requests,
    // which the demo cassette does not hold.
    const named = config.mcpConfig !== undefined ? '--mcp-config' : 'AUTOHEDGE_MCP_CONFIG';
    throw new UsageError(
      `the demo is recorded without MCP tools: ${named} cannot be combined with --demo (record your own cassette with --record)`,
    );
  }
  const sources = await openMcpTools(mcpConfig, {
    mode: replay
      ? { kind: 'replay', section: replay.mcp, cassette: replay.path, onMiss: (line) => misses.push(line) }
      : recorder
        ? { kind: 'record' }
        : { kind: 'live' },
    builtInNames: builtInToolNames,
    warn: config.warn,
  });
  recorder?.attachMcp(() => sources.section());
  return { sources, secrets: configSecrets(mcpConfig) };
}

/** The first thing an adapter reads out of the recorded URLs (its server's base URL). */
function firstDefined<T>(urls: readonly string[], read: (url: string) => T | undefined): T | undefined {
  for (const url of urls) {
    const value = read(url);
    if (value !== undefined) return value;
  }
  return undefined;
}

export { secretsOf };
