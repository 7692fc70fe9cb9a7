import type { AgentDefinition } from '../../agents/index.js';
import type { EventSink } from '../events.js';
import type { PriceTable } from '../llm/prices.js';
import type { SearchProvider } from '../search/types.js';
import { builtInTools, noSearchOff, toolState, type ToolOff, type ToolRunContext } from '../tools/catalogue.js';
import { outsideTools } from '../tools/outside-tools.js';
import type { Tool } from '../tools/types.js';
import { withSearchBudget, type SpendingCap } from './budget.js';
import type { AnalysisResult } from '../result/types.js';
import { meterSearch } from './usage.js';

/** `--search none`: the user is warned, and the desk is told in its task (declared by the tool, src/tools/catalogue.ts). */
export const noSearchWarning = noSearchOff.warning;
export const noSearchNote = noSearchOff.note;

export interface RunSearch {
  /** The run's provider: under the cap and metered into usage; null when no bound tool uses it. */
  provider: SearchProvider | null;
  /** The built-in tools this run binds, by name, for the agents whose definitions name them. */
  toolsByName: Record<string, Tool>;
  /** For AnalysisResult.search: which source backed the tool. */
  backing: NonNullable<AnalysisResult['search']>;
  /** The built-in tools the run's context switched off, with what an agent that names one is told instead. */
  disabledTools: Record<string, string>;
  /** The same tools, with why and what the user is warned. */
  switchedOff: Record<string, ToolOff>;
  /** What the tools' isEnabled predicates were asked. */
  context: ToolRunContext;
}

/** The run's context as the tools' predicates read it. */
export function toolRunContext(given: SearchProvider | null, run: { blind?: boolean; historical?: boolean }) {
  const search: ToolRunContext['search'] = given ? (given.id ?? 'custom') : 'none';
  return { blind: run.blind === true, search, historical: run.historical === true } satisfies ToolRunContext;
}

/**
 * The built-in tools of one analysis, each bound or switched off by its own isEnabled
 * (a blind run, `--search none`), over the provider the caller gave (or null):
 * autohedge's own providers (with an id) are put under the run's --max-cost cap and
 * report every search as a `search-usage` event; a provider of the caller's own is used as given.
 */
export function setUpSearch(
  given: SearchProvider | null,
  context: { cap: SpendingCap | null; prices: PriceTable; events: EventSink },
  run: { blind?: boolean; historical?: boolean } = {},
): RunSearch {
  const runContext = toolRunContext(given, run);
  const states = builtInTools.map((tool) => ({ tool, state: toolState(tool, runContext) }));
  const switchedOff: Record<string, ToolOff> = {};
  for (const { tool, state } of states) if (!state.enabled) switchedOff[tool.name] = state;
  const disabledTools = Object.fromEntries(Object.entries(switchedOff).map(([name, off]) => [name, off.note]));
  const bound = states.filter(({ state }) => state.enabled).map(({ tool }) => tool);
  if (!given || bound.length === 0) {
    const backing = { provider: 'none' as const, model: null };
    return { provider: null, toolsByName: {}, backing, disabledTools, switchedOff, context: runContext };
  }
  const budgeted = context.cap ? withSearchBudget(given, context.cap, context.prices) : given;
  const provider = budgeted.id ? meterSearch(budgeted, context.events) : budgeted;
  return {
    provider,
    toolsByName: Object.fromEntries(
      bound.map((tool) => [tool.name, tool.create({ search: provider, historical: runContext.historical })]),
    ),
    backing: { provider: given.id ?? 'custom', model: given.model ?? null },
    disabledTools,
    switchedOff,
    context: runContext,
  };
}

/** Tools from outside (MCP servers, a caller's own) say when they are off as the built-in ones do (a blind run). */
export function outsideToolsOf<Tools>(search: RunSearch, agentTools: Tools | undefined): Tools | undefined {
  return outsideTools.isEnabled({ context: search.context }) ? agentTools : undefined;
}

/**
 * What the user is warned about the tools this run switched off, once each, only for
 * a tool some running agent names (no warning for `--agent quant`).
 */
export function switchedOffWarnings(search: RunSearch, running: readonly AgentDefinition[]): string[] {
  return Object.entries(search.switchedOff)
    .filter(([name]) => running.some((definition) => definition.tools.includes(name)))
    .map(([, off]) => off.warning);
}
