import { randomBytes } from 'node:crypto';
import { agentDefinitions, type AgentDefinition } from '../../agents/index.js';
import type { AgentContext, AgentFailure, AgentReport } from '../agent/types.js';
import { ConfigError, DataError } from '../errors.js';
import type { EventSink, RunEvent } from '../events.js';
import { defaultPriceTable, type PriceTable } from '../llm/prices.js';
import type { ChatModel, ServiceTier } from '../llm/types.js';
import type { SharedPrefix } from '../agent/layout.js';
import { cacheKeyOf, sharedBlockOf, sharedPrefixes, type PromptLayout } from './shared-prefix.js';
import { decisionSchema } from '../result/schemas.js';
import type { MarketData, MarketSnapshot } from '../market/types.js';
import type { SearchProvider } from '../search/types.js';
import type { Tool } from '../tools/types.js';
import { withBudget, type SpendingCap } from './budget.js';
import {
  deskDefinitions,
  failureSummary,
  orderReports,
  reportWarnings,
  runDesk,
  standingBrief,
  type Brief,
} from './desks.js';
import { blindDateLabel, blindDecideNote, blindView, type BlindView } from './blind-run.js';
import { decide } from './decide-phase.js';
import { announceDirector, createDirector } from './director.js';
import { attachClaims, withClaimFindings } from './claims.js';
import { contaminationOf } from './contamination.js';
import { resolveLimits, type GuardrailLimits } from '../guardrails/guardrails.js';
import { resolveModel } from './models.js';
import { historicalToolsWarning } from './point-in-time.js';
import { runFailure } from './run-failure.js';
import { runStatus, type RunFacts } from './run-status.js';
import { outsideToolsOf, setUpSearch, switchedOffWarnings, type RunSearch } from './search-setup.js';
import { outsideTools } from '../tools/outside-tools.js';
import { defaultMinAgreement } from './stability.js';
import { planSchemaOf, type SpecSource } from './specs.js';
import type { AnalysisResult, Plan, RunStage, WorkerId } from '../result/types.js';
import { UsageTracker } from './usage.js';

export interface AnalyzeOptions {
  /** The run's clock. Default: now. */
  asOf?: Date;
  /**
   * A run as of a past session's close (`--as-of`; asOf is that close): the market data
   * stops there and drops today-only statistics, tools are told (ToolContext.historical),
   * and the result is marked `asOfMode: 'historical'` with a contamination label.
   */
  historical?: boolean;
  /** Run only these workers on the snapshot, with no Director (`--agent`). */
  agents?: WorkerId[];
  /** One model for every agent (`--model`). */
  model?: string;
  /** Read for AUTOHEDGE_MODEL and AUTOHEDGE_MODEL_<ID>. Default: none. */
  env?: NodeJS.ProcessEnv;
  /** The request's `limits` (--max-position, --max-risk, --min-reward-risk): overrides of the guardrails' defaults. */
  limits?: Partial<GuardrailLimits>;
  signal?: AbortSignal;
  runId?: string;
  refresh?: boolean;
  /** Marks the result as demo data (the shipped cassette). */
  demo?: boolean;
  /** Overrides every agent's own time limit. */
  agentTimeoutMs?: number;
  /** Overrides the time limit of one tool call (default 30 s). */
  toolTimeoutMs?: number;
  /**
   * `--blind`: no request to a model carries the company's identity or the calendar — the
   * snapshot is blinded (blindSnapshot), search and extra (MCP) tools are off, and the
   * decision's levels are mapped back to real prices before the guardrails (docs/blind.md).
   */
  blind?: boolean;
  /** `--samples k`: the Director's decision step k times on the same reports (default 1). */
  samples?: number;
  /** `--min-agreement`: below this share of samples on the modal action the run is flagged (default 0.6). */
  minAgreement?: number;
  /**
   * `cacheable` (default): every request of the ticker starts with the shared block;
   * `legacy`: the layout a version 1 cassette recorded (src/pipeline/shared-prefix.ts).
   */
  promptLayout?: PromptLayout;
  /** `--service-tier flex`: every model call asks for flex processing. */
  serviceTier?: ServiceTier;
}

