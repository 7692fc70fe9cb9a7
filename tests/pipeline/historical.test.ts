import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { analyze } from '../../src/pipeline/analyze.js';
import { ScriptedModel } from '../../src/testing/scripted-model.js';
import { defineTool } from '../../src/tools/define-tool.js';
import type { SearchProvider } from '../../src/tools/exa-search.js';
import type { SnapshotOptions } from '../../src/market/types.js';
import { fakeMarket, makeSnapshot } from '../support/market.js';

/** analyze() as a library: a historical run tells the market client, and names the outside tools it cannot hold to its day. */

const search: SearchProvider = { search: async () => [] };
const asOf = new Date('2025-06-02T20:00:00Z');
const outside = defineTool({
  name: 'web_fetch',
  description: 'Fetches a page',
  outputs: 'the page text',
  parameters: z.object({ url: z.string() }),
  run: async () => 'page',
});

function deskOnly() {
  return new ScriptedModel({ quant: [{ text: 'Quant report.' }] });
}

describe('analyze({ historical: true })', () => {
  it('asks the market for a historical snapshot and warns about outside tools by name', async () => {
    const seen: SnapshotOptions[] = [];
    const market = {
      snapshot: async (ticker: string, options: SnapshotOptions) => (seen.push(options), makeSnapshot(ticker)),
    };
    const result = await analyze(
      'ACME',
      { asOf, historical: true, agents: ['quant'] },
      { model: deskOnly(), market, search, agentTools: { quant: [outside] } },
    );
    expect(seen[0]).toMatchObject({ asOf, historical: true });
    expect(result.asOfMode).toBe('historical');
    expect(result.warnings).toContain(
      "as of 2025-06-02, but the tool(s) web_fetch from outside autohedge (MCP servers, a caller's own) are not point-in-time: what they return may come from after that day",
    );
    // Only the desks that run count for contamination: quant on gpt-4.1, trained to 2024-06-30.
    expect(result.contamination).toMatchObject({
      label: 'clean',
      models: [{ model: 'gpt-4.1', cutoff: '2024-06-30' }],
    });
  });

  it('a live run with the same tools: no such warning, marked live', async () => {
    const result = await analyze(
      'ACME',
      { asOf, agents: ['quant'] },
      { model: deskOnly(), market: fakeMarket(), search, agentTools: { quant: [outside] } },
    );
    expect(result.asOfMode).toBe('live');
    expect(result.warnings.some((warning) => warning.includes('not point-in-time'))).toBe(false);
  });
});
