import { blindSnapshot, defaultAlias, type Unblind } from '../market/blind.js';
import type { MarketSnapshot } from '../market/types.js';

/**
 * What `--blind` changes in a run besides the snapshot: the system prompts' date line
 * without a date, and the decision in blind units. Search and MCP tools are off too, but
 * each tool says so itself (isEnabled in src/tools/catalogue.ts and src/tools/outside-tools.ts),
 * so nothing here switches a tool by name.
 */

/** The decide task's extra line in a blind run. */
export const blindDecideNote =
  '- This is a blind run: the quote currency is hidden; give entry, stopLoss and takeProfit in the blind units of the MARKET DATA block (the last close is 100.00).\n';

/** What the system prompts say for "Today is {{date}}." */
export const blindDateLabel = 'session D-0 (a blind run: the calendar date is hidden)';

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