export interface AnalyzeDeps {
  model: ChatModel;
  market: MarketData;
  /**
   * Backs the search tool (exa_search); a provider without a key answers the model with a
   * clear error. `null` (`--search none`): Sentiment runs with no tool, and says so.
   */
  search: SearchProvider | null;
  events?: EventSink;
  prices?: PriceTable;
  /**
   * The --max-cost cap of the scope this analysis belongs to (one command, a universe,
   * an MCP call, a job: src/run/cap.ts builds it), shared by its model calls and
   * searches. None: no cap.
   */
  cap?: SpendingCap | null;
  /** Extra tools per agent (MCP servers, a caller's own), appended to the tools its definition names. */
  agentTools?: Partial<Record<string, Tool[]>>;
  /**
   * The roster (default: agents/): a test or a library caller may change tools and limits, or
   * add a desk (its plan brief, report and place in the decision follow; docs/agents.md).
   */
  agents?: readonly AgentDefinition[];
}

const noMarketBlock = (ticker: string) =>
  `MARKET DATA — ${ticker}\nMarket data is not available for this run — do not estimate any price, level or statistic.`;

/** One analysis in progress: its inputs, its context for agents, and the result it fills in. */
interface Run {
  symbol: string;
  signal: AbortSignal;
  events: EventSink;
  warn: (message: string) => void;
  roster: readonly AgentDefinition[];
  specs: SpecSource;
  context: AgentContext;
  limits: GuardrailLimits;
  marketBlock: string;
  layout: PromptLayout;
  /** Each agent's shared prefix, once the market block is known; none in the legacy layout. */
  sharedFor: (agent: string) => SharedPrefix | undefined;
  result: AnalysisResult;
  /** The run's search provider (capped, metered) and the tool it backs. */
  search: RunSearch;
  /** The failure that stopped the Director, and in which phase, for runStatus and runFailure. */
  directorFailure: { stage: 'plan' | 'decision'; failure: AgentFailure } | null;
  /** The --max-cost cap that stopped the Director's samples before all asked for were made. */
  samplesCut?: AgentFailure;
  /** The phase under way (what an interruption cuts short). */
  stage: RunStage;
  /** Why the market data is missing, when it is. */
  marketProblem: string | null;
  /** The name the prompts use: the ticker, or the alias of a blind run. */
  promptTicker: string;
  /** Set in a blind run once the snapshot phase is over. */
  blind: BlindView | null;
  samples: number;
  minAgreement: number;
}

/**
 * One analysis in five phases: snapshot, plan (Sentiment already running), desks,
 * decide (with the guardrails' review pass), then the status from the facts. Never
 * throws for a model or desk failure — those are in the result's status, reports and
 * warnings; it throws only for bad input (unknown ticker) or programmer errors.
 */
export async function analyze(ticker: string, options: AnalyzeOptions, deps: AnalyzeDeps): Promise<AnalysisResult> {
  const started = Date.now();
  const prices = deps.prices ?? defaultPriceTable;
  const usage = new UsageTracker();
  const run = openRun(ticker, options, deps, usage, started);
  // The SDKs load while the market data is fetched, not after it.
  deps.model.prepare?.();
  run.search.provider?.prepare?.();
  for (const warning of switchedOffWarnings(run.search, runningAgents(run, options.agents))) run.warn(warning);

  announceHistorical(run, run.specs.agentTools);
  const mcpNames = Object.values(deps.agentTools ?? {}).flatMap((tools) => (tools ?? []).map((tool) => tool.name));
  if (!run.specs.agentTools && mcpNames.length > 0) run.warn(outsideTools.offWarning(mcpNames));
  const snapshot = await snapshotPhase(run, deps.market, options.refresh);
  // Demo data is labelled at its source in the result; the block the agents read is unchanged.
  run.result.market = snapshot && options.demo ? { ...snapshot, source: 'demo' } : snapshot;
  run.marketBlock = run.result.market?.text ?? noMarketBlock(run.symbol);
  if (options.blind) blindPhase(run);
  shareBlock(run, options);
  if (!run.signal.aborted) {
    if (run.result.mode === 'agents') await selectedDesksPhase(run, options.agents ?? []);
    else await fullPhases(run);
  }
  return closeRun(run, usage, prices, started);
}

