import { describe, expect, it } from 'vitest';
import {
  criticalPath,
  describeChain,
  modelCalls,
  observedSerialChain,
  serialMs,
  type CallRecord,
} from '../../bench/critical-path.js';
import { isRefused, paced, requestCharacters, tokensOf } from '../../bench/model-server.js';

/**
 * The benchmark's arithmetic on hand-made logs: which chain is the critical one, how
 * the naive design compares, what the server counts as input. No timing here.
 */

const call = (kind: CallRecord['kind'], agent: string, receivedAt: number, answeredAt: number): CallRecord => ({
  kind,
  agent,
  receivedAt,
  answeredAt,
});

/** The pipeline as built: Sentiment starts with the plan, its search between its two calls. */
const overlapped: CallRecord[] = [
  call('plan', 'director', 10, 310),
  call('desk', 'sentiment', 10, 300),
  call('desk', 'quant', 312, 600),
  call('desk', 'risk', 312, 640),
  call('desk', 'execution', 312, 610),
  call('desk', 'sentiment', 330, 630),
  call('decision', 'director', 645, 945),
];
const yahoo = [
  { startedAt: 0, endedAt: 3 }, // cookie page
  { startedAt: 0, endedAt: 6 }, // chart, needs no session
  { startedAt: 3, endedAt: 5 }, // crumb
  { startedAt: 5, endedAt: 9 }, // quote
  { startedAt: 5, endedAt: 8 }, // quoteSummary
];
const search = [
  { startedAt: 301, endedAt: 321 },
  { startedAt: 301, endedAt: 325 },
];

describe('criticalPath', () => {
  it('takes the longest dependent chain: plan → slowest desk → decision when Sentiment is shorter', () => {
    const path = criticalPath(overlapped);
    // plan 300 + risk 328 + decision 300; Sentiment's 290 + 300 hang off the start
    expect(path).toEqual({ ms: 928, modelMs: 928, chain: ['plan', 'risk', 'decision'] });
  });

  it('adds the market snapshot (its longest run of Yahoo exchanges) and the slowest search of each tool round', () => {
    const path = criticalPath(overlapped, { market: yahoo, tools: search });
    // market: cookie 3 + crumb 2 + quote 4 = 9; Sentiment 290 + 24 + 300 = 614 stays under plan + risk = 628
    expect(path).toEqual({ ms: 9 + 628 + 300, modelMs: 928, chain: ['market', 'plan', 'risk', 'decision'] });

    const slowSearch = [{ startedAt: 301, endedAt: 329 }, ...search];
    const withSlowerSentiment = overlapped.map((entry) =>
      entry.agent === 'sentiment' && entry.receivedAt === 330 ? { ...entry, answeredAt: 670 } : entry,
    );
    expect(criticalPath(withSlowerSentiment, { market: yahoo, tools: slowSearch })).toEqual({
      ms: 9 + 290 + 28 + 340 + 300,
      modelMs: 290 + 340 + 300,
      chain: ['market', 'sentiment', 'search', 'sentiment', 'decision'],
    });
  });

  it('counts a search only between the two calls it falls between', () => {
    const early = [{ startedAt: 5, endedAt: 200 }];
    expect(criticalPath(overlapped, { tools: early }).ms).toBe(928);
  });

  it('makes the naive design (every desk waits for the plan) one model call longer', () => {
    const naive = criticalPath(overlapped, { independentDesks: [], tools: search });
    expect(modelCalls(naive.chain)).toEqual(['plan', 'sentiment', 'sentiment', 'decision']);
    expect(naive.ms).toBe(300 + 290 + 24 + 300 + 300);
    expect(describeChain(modelCalls(naive.chain))).toBe('plan → sentiment ×2 → decision');
  });

  it('is empty for no calls', () => {
    expect(criticalPath([])).toEqual({ ms: 0, modelMs: 0, chain: [] });
  });
});

describe('observedSerialChain', () => {
  it('finds 3 calls one after another when Sentiment overlaps the plan', () => {
    expect(observedSerialChain(overlapped)).toHaveLength(3);
  });

  it('finds 4 when Sentiment waited for the plan, while the critical path stays at 3 model calls', () => {
    const serialised = overlapped.map((entry) =>
      entry.agent !== 'sentiment'
        ? entry
        : entry.receivedAt === 10
          ? { ...entry, receivedAt: 312, answeredAt: 600 }
          : { ...entry, receivedAt: 620, answeredAt: 900 },
    );
    const moved = serialised.map((entry) =>
      entry.kind === 'decision' ? { ...entry, receivedAt: 905, answeredAt: 1205 } : entry,
    );
    expect(observedSerialChain(moved)).toEqual(['plan', 'sentiment', 'sentiment', 'decision']);
    expect(modelCalls(criticalPath(moved).chain)).toHaveLength(3);
  });
});

describe('serialMs', () => {
  it('sums the longest run of intervals that followed one another', () => {
    expect(serialMs(yahoo)).toBe(3 + 2 + 4);
    expect(serialMs([])).toBe(0);
  });
});

describe('the bench model server', () => {
  it('counts message text, tool-call arguments, tools and the response format as input', () => {
    const body = {
      messages: [
        { role: 'system', content: 'abcd' },
        { role: 'user', content: [{ type: 'text', text: 'efgh' }] },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'exa_search', arguments: '{"q":1}' } }],
        },
        { role: 'tool', tool_call_id: 'call_1', content: 'result' },
      ],
      tools: [{ type: 'function' }],
      response_format: { type: 'json_object' },
    };
    const characters =
      4 +
      4 +
      'exa_search'.length +
      '{"q":1}'.length +
      'result'.length +
      '[{"type":"function"}]'.length +
      '{"type":"json_object"}'.length;
    expect(requestCharacters(body)).toBe(characters);
    expect(tokensOf(characters)).toBe(Math.ceil(characters / 4));
    expect(requestCharacters({ messages: [{ role: 'user', content: 'x' }], tools: [] })).toBe(1);
  });

  it('paces an answer so its last chunk is due at the latency', () => {
    for (const [latency, characters, toolCalls] of [
      [300, 1_400, 0],
      [300, 200, 2],
      [300, 3, 0],
      [1_000, 5_000, 0],
    ] as const) {
      const pacing = paced(latency, characters, toolCalls);
      const gaps = pacing.pieces * Math.max(1, toolCalls) + 2 + toolCalls;
      expect(pacing.delayMs + gaps * pacing.chunkDelayMs).toBe(latency);
      expect(pacing.delayMs).toBeGreaterThanOrEqual(latency / 2);
    }
    expect(paced(300, 3).pieces).toBe(1);
  });

  it('refuses exactly the asked share of calls, evenly spaced', () => {
    const refused = Array.from({ length: 100 }, (_, index) => index).filter((index) => isRefused(index, 0.1));
    expect(refused).toEqual([9, 19, 29, 39, 49, 59, 69, 79, 89, 99]);
    expect(Array.from({ length: 50 }, (_, index) => isRefused(index, 0)).some(Boolean)).toBe(false);
  });
});
