import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import { agentDefinitions } from '../../agents/index.js';
import { runAgent } from '../agent/run-agent.js';
import type { AgentReport, AgentSpec } from '../agent/types.js';
import { formatSeconds, isoDay } from '../clock.js';
import { BudgetExceededError, DataError, ModelError, errorMessage } from '../errors.js';
import type { EventSink, RunEvent } from '../events.js';
import { defaultPriceTable, type PriceTable } from '../llm/prices.js';
import type { ChatModel } from '../llm/types.js';
import type { MarketData } from '../market/types.js';
import { createExaSearchTool, type SearchProvider } from '../tools/exa-search.js';
import type { Tool } from '../tools/types.js';
import { withBudget } from './budget.js';
import { checkDecision, defaultLimits, type GuardrailLimits } from './guardrails.js';
import { agentDefinition, resolveModels } from './models.js';
import { fillTemplate, loadPrompt } from './prompts.js';
import { decisionSchema, planSchema } from './schemas.js';
import { completeStructured } from './structured.js';
import { workerIds, type AgentId, type AnalysisResult, type Decision, type Plan, type RunStatus, type WorkerId } from './types.js';
import { UsageTracker } from './usage.js';

export interface AnalyzeOptions {
  /** The run's clock. Default: now. */
  asOf?: Date;
  /** Run only these workers on the snapshot, with no Director (`--agent`). */
  agents?: WorkerId[];
  /** One model for every agent (`--model`). */
  model?: string;
  /** Read for AUTOHEDGE_MODEL and AUTOHEDGE_MODEL_<ID>. Default: none. */
  env?: NodeJS.ProcessEnv;
  maxPositionPct?: number;
  /** Overrides of the guardrails' limits (see GuardrailLimits); maxPositionPct above wins for the size limit. */
  guardrailLimits?: Partial<GuardrailLimits>;
  /**
   * Stop making model calls before this analysis's spend would pass this many USD.
   * To cap several analyses together, wrap the model once with withBudget() instead.
   */
  maxCostUsd?: number | null;
  signal?: AbortSignal;
  runId?: string;
  refresh?: boolean;
  /** Marks the result as demo data (the shipped cassette). */
  demo?: boolean;
  /** Overrides every agent's own time limit. */
  agentTimeoutMs?: number;
  /** Overrides the time limit of one tool call (default 30 s). */
  toolTimeoutMs?: number;
}

export interface AnalyzeDeps {
  model: ChatModel;
  market: MarketData;
  /** Backs exa_search; a provider without a key answers the model with a clear error. */
  search: SearchProvider;
  events?: EventSink;
  prices?: PriceTable;
}

const standingBriefs: Record<WorkerId, (ticker: string) => string> = {
  quant: (ticker) => `Give your technical read of ${ticker}.`,
  risk: (ticker) => `Assess the risk of a position in ${ticker} and size it.`,
  execution: (ticker) => `Propose an order plan for ${ticker}.`,
  sentiment: (ticker) => `Research the news and sentiment on ${ticker} over the last 30 days.`,
};

const noMarketBlock = (ticker: string) =>
  `MARKET DATA — ${ticker}\nMarket data is not available for this run — do not estimate any price, level or statistic.`;

/**
 * One analysis: snapshot, Director plan, four desks concurrently, Director
 * decision, guardrails. Never throws for a model or worker failure — those are in
 * the result's status, reports and warnings; it throws only for bad input
 * (unknown ticker) or programmer errors.
 */
