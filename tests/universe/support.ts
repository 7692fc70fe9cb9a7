import type { ChatRequest, Usage } from '../../src/llm/types.js';
import { ScriptedModel, type ScriptedStep } from '../../src/testing/scripted-model.js';
import { deskIds } from '../../agents/index.js';
import { decisionFixture, planFor } from '../../src/testing/index.js';

export const plan = planFor(deskIds, { thesis: 'Thesis.' });

/** The ticker a request is about, from the market block every agent is given. */
export function tickerOf(request: Pick<ChatRequest, 'messages'>): string {
  for (const message of request.messages) {
    const match = typeof message.content === 'string' ? /MARKET DATA — (\S+)/.exec(message.content) : null;
    if (match) return match[1]!;
  }
  throw new Error('no market block in the request');
}

export type Stance = { action: 'BUY' | 'SELL' | 'HOLD'; conviction: number };

/**
 * A decision the guardrails pass on the test snapshot (last price 100, ATR 2.5): a market
 * order, the stop two ATRs away on the right side, the target twice as far; a HOLD
 * carries no levels.
 */
export function decisionFor(stance: Stance) {
  const levels =
    stance.action === 'BUY'
      ? { stopLoss: 95, takeProfit: 110 }
      : stance.action === 'SELL'
        ? { stopLoss: 105, takeProfit: 90 }
        : { stopLoss: null, takeProfit: null };
  return decisionFixture({
    action: stance.action,
    conviction: stance.conviction,
    positionSizePct: stance.action === 'HOLD' ? 0 : 4,
    orderType: 'market',
    entry: null,
    ...levels,
    rationale: 'Because.',
    keyRisks: ['earnings'],
  });
}

/**
 * A scripted model for `tickers` full analyses, answered by who asks and about which
 * ticker, whatever order the concurrent analyses' calls arrive in.
 */
export function universeModel(
  tickers: number,
  stance: (ticker: string) => Stance = () => ({ action: 'HOLD', conviction: 50 }),
  usage?: Partial<Usage>,
): ScriptedModel {
  const director: ScriptedStep = (request) => ({
    text: JSON.stringify(
      request.responseFormat?.json_schema.name === 'plan' ? plan : decisionFor(stance(tickerOf(request))),
    ),
    usage,
  });
  const desk =
    (name: string): ScriptedStep =>
    (request) => ({ text: `${name} report on ${tickerOf(request)}.`, usage });
  const times = (count: number, step: ScriptedStep) => Array.from({ length: count }, () => step);
  return new ScriptedModel({
    director: times(tickers * 2, director),
    quant: times(tickers, desk('Quant')),
    risk: times(tickers, desk('Risk')),
    execution: times(tickers, desk('Execution')),
    sentiment: times(tickers, desk('Sentiment')),
  });
}
