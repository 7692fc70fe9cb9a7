import type { EventSink } from '../events.js';
import type { PriceTable } from '../llm/prices.js';
import type { SearchProvider } from '../search/types.js';
import { createExaSearchTool, searchToolName } from '../tools/exa-search.js';
import type { Tool } from '../tools/types.js';
import { withSearchBudget, type SpendingCap } from './budget.js';
import type { AnalysisResult } from '../result/types.js';
import { meterSearch } from './usage.js';

/** `--search none`: the user is warned, and the desk is told in its task. */
export const noSearchWarning =
  'sentiment: no web search in this run (--search none); its report rests on no news search';
export const noSearchNote =
  '\n\nNo web search is available in this run (--search none): you have no search tool. Say at the start of your report that it rests on no news search, and score only what the data above supports.';

export interface RunSearch {
  /** The run's provider: under the cap and metered into usage; null for `--search none`. */
  provider: SearchProvider | null;
  /** The search tool bound to Sentiment, by its name; empty for `--search none`. */
  toolsByName: Record<string, Tool>;
  /** For AnalysisResult.search: which source backed the tool. */
  backing: NonNullable<AnalysisResult['search']>;
  /** `--search none`: the search tool switched off, with what an agent that names it is told instead. */
  disabledTools: Record<string, string>;
  /** Said once at the start of the run when there is no search. */
  warning: string | null;
}

/** A run without a search tool: `note` is what Sentiment is told in its place, `warning` what the user is. */
export function withoutSearch(note: string, warning: string): RunSearch {
  return {
    provider: null,
    toolsByName: {},
    backing: { provider: 'none', model: null },
    disabledTools: { [searchToolName]: note },
    warning,
  };
}

/**
 * The search of one analysis, from the provider the caller gave (or null): autohedge's own
 * providers (with an id) are put under the run's --max-cost cap and report every search
 * as a `search-usage` event; a provider of the caller's own is used as given.
 */
export function setUpSearch(
  given: SearchProvider | null,
  context: { cap: SpendingCap | null; prices: PriceTable; events: EventSink; historical?: boolean },
): RunSearch {
  if (!given) return withoutSearch(noSearchNote, noSearchWarning);
  const budgeted = context.cap ? withSearchBudget(given, context.cap, context.prices) : given;
  const provider = budgeted.id ? meterSearch(budgeted, context.events) : budgeted;
  const tool = createExaSearchTool(provider, { historical: context.historical });
  return {
    provider,
    toolsByName: { [tool.name]: tool },
    backing: { provider: given.id ?? 'custom', model: given.model ?? null },
    disabledTools: {},
    warning: null,
  };
}