/** The cacheable layout: what every agent of this run shares, from the market block the prompts see. */
function shareBlock(run: Run, options: AnalyzeOptions): void {
  if (run.layout === 'legacy') return;
  const block = sharedBlockOf(run.marketBlock, run.roster);
  const agents =
    run.result.mode === 'agents' ? [...(options.agents ?? [])] : run.roster.map((definition) => definition.id);
  const model = run.context.model;
  const capabilities = model.cacheCapabilities?.bind(model);
  run.sharedFor = sharedPrefixes({
    agents,
    specs: run.specs,
    block,
    cacheKey: cacheKeyOf(run.symbol, run.specs.asOf, options.blind ? block : null),
    outputs:
      run.result.mode === 'full'
        ? [
            { name: 'plan', schema: planSchemaOf(run.roster) },
            { name: 'decision', schema: decisionSchema },
          ]
        : [],
    ...(capabilities ? { capabilities } : {}),
  });
}

/** The agents this run runs: the whole roster, or those `--agent` chose. */
function runningAgents(run: Run, selected: readonly string[] | undefined): readonly AgentDefinition[] {
  if (run.result.mode !== 'agents') return run.roster;
  return run.roster.filter((definition) => (selected ?? []).includes(definition.id));
}

function openRun(
  ticker: string,
  options: AnalyzeOptions,
  deps: AnalyzeDeps,
  usage: UsageTracker,
  started: number,
): Run {
  const asOf = options.asOf ?? new Date();
  const symbol = ticker.trim().toUpperCase();
  const warnings: string[] = [];
  const events: EventSink = (event: RunEvent) => {
    usage.record(event);
    if (event.type === 'warning') warnings.push(event.message);
    deps.events?.(event);
  };
  const signal = options.signal ?? new AbortController().signal;
  const prices = deps.prices ?? defaultPriceTable;
  // One cap for the model calls and the searches, shared with the rest of its scope.
  const cap = deps.cap ?? null;
  const model = cap ? withBudget(deps.model, cap, prices) : deps.model;
  const search = setUpSearch(deps.search, { cap, prices, events }, options);
  const agentTools = outsideToolsOf(search, deps.agentTools);
  const result: AnalysisResult = {
    runId: options.runId ?? makeRunId(symbol, new Date(started)),
    ticker: symbol,
    asOf: asOf.toISOString(),
    status: 'ok',
    mode: options.agents && options.agents.length > 0 ? 'agents' : 'full',
    market: null,
    plan: null,
    reports: [],
    decision: null,
    guardrails: [],
    usage: usage.summary(prices),
    warnings,
    demo: options.demo ?? false,
    startedAt: new Date(started).toISOString(),
    durationMs: 0,
    error: null,
    search: search.backing,
  };
  const specs: SpecSource = {
    roster: deps.agents ?? agentDefinitions,
    toolsByName: search.toolsByName,
    disabledTools: search.disabledTools,
    ...(agentTools ? { agentTools } : {}),
    asOf,
    ...(options.blind ? { dateLabel: blindDateLabel } : {}),
    ...(options.model !== undefined ? { model: options.model } : {}),
    env: options.env ?? {},
    ...(options.agentTimeoutMs !== undefined ? { agentTimeoutMs: options.agentTimeoutMs } : {}),
    ...(options.toolTimeoutMs !== undefined ? { toolTimeoutMs: options.toolTimeoutMs } : {}),
  };
  Object.assign(result, asOfLabels(result, options, specs));
  return {
    symbol,
    signal,
    events,
    warn: (message) => events({ type: 'warning', message }),
    roster: specs.roster,
    specs,
    context: agentContext(model, asOf, options, events, signal),
    // Resolved once, before any model call: a bad limit is the caller's error, not a silent rule switched off.
    limits: resolveLimits(options.limits ?? {}),
    marketBlock: noMarketBlock(symbol),
    layout: options.promptLayout ?? 'cacheable',
    sharedFor: () => undefined,
    result,
    search,
    directorFailure: null,
    stage: 'market',
    marketProblem: null,
    promptTicker: options.blind ? blindView(null).alias : symbol,
    blind: null,
    ...samplingOf(options),
  };
}

/** What every agent of the run is handed: the model, the clock, the events, the signal, the service tier. */
function agentContext(
  model: ChatModel,
  asOf: Date,
  options: AnalyzeOptions,
  events: EventSink,
  signal: AbortSignal,
): AgentContext {
  const tier = options.serviceTier ? { serviceTier: options.serviceTier } : {};
  return { model, asOf, historical: options.historical === true, events, signal, ...tier };
}

