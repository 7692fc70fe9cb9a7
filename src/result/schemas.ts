import { z } from 'zod';
import { deskIds } from '../../agents/index.js';

/**
 * The Director's plan, as the model must return it (strict json_schema): a thesis and
 * one focused brief per desk of the run's roster, in its order.
 */
export function planSchemaFor(desks: readonly string[]) {
  const briefs = z.object(
    Object.fromEntries(desks.map((id) => [id, z.string().min(1)])) as Record<string, z.ZodString>,
  );
  return z.object({
    thesis: z.string().min(1).describe('3–5 sentence opening thesis'),
    briefs: briefs.describe('one focused brief per desk'),
  });
}

/** The plan of the roster in agents/. */
export const planSchema = planSchemaFor(deskIds);

/** Finite, positive and below any listed share price: 1e308 or a negative level never reaches the guardrails as a number. */
const price = z.number().positive().max(10_000_000).nullable();

/** The Director's decision. Optional levels are nullable: strict mode requires every key. */
export const decisionSchema = z.object({
  action: z.enum(['BUY', 'SELL', 'HOLD']),
  // A grammar engine enforces bounds on integers only: it gets conviction as a bounded integer.
  conviction: z.number().min(0).max(100).meta({ description: '0–100', 'x-grammar-type': 'integer' }),
  timeHorizon: z.string().min(1).describe('e.g. "2–6 weeks"'),
  positionSizePct: z.number().min(0).max(100).describe('percent of the portfolio'),
  orderType: z.enum(['market', 'limit']),
  entry: price.describe('entry price in the quote currency, null if not applicable'),
  stopLoss: price.describe('stop-loss price, null if not applicable'),
  takeProfit: price.describe('take-profit price, null if not applicable'),
  rationale: z.string().min(1),
  keyRisks: z.array(z.string()),
  dissent: z.string().nullable().describe('where the desks disagree, null if they agree'),
});