export async function analyze(ticker: string, options: AnalyzeOptions, deps: AnalyzeDeps): Promise<AnalysisResult> {
  const started = Date.now();
  const asOf = options.asOf ?? new Date();
  const symbol = ticker.trim().toUpperCase();
  const runId = options.runId ?? makeRunId(symbol, new Date(started));
  const prices = deps.prices ?? defaultPriceTable;
  const usage = new UsageTracker();
  const warnings: string[] = [];
  const events: EventSink = (event: RunEvent) => {
    usage.record(event);
    if (event.type === 'warning') warnings.push(event.message);
    deps.events?.(event);
  };
  const warn = (message: string) => events({ type: 'warning', message });
  const signal = options.signal ?? new AbortController().signal;
  const capped = options.maxCostUsd != null ? withBudget(deps.model, options.maxCostUsd, prices) : deps.model;
  // A desk stopped by the cap did not fail on its own: the run is degraded, not failed.
  let budgetStopped = false;
  const budgeted: ChatModel = {
    async complete(request) {
      try {
        return await capped.complete(request);
      } catch (error) {
        if (error instanceof BudgetExceededError) budgetStopped = true;
        throw error;
      }
    },
  };
  const models = resolveModels(options.model, options.env ?? {});
  const exaSearch = createExaSearchTool(deps.search);
  const mode: AnalysisResult['mode'] = options.agents && options.agents.length > 0 ? 'agents' : 'full';

  const result: AnalysisResult = {
    runId,
    ticker: symbol,
    asOf: asOf.toISOString(),
    status: 'ok',
    mode,
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
  };
  const finish = (status: RunStatus, error: string | null = null): AnalysisResult => {
    result.status = status;
    result.error = error;
    result.usage = usage.summary(prices);
    result.durationMs = Date.now() - started;
    return result;
  };

  // The SDKs load while the market data is fetched, not after it.
  deps.model.prepare?.();
  deps.search.prepare?.();

  // 1. Market data. An unknown ticker is the user's error and ends here; an
  // unreachable Yahoo leaves the desks working without numbers, and says so.
  try {
    result.market = await deps.market.snapshot(symbol, { asOf, signal, refresh: options.refresh });
    for (const warning of result.market.warnings) warn(`market data: ${warning}`);
  } catch (error) {
    if (signal.aborted) return finish('interrupted', 'interrupted');
    if (error instanceof DataError && error.kind !== 'unknown-ticker') warn(`market data missing: ${error.message}`);
    else throw error;
  }
  const marketBlock = result.market?.text ?? noMarketBlock(symbol);
  const context = { model: budgeted, asOf, events };
  const workerSpec = (id: WorkerId) =>
    buildSpec(id, models[id], id === 'sentiment' ? [exaSearch] : [], asOf, options.agentTimeoutMs, options.toolTimeoutMs);
  const runWorker = (id: WorkerId, brief: Brief) => runWorkerWithTimeout(workerSpec(id), workerTask(symbol, brief, marketBlock), { ...context, signal });

  if (mode === 'agents') {
    const selected = options.agents ?? [];
    const settled = await Promise.all(selected.map((id) => runWorker(id, { text: standingBriefs[id](symbol), from: 'standing' })));
    result.reports = settled;
    for (const warning of reportWarnings(settled)) warn(warning);
    const status = statusOf(settled, signal, result.market === null, budgetStopped);
    return finish(status, status === 'failed' ? failureSummary(settled) : status === 'interrupted' ? 'interrupted' : null);
  }

  // 2–3. Sentiment needs nothing from the plan, so it starts with the snapshot, on its
  // standing brief, and runs alongside the Director; the other desks start when the
  // plan exists. The plan's sentiment brief is kept in the result for the reader.
  const director = agentDefinition('director');
  const directorSystem = fillTemplate(loadPrompt(director.promptFile), { date: isoDay(asOf) });
  const sentimentController = new AbortController();
  const sentimentSignal = AbortSignal.any([signal, sentimentController.signal]);
  const sentiment = runWorkerWithTimeout(workerSpec('sentiment'), workerTask(symbol, { text: standingBriefs.sentiment(symbol), from: 'standing' }, marketBlock), {
    ...context,
    signal: sentimentSignal,
  });

  // Both Director calls: its system prompt, one task, a strict schema.
  let directorCalls = 0;
  const askDirector = async <Schema extends z.ZodObject>(schemaName: string, schema: Schema, task: string): Promise<z.infer<Schema>> => {
    const timeoutMs = options.agentTimeoutMs ?? director.timeoutMs;
    const timeout = AbortSignal.timeout(timeoutMs);
    try {
      return await askDirectorOnce(schemaName, schema, task, AbortSignal.any([signal, timeout]));
    } catch (error) {
      if (timeout.aborted && !signal.aborted) throw new ModelError(`the Director timed out after ${formatSeconds(timeoutMs)}`, 'timeout');
      throw error;
    }
  };
  const askDirectorOnce = async <Schema extends z.ZodObject>(schemaName: string, schema: Schema, task: string, callSignal: AbortSignal): Promise<z.infer<Schema>> => {
    const answered = await completeStructured({
      model: budgeted,
      modelName: models.director,
      agent: 'director',
      schemaName,
      schema,
      messages: [
        { role: 'system', content: directorSystem },
        { role: 'user', content: task },
      ],
      temperature: director.temperature,
      maxTokens: director.maxTokens,
      signal: callSignal,
      events,
      nextCallNumber: () => (directorCalls += 1),
    });
    return answered.value;
  };

  events({ type: 'agent-start', agent: 'director', model: models.director, at: Date.now() });
  const directorStarted = Date.now();
  let plan: Plan;
  try {
    plan = await askDirector('plan', planSchema, fillTemplate(loadPrompt('director-plan.md'), { ticker: symbol, market: marketBlock }));
    result.plan = plan;
  } catch (error) {
    sentimentController.abort(new Error('the Director could not plan'));
    result.reports = [await sentiment];
    const message = `Director plan failed: ${errorMessage(error)}`;
    events({ type: 'agent-end', agent: 'director', status: 'failed', durationMs: Date.now() - directorStarted, error: message });
    if (signal.aborted) return finish('interrupted', 'interrupted');
    if (error instanceof BudgetExceededError) {
      warn(error.message);
      return finish('degraded', message);
    }
    return finish('failed', message);
  }

  const others = (['quant', 'risk', 'execution'] as const).map((id) => runWorker(id, { text: plan.briefs[id], from: 'director' }));
  const reports = await Promise.all([...others, sentiment]);
  result.reports = orderReports(reports);
  if (signal.aborted) {
    events({ type: 'agent-end', agent: 'director', status: 'failed', durationMs: Date.now() - directorStarted, error: 'interrupted' });
    return finish('interrupted', 'interrupted');
  }
  for (const warning of reportWarnings(result.reports)) warn(warning);
  const available = result.reports.filter((report) => report.status === 'ok');
  if (available.length === 0) {
    events({ type: 'agent-end', agent: 'director', status: 'failed', durationMs: Date.now() - directorStarted, error: 'every desk failed' });
    return finish(budgetStopped ? 'degraded' : 'failed', 'every desk failed; no decision was made');
  }

  // 4. The decision, from the reports that exist, naming the missing ones.
  const missing = result.reports.filter((report) => report.status === 'failed').map((report) => report.agent);
  let decision: Decision;
  try {
    decision = await askDirector(
      'decision',
      decisionSchema,
      fillTemplate(loadPrompt('director-decide.md'), {
        ticker: symbol,
        market: marketBlock,
        thesis: plan.thesis,
        reports: formatReports(result.reports),
        missing:
          missing.length > 0
            ? `- These desks failed and sent no report: ${missing.join(', ')}. Decide without them and say in the rationale that their view is missing.\n`
            : '',
      }),
    );
  } catch (error) {
    const message = `Director decision failed: ${errorMessage(error)}`;
    events({ type: 'agent-end', agent: 'director', status: 'failed', durationMs: Date.now() - directorStarted, error: message });
    if (signal.aborted) return finish('interrupted', 'interrupted');
    warn(message);
    // No decision is ever invented: the desks' reports stand on their own.
    return finish(error instanceof BudgetExceededError ? 'degraded' : 'failed', message);
  }
  events({ type: 'agent-end', agent: 'director', status: 'ok', durationMs: Date.now() - directorStarted, error: null });
  result.decision = decision;

  // 5. Guardrails: findings, never corrections.
  result.guardrails = checkDecision(decision, result.market, { ...options.guardrailLimits, maxPositionPct: options.maxPositionPct ?? options.guardrailLimits?.maxPositionPct ?? defaultLimits.maxPositionPct });
  return finish(missing.length > 0 || result.market === null ? 'degraded' : 'ok');
}