/** --samples and --min-agreement, checked: a bad value is the caller's error, before any call. */
function samplingOf(options: AnalyzeOptions): Pick<Run, 'samples' | 'minAgreement'> {
  const samples = options.samples ?? 1;
  const minAgreement = options.minAgreement ?? defaultMinAgreement;
  if (!Number.isInteger(samples) || samples < 1)
    throw new ConfigError(`samples must be a whole number of at least 1 (got ${samples})`);
  if (!(minAgreement >= 0 && minAgreement <= 1))
    throw new ConfigError(`minAgreement must be between 0 and 1 (got ${minAgreement})`);
  return { samples, minAgreement };
}

/** --blind: the prompts see the blind snapshot (or no market under the alias); the result records the alias and the scale. */
function blindPhase(run: Run): void {
  const view = blindView(run.result.market);
  run.blind = view;
  run.marketBlock = view.snapshot?.text ?? noMarketBlock(view.alias);
  run.result.blind = { alias: view.alias, scale: view.unblind.scale };
}

/** asOfMode, and whether the models used may know what came after asOf (every agent that runs counts). */
function asOfLabels(
  result: AnalysisResult,
  options: AnalyzeOptions,
  specs: SpecSource,
): Pick<AnalysisResult, 'asOfMode' | 'contamination'> {
  const historical = options.historical === true;
  const running =
    result.mode === 'agents'
      ? specs.roster.filter((definition) => options.agents?.includes(definition.id as WorkerId))
      : specs.roster;
  const models = running.map((definition) => resolveModel(definition, options.model, specs.env));
  return {
    asOfMode: historical ? 'historical' : 'live',
    contamination: contaminationOf(result.asOf.slice(0, 10), models, historical),
  };
}

/** A historical run says what may still reach past its day: the model's memory, tools from outside. */
function announceHistorical(run: Run, agentTools: AnalyzeDeps['agentTools']): void {
  const { contamination } = run.result;
  if (contamination?.label === 'contaminated') run.warn(`contaminated: ${contamination.reason}`);
  if (contamination?.label === 'unknown') run.warn(`contamination unknown: ${contamination.reason}`);
  if (run.context.historical !== true) return;
  const external = Object.values(agentTools ?? {}).flatMap((tools) => (tools ?? []).map((tool) => tool.name));
  const warning = historicalToolsWarning(external, run.result.asOf.slice(0, 10));
  if (warning !== null) run.warn(warning);
}

/**
 * 1. Market data. An unknown ticker is the user's error and ends here; an
 * unreachable market vendor leaves the desks working without numbers, and says so.
 */
async function snapshotPhase(
  run: Run,
  market: MarketData,
  refresh: boolean | undefined,
): Promise<MarketSnapshot | null> {
  try {
    const snapshot = await market.snapshot(run.symbol, {
      asOf: run.specs.asOf,
      signal: run.signal,
      refresh,
      historical: run.context.historical === true,
    });
    for (const warning of snapshot.warnings) run.warn(`market data: ${warning}`);
    return snapshot;
  } catch (error) {
    if (run.signal.aborted) return null;
    if (error instanceof DataError && error.kind !== 'unknown-ticker') {
      run.marketProblem = `market data missing: ${error.message}`;
      run.warn(run.marketProblem);
      return null;
    }
    throw error;
  }
}

/** `--agent`: the chosen desks on their standing briefs, concurrently, with no Director. */
async function selectedDesksPhase(run: Run, selected: readonly WorkerId[]): Promise<void> {
  run.stage = 'desks';
  const reports = await Promise.all(selected.map((id) => startDesk(run, id, standingBriefFor(run, id))));
  run.result.reports = reports;
  for (const warning of reportWarnings(reports)) run.warn(warning);
}

/** 2–4. Plan (desks that need no plan already running), the other desks, the decision. */
async function fullPhases(run: Run): Promise<void> {
  const shared = run.sharedFor('director');
  const director = createDirector({
    ticker: run.promptTicker,
    taskMarket: taskMarketOf(run),
    specs: run.specs,
    limits: run.limits,
    context: shared ? { ...run.context, shared } : run.context,
    ...(run.blind ? { decideNote: blindDecideNote } : {}),
  });
  run.stage = 'plan';
  const end = announceDirector(run.events, director.model);
  const planning = director.plan();
  // The plan has first claim on --max-cost: the early desks start once its call is made.
  // Left to the event loop, which of them a tight cap refused differed between Node versions.
  await planning.sent;
  const early = earlyDesks(run);
  const plan = await planPhase(run, planning.report, early);
  if (!plan) {
    end({ ok: false, error: run.result.error });
    return;
  }
  run.stage = 'desks';
  run.result.reports = await desksPhase(run, plan, early.reports);
  if (run.signal.aborted) return end({ ok: false, error: 'interrupted' });
  const available = run.result.reports.filter((report) => report.status === 'ok');
  if (available.length === 0) {
    run.result.error = 'every desk failed; no decision was made';
    return end({ ok: false, error: 'every desk failed' });
  }
  run.stage = 'decision';
  await decidePhase(run, director, plan);
  end({ ok: run.result.decision !== null, error: run.directorFailure === null ? null : run.result.error });
}

