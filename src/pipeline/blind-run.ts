import { blindSnapshot, defaultAlias, type Unblind } from '../market/blind.js';
import type { MarketSnapshot } from '../market/types.js';
import { withoutSearch, type RunSearch } from './search-setup.js';

/**
 * What `--blind` changes in a run besides the snapshot: no search (a query would name
 * the company), no MCP tools, and the system prompts' date line without a date.
 */

export const blindSearchWarning =
  'sentiment: blind run — web search is off (a query would name the company); its report rests on the market data alone';

export const blindSearchNote =
  '\n\nThis is a blind run: the company and the calendar are hidden from you, and web search is off (a query would name the company), so you have no search tool. Say at the start of your report that it rests on the market data alone, with no news, and score only what the data above supports.';

export const blindToolsWarning = (names: readonly string[]) =>
  `blind run: the MCP tools (${names.join(', ')}) are off — their calls and results could name the company or the day`;

/** The decide task's extra line in a blind run. */
export const blindDecideNote =
  '- This is a blind run: the quote currency is hidden; give entry, stopLoss and takeProfit in the blind units of the MARKET DATA block (the last close is 100.00).\n';

/** What the system prompts say for "Today is {{date}}." */
export const blindDateLabel = 'session D-0 (a blind run: the calendar date is hidden)';

/** The search of a blind run: none, with its own note and warning. */
export function blindSearch(): RunSearch {
  return withoutSearch(blindSearchNote, blindSearchWarning);
}

/** A blind run's view of the market: the blind snapshot and the way back; with no snapshot, scale 1. */
export interface BlindView {
  alias: string;
  snapshot: MarketSnapshot | null;
  unblind: Unblind;
}

export function blindView(market: MarketSnapshot | null, alias = defaultAlias): BlindView {
  if (market) return { alias, ...blindSnapshot(market, { alias }) };
  const identity = (value: number | null) => value;
  return {
    alias,
    snapshot: null,
    unblind: { alias, scale: 1, price: identity, levels: (levels) => levels, session: () => null },
  };
}