function buildSpec(
  id: AgentId,
  model: string,
  tools: Tool[],
  asOf: Date,
  timeoutOverride: number | undefined,
  toolTimeoutMs: number | undefined,
): AgentSpec & { timeoutMs: number } {
  const definition = agentDefinition(id);
  return {
    id,
    name: definition.name,
    description: definition.description,
    model,
    instructions: fillTemplate(loadPrompt(definition.promptFile), { date: isoDay(asOf) }),
    tools,
    maxToolRounds: definition.maxToolRounds,
    maxLoops: definition.maxLoops,
    temperature: definition.temperature,
    maxTokens: definition.maxTokens,
    ...(toolTimeoutMs !== undefined ? { toolTimeoutMs } : {}),
    timeoutMs: timeoutOverride ?? definition.timeoutMs,
  };
}

/** A desk's brief: the Director's, from the plan, or the desk's own standing one. */
interface Brief {
  text: string;
  from: 'director' | 'standing';
}

function workerTask(ticker: string, brief: Brief, marketBlock: string): string {
  const label = brief.from === 'director' ? "The Director's brief for you:" : 'Your brief:';
  return `Ticker: ${ticker}\n\n${label}\n${brief.text}\n\n${marketBlock}`;
}

/** runAgent never throws for model or tool failures; the time limit is the agent's own. */
async function runWorkerWithTimeout(
  spec: AgentSpec & { timeoutMs: number },
  task: string,
  context: { model: ChatModel; asOf: Date; events: EventSink; signal: AbortSignal },
): Promise<AgentReport> {
  const timeout = AbortSignal.timeout(spec.timeoutMs);
  const signal = AbortSignal.any([context.signal, timeout]);
  // The agent's end event is held back until its error is final, so progress and the
  // transcript say what the report says (not "interrupted" for a time limit).
  let ended: Extract<RunEvent, { type: 'agent-end' }> | undefined;
  const events: EventSink = (event) => {
    if (event.type === 'agent-end' && event.agent === spec.id) ended = event;
    else context.events(event);
  };
  const report = await runAgent(spec, task, { ...context, signal, events });
  const final = finalReport(report, spec.timeoutMs, timeout, context.signal);
  if (ended) context.events({ ...ended, error: final.error });
  return final;
}