/**
 * Desks that need nothing from the plan start with the snapshot, on their standing
 * brief, alongside the Director; the plan's brief for them is kept for the reader.
 * They stop when the plan fails.
 */
function earlyDesks(run: Run): { reports: Array<Promise<AgentReport>>; stop: (reason: Error) => void } {
  const controller = new AbortController();
  const signal = AbortSignal.any([run.signal, controller.signal]);
  const early = deskDefinitions(run.roster).filter((definition) => definition.startsWithSnapshot);
  return {
    reports: early.map((definition) =>
      startDesk(run, definition.id, standingBrief(definition, run.promptTicker), signal),
    ),
    stop: (reason) => controller.abort(reason),
  };
}

/** 2. The Director's plan. Null when it failed; the run's error and the Director's failure then say why. */
async function planPhase(
  run: Run,
  planning: Promise<AgentReport<Plan>>,
  early: ReturnType<typeof earlyDesks>,
): Promise<Plan | null> {
  const report = await planning;
  if (report.output !== undefined && report.status === 'ok') {
    run.result.plan = report.output;
    return report.output;
  }
  early.stop(new Error('the Director could not plan'));
  run.result.reports = await Promise.all(early.reports);
  const failure = report.failure ?? { kind: 'model' as const, message: 'no plan' };
  run.directorFailure = { stage: 'plan', failure };
  run.result.error = `Director plan failed: ${failure.message}`;
  if (failure.kind === 'budget') run.warn(failure.message);
  return null;
}

/** 3. The remaining desks on the Director's briefs, concurrently with those already running. */
async function desksPhase(run: Run, plan: Plan, running: Array<Promise<AgentReport>>): Promise<AgentReport[]> {
  const early = new Set(
    deskDefinitions(run.roster)
      .filter((definition) => definition.startsWithSnapshot)
      .map((definition) => definition.id),
  );
  const briefed = deskDefinitions(run.roster)
    .filter((definition) => !early.has(definition.id))
    .map((definition) => {
      // The plan's schema is the roster's, so every desk has its brief; a standing one is only a safety net.
      const text = plan.briefs[definition.id];
      const brief: Brief =
        text === undefined ? standingBrief(definition, run.promptTicker) : { text, from: 'director' };
      return startDesk(run, definition.id, brief);
    });
  const reports = orderReports(await Promise.all([...briefed, ...running]), run.roster);
  if (!run.signal.aborted) for (const warning of reportWarnings(reports)) run.warn(warning);
  return reports;
}

/**
 * 4–5. The decision from the reports that exist, checked by the guardrails; while
 * the Director has review passes and a decision breaks a rule, it revises. A review
 * that fails (a cassette without it, the cap, the server) leaves the decision before it standing.
 */
async function decidePhase(run: Run, director: ReturnType<typeof createDirector>, plan: Plan): Promise<void> {
  const outcome = await decide({
    director,
    plan,
    reports: run.result.reports,
    market: run.result.market,
    blind: run.blind,
    limits: run.limits,
    samples: run.samples,
    minAgreement: run.minAgreement,
    signal: run.signal,
    wordFindings: (decision, market) => withClaimFindings(() => [], { ...run.result, market })(decision),
  });
  for (const warning of outcome.warnings) if (!run.signal.aborted) run.warn(warning);
  if (outcome.decision === null) {
    const failure = outcome.failure ?? { kind: 'model' as const, message: 'no decision' };
    run.directorFailure = { stage: 'decision', failure };
    run.result.error = `Director decision failed: ${failure.message}`;
    // No decision is ever invented: the desks' reports stand on their own.
    if (!run.signal.aborted) run.warn(run.result.error);
    return;
  }
  run.result.decision = outcome.decision;
  run.result.guardrails = outcome.guardrails;
  run.result.decisionHistory = outcome.history;
  if (outcome.stability) run.result.stability = outcome.stability;
  if (outcome.samples) run.result.samples = outcome.samples;
  if (outcome.capCut) run.samplesCut = outcome.capCut;
  if (outcome.reviewFailure && !run.signal.aborted) {
    run.result.reviewFailure = outcome.reviewFailure;
    run.warn(reviewFailureWarning(outcome.reviewFailure));
  }
}

