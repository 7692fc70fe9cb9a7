import { agentDefinitions, type AgentDefinition } from '../../agents/index.js';
import { defaultPriceTable } from '../llm/prices.js';
import { defaultOpenAISearchModel } from '../search/openai.js';
import type { SearchProvider } from '../search/types.js';
import { createExaSearchTool, searchToolName } from './exa-search.js';
import type { Tool } from './types.js';

/**
 * The built-in tools, one entry each: what a tool needs and costs, which desks name it,
 * and when a run switches it off. A tool says when it is off itself, in the manner of
 * openai-agents-js's `tool({ isEnabled })`, so the search setup, a blind run and
 * `autohedge tools` ask the tool instead of switching it by name.
 */

/** What decides whether a built-in tool is bound in a run (openai-agents-js hands its RunContext). */
export interface ToolRunContext {
  /** `--blind`: the company and the calendar are hidden from every model. */
  blind: boolean;
  /** What backs web search: `--search exa|openai|none`, or a library caller's own provider. */
  search: 'exa' | 'openai' | 'custom' | 'none';
  /** `--as-of` a past session's close. */
  historical: boolean;
}

/** Why a tool is off in a run: short for a listing, what the user is warned, what an agent naming it is told. */
export interface ToolOff {
  reason: string;
  warning: string;
  note: string;
}

/** As openai-agents-js's `isEnabled`: a fixed answer, or a predicate over the run's context. */
export type ToolEnabledOption = boolean | ((args: { context: ToolRunContext }) => boolean);

/** What a built-in tool is made from in a run. */
export interface BuiltInServices {
  search: SearchProvider;
  historical: boolean;
}

export interface BuiltInTool {
  name: string;
  /** The keys (environment variables) it needs to do its work; listing or binding it needs none. */
  needs: string;
  /** What one call costs, from the built-in price table. */
  cost: string;
  /** What it does in a historical run, where it stays on. */
  historical: string;
  isEnabled: ToolEnabledOption;
  /** Asked only when isEnabled says off: why, in this context. */
  offReason: (context: ToolRunContext) => ToolOff;
  create: (services: BuiltInServices) => Tool;
}

/** `--search none`: the user is warned, and the desk is told in its task. */
export const noSearchOff: ToolOff = {
  reason: '--search none',
  warning: 'sentiment: no web search in this run (--search none); its report rests on no news search',
  note: '\n\nNo web search is available in this run (--search none): you have no search tool. Say at the start of your report that it rests on no news search, and score only what the data above supports.',
};

/** `--blind`: a query would name the company. */
export const blindSearchOff: ToolOff = {
  reason: 'blind run (a query would name the company)',
  warning:
    'sentiment: blind run — web search is off (a query would name the company); its report rests on the market data alone',
  note: '\n\nThis is a blind run: the company and the calendar are hidden from you, and web search is off (a query would name the company), so you have no search tool. Say at the start of your report that it rests on the market data alone, with no news, and score only what the data above supports.',
};

const perSearch = (model: string) => defaultPriceTable[model]?.perCall ?? 0;

const exaSearch: BuiltInTool = {
  name: searchToolName,
  needs: 'EXA_API_KEY (--search exa, the default) or OPENAI_API_KEY (--search openai)',
  cost: `$${perSearch('exa')} a search with Exa; with --search openai the search model's tokens plus $${perSearch(defaultOpenAISearchModel)} a search`,
  historical:
    'on, point-in-time: the date window ends at the as-of close and undated results are dropped (--search openai, which has no date filter, is refused with --as-of)',
  isEnabled: ({ context }) => !context.blind && context.search !== 'none',
  // A blind run is named first: it switches search off whatever --search says.
  offReason: (context) => (context.blind ? blindSearchOff : noSearchOff),
  create: ({ search, historical }) => createExaSearchTool(search, { historical }),
};

/** Every built-in tool, in listing order. */
export const builtInTools: readonly BuiltInTool[] = [exaSearch];

/** Our own tools' names, which no MCP tool may take. */
export const builtInToolNames: readonly string[] = builtInTools.map((tool) => tool.name);

export type ToolState = { enabled: true } | ({ enabled: false } & ToolOff);

/** Whether the tool is bound in this context, and if not, why. */
export function toolState(tool: BuiltInTool, context: ToolRunContext): ToolState {
  const enabled = typeof tool.isEnabled === 'boolean' ? tool.isEnabled : tool.isEnabled({ context });
  return enabled ? { enabled: true } : { enabled: false, ...tool.offReason(context) };
}

/** "exa_search is off: --search none": the line a run or a listing reports. */
export function offLine(name: string, off: Pick<ToolOff, 'reason'>): string {
  return `${name} is off: ${off.reason}`;
}

/** The contexts a listing shows, each differing from a live run in one respect. */
export const namedContexts: Readonly<Record<'live' | 'blind' | 'searchNone' | 'historical', ToolRunContext>> = {
  live: { blind: false, search: 'exa', historical: false },
  blind: { blind: true, search: 'exa', historical: false },
  searchNone: { blind: false, search: 'none', historical: false },
  historical: { blind: false, search: 'exa', historical: true },
};

/** The desks whose definitions name the tool: they bind it by default. */
export function defaultDesks(name: string, roster: readonly AgentDefinition[] = agentDefinitions): string[] {
  return roster.filter((definition) => definition.tools.includes(name)).map((definition) => definition.id);
}