/** Why a stopped agent stopped: its own time limit, or the reason its caller gave. */
function finalReport(report: AgentReport, timeoutMs: number, timeout: AbortSignal, caller: AbortSignal): AgentReport {
  if (report.status === 'failed' && timeout.aborted && !caller.aborted) {
    // Three decimals at most, so a sub-second limit never reads "0 s".
    return { ...report, error: `timed out after ${formatSeconds(timeoutMs)}` };
  }
  if (report.status === 'failed' && caller.aborted) {
    const reason: unknown = caller.reason;
    return { ...report, error: reason instanceof Error ? reason.message : 'interrupted' };
  }
  return report;
}

/**
 * What the reports mean for trusting the run: a failed desk, or a desk whose every
 * tool call failed (Sentiment without a working search speaks without news).
 */
function reportWarnings(reports: AgentReport[]): string[] {
  const warnings: string[] = [];
  for (const report of reports) {
    if (report.status === 'failed') {
      warnings.push(`${report.agent} failed: ${report.error ?? 'unknown error'}`);
      continue;
    }
    const failedCalls = report.toolCalls.filter((call) => call.error !== null);
    if (report.toolCalls.length > 0 && failedCalls.length === report.toolCalls.length) {
      const reason = (failedCalls[0]?.error ?? '').replace(/^Error:\s*/, '');
      warnings.push(`${report.agent}: every tool call failed (${reason}); its report rests on no tool results`);
    }
  }
  return warnings;
}

function orderReports(reports: AgentReport[]): AgentReport[] {
  const order: readonly string[] = workerIds;
  return [...reports].sort((a, b) => order.indexOf(a.agent) - order.indexOf(b.agent));
}

function formatReports(reports: AgentReport[]): string {
  return reports
    .map((report) => {
      const name = agentDefinitions.find((definition) => definition.id === report.agent)?.name ?? report.agent;
      return report.status === 'ok' ? `### ${name}\n${report.text.trim()}` : `### ${name}\nFAILED — no report (${report.error ?? 'unknown error'})`;
    })
    .join('\n\n');
}

function statusOf(reports: AgentReport[], signal: AbortSignal, marketMissing: boolean, budgetStopped: boolean): RunStatus {
  if (signal.aborted) return 'interrupted';
  const failed = reports.filter((report) => report.status === 'failed').length;
  if (failed === reports.length) return budgetStopped ? 'degraded' : 'failed';
  return failed > 0 || marketMissing ? 'degraded' : 'ok';
}

function failureSummary(reports: AgentReport[]): string | null {
  const failed = reports.filter((report) => report.status === 'failed');
  if (failed.length === 0) return null;
  return failed.map((report) => `${report.agent}: ${report.error ?? 'failed'}`).join('; ');
}

function makeRunId(symbol: string, at: Date): string {
  const stamp = at.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  return `${stamp}-${symbol.replace(/[^A-Z0-9]/g, '_')}-${randomBytes(3).toString('hex')}`;
}
