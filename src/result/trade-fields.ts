import type { Decision } from './types.js';

/** The fields of a decision that say what to trade and at which levels: what the book sizes and the ledger seals. */
export type TradeFields = Pick<
  Decision,
  'action' | 'conviction' | 'positionSizePct' | 'orderType' | 'entry' | 'stopLoss'
>;

/** Only the trade fields of `decision`, so a record or an input never carries the prose along. */
export function tradeFieldsOf(decision: TradeFields): TradeFields {
  return {
    action: decision.action,
    conviction: decision.conviction,
    positionSizePct: decision.positionSizePct,
    orderType: decision.orderType,
    entry: decision.entry,
    stopLoss: decision.stopLoss,
  };
}
