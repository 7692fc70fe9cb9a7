import type { z } from 'zod';
import { decisionSchema } from './schemas.js';
import type { Decision } from './types.js';

/** A choice of the decision's fields, as zod's `.pick` takes it. */
export type DecisionFieldMask = { readonly [Key in keyof Decision]?: true };

/** The fields of a decision that say what to trade and at which levels: what the book sizes; the ledger seals them too. */
export const tradeFieldMask = {
  action: true,
  conviction: true,
  positionSizePct: true,
  orderType: true,
  entry: true,
  stopLoss: true,
} as const satisfies DecisionFieldMask;

/** The trade fields as the decision schema declares them (same types and bounds). */
export const tradeFieldsSchema = decisionSchema.pick(tradeFieldMask);

export type TradeFields = z.infer<typeof tradeFieldsSchema>;

/**
 * Only the fields of `decision` that `mask` names, so a record or an input never carries
 * the prose along. A copy, not a parse: a decision is checked where it enters, not here.
 */
export function decisionFieldsOf<Mask extends DecisionFieldMask>(
  decision: Pick<Decision, keyof Mask & keyof Decision>,
  mask: Mask,
): Pick<Decision, keyof Mask & keyof Decision> {
  const fields: Partial<Record<keyof Decision, unknown>> = {};
  for (const key of Object.keys(mask) as Array<keyof Mask & keyof Decision>) fields[key] = decision[key];
  return fields as Pick<Decision, keyof Mask & keyof Decision>;
}

/** Only the trade fields of `decision`. */
export function tradeFieldsOf(decision: TradeFields): TradeFields {
  return decisionFieldsOf(decision, tradeFieldMask);
}
