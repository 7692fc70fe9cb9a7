/**
 * The numbers the desks read agree with the bars the run keeps (and the chart draws):
 * a snapshot built by tests/support/market.ts's snapshotFromBars, whose indicators and
 * market block come from the real src/market code, goes through analyze() unchanged.
 */
import { describe, expect, it } from 'vitest';
import { computeIndicators } from '../../src/market/indicators.js';
import { formatPrice } from '../../src/market/snapshot-format.js';
import { analyze } from '../../src/pipeline/analyze.js';
import { ScriptedModel } from '../../src/testing/scripted-model.js';
import { decisionAt, plan } from '../support/faults.js';
import { fakeMarket, snapshotFromBars } from '../support/market.js';
import { makeBars } from '../support/results.js';

describe('a snapshot whose indicators are its own bars', () => {
  it('the builder: indicators, price and market block all come from the bars', () => {
    const bars = makeBars(260);
    const snapshot = snapshotFromBars(bars);
    const indicators = computeIndicators(bars);
    expect(snapshot.indicators).toEqual(indicators);
    expect(snapshot.quote.price).toBe(bars.at(-1)!.close);
    expect(snapshot.indicators.asOfBar).toBe(bars.at(-1)!.date);
    expect(snapshot.text).toContain(`Last close: ${formatPrice(indicators.lastClose, 'USD')} (${indicators.asOfBar})`);
    expect(snapshot.text).toContain(`ATR(14): ${formatPrice(indicators.atr14, 'USD')}`);
  });

  it('every desk and the Director read the market block of the bars the result keeps', async () => {
    const snapshot = snapshotFromBars();
    const lastClose = snapshot.indicators.lastClose;
    const model = new ScriptedModel({
      director: [{ text: JSON.stringify(plan) }, { text: JSON.stringify(decisionAt(lastClose)) }],
      quant: [{ text: 'Quant: trend up.' }],
      risk: [{ text: 'Risk: size 4 %.' }],
      execution: [{ text: 'Execution: limit order.' }],
      sentiment: [{ text: 'Sentiment 0.6.' }],
    });
    const result = await analyze(
      'ACME',
      { asOf: new Date(snapshot.asOf) },
      { model, market: fakeMarket(snapshot), search: { search: async () => [] } },
    );
    model.assertComplete();

    expect(result.status).toBe('ok');
    expect(result.market?.indicators).toEqual(computeIndicators(result.market!.bars));
    // The cacheable layout: the block is in the shared start of the system message.
    for (const request of model.requests)
      expect(String(request.messages[0]?.content), request.agent).toContain(snapshot.text);
  });
});