function reviewFailureWarning(failure: NonNullable<AgentReport['failure']>): string {
  if (failure.kind === 'replay-miss') {
    return "the Director's review could not be replayed: the cassette holds no review exchange, so the decision before it stands";
  }
  return `the Director's review failed (${failure.message}); the decision before it stands`;
}

function standingBriefFor(run: Run, id: WorkerId): Brief {
  const definition = deskDefinitions(run.roster).find((candidate) => candidate.id === id);
  if (!definition) throw new Error(`no desk definition for '${id}'`);
  return standingBrief(definition, run.promptTicker);
}

function startDesk(run: Run, id: string, brief: Brief, signal: AbortSignal = run.signal): Promise<AgentReport> {
  const shared = run.sharedFor(id);
  return runDesk(id, brief, {
    ticker: run.promptTicker,
    taskMarket: taskMarketOf(run),
    specs: run.specs,
    context: { ...run.context, signal, ...(shared ? { shared } : {}) },
  });
}

/** The market block in the tasks: only in the legacy layout (the cacheable one has it in the shared block). */
function taskMarketOf(run: Run): string | null {
  return run.layout === 'legacy' ? run.marketBlock : null;
}

/** The status and the typed failure from the run's facts, in one place; the error line for a failed or interrupted run. */
function closeRun(run: Run, usage: UsageTracker, prices: PriceTable, started: number): AnalysisResult {
  const { result } = run;
  attachRunClaims(run);
  const facts: RunFacts = {
    interrupted: run.signal.aborted,
    marketMissing: result.market === null,
    desks: result.reports.map((report) => (report.status === 'ok' ? null : (report.failure?.kind ?? 'model'))),
    director: run.directorFailure?.failure.kind ?? null,
    findings: result.guardrails.map((finding) => finding.severity),
    samplesCut: run.samplesCut !== undefined,
  };
  result.status = runStatus(facts);
  if (result.status === 'interrupted') result.error = 'interrupted';
  else if (result.status === 'ok' || result.status === 'flagged') result.error = null;
  else if (result.error === null && result.mode === 'agents' && result.status === 'failed')
    result.error = failureSummary(result.reports);
  const failure = runFailure({
    status: result.status,
    stage: run.stage,
    market: result.market === null ? (run.marketProblem ?? 'no market data') : null,
    director: run.directorFailure,
    desks: result.reports.flatMap((report) =>
      report.status === 'ok' ? [] : [report.failure ?? { kind: 'model' as const, message: report.error ?? 'failed' }],
    ),
    review: result.reviewFailure ?? null,
    samplesCut: run.samplesCut ?? null,
    error: result.error,
  });
  if (failure) result.failure = failure;
  result.usage = usage.summary(prices);
  result.durationMs = Date.now() - started;
  return result;
}

function makeRunId(symbol: string, at: Date): string {
  const stamp = at
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  return `${stamp}-${symbol.replace(/[^A-Z0-9]/g, '_')}-${randomBytes(3).toString('hex')}`;
}

/**
 * The run's claims against what its texts were written from: in a blind run the blind
 * snapshot and the decision in blind units (the prose quotes blind prices), so a blind
 * figure is not read as a contradiction of the real one.
 */
function attachRunClaims(run: Run): void {
  const { result, blind } = run;
  if (!blind?.snapshot) return attachClaims(result);
  const scale = blind.unblind.scale;
  const inBlindUnits = (value: number | null) => (value === null ? null : value / scale);
  const decision = result.decision && {
    ...result.decision,
    entry: inBlindUnits(result.decision.entry),
    stopLoss: inBlindUnits(result.decision.stopLoss),
    takeProfit: inBlindUnits(result.decision.takeProfit),
  };
  const seen: AnalysisResult = { ...result, market: blind.snapshot, decision, guardrails: [] };
  attachClaims(seen);
  result.claims = seen.claims;
  result.claimsSummary = seen.claimsSummary;
  if (result.mode === 'agents') result.guardrails = [...result.guardrails, ...seen.guardrails];
}
