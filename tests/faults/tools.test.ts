// Fault matrix, tools: Sentiment's tool calls go wrong in every way a model or a tool
// can make them go wrong; each becomes a role:"tool" message the model reads, and
// the run completes.
import { expect, it } from 'vitest';
import type { RunEvent } from '../../src/events.js';
import { analyze } from '../../src/pipeline/analyze.js';
import type { SearchProvider, SearchResult } from '../../src/search/types.js';
import { untrustedContentEnd } from '../../src/tools/untrusted.js';
import { fakeMarket } from '../support/market.js';
import {
  allOk,
  byAgent,
  deskText,
  faultMatrix,
  fixedNow,
  openaiCanary,
  requestsOf,
  toolMessages,
  type FaultScenario,
} from '../support/faults.js';
import { startOpenAIServer, textAnswer, toolCallAnswer, type Reply } from '../support/openai-server.js';
import { createOpenAIModel } from '../../src/llm/openai-model.js';
import { longBeforeTheHangEnds, neverEndsMs } from '../support/hang.js';
import { jsonErrorOf } from '../support/json.js';

const okRun = {
  exitCode: 0,
  result: { status: 'ok' as const, error: null, decision: true, reports: allOk, warnings: [] as string[] },
};
/** Still ok, but the run says Sentiment's only tool call failed. */
const searchFailed = (error: string) => ({
  ...okRun,
  result: {
    ...okRun.result,
    warnings: [`sentiment: every tool call failed (${error}); its report rests on no tool results`],
  },
});

const oneResult: SearchResult = {
  title: 'Acme beats estimates',
  url: 'https://news.example/acme',
  publishedDate: '2026-11-20',
  author: null,
  snippet: 'Acme raised guidance.',
};

function provider(search: SearchProvider['search']): SearchProvider & { queries: string[] } {
  const queries: string[] = [];
  return {
    queries,
    search: (request, signal) => {
      queries.push(request.query);
      return search(request, signal);
    },
  };
}

const search = (query = 'Acme Robotics news') => ({
  name: 'exa_search',
  arguments: { query, numResults: 5, daysBack: 30 },
});
const sentimentLast = (servers: { requests: any[] }[]) => requestsOf(servers[0] as never, 'sentiment').at(-1);

/** Sentiment calls `calls`, reads the results, then answers. */
function sentimentScript(...turns: Reply[]) {
  return byAgent({ sentiment: [...turns, textAnswer(deskText.sentiment!)] });
}

const scenarios: FaultScenario[] = [
  {
    name: 'an unknown tool name: "Error: unknown tool" as the tool message, nothing runs, ok',
    async arrange(context) {
      const server = await context.openai(
        sentimentScript(toolCallAnswer([{ id: 'call_q', name: 'get_quote', arguments: { symbol: 'ACME' } }])),
      );
      const searches = provider(async () => [oneResult]);
      context.defer(() => expect(searches.queries).toEqual([]));
      return { deps: { model: context.model(server), market: fakeMarket(), search: searches } };
    },
    expect: searchFailed("unknown tool 'get_quote'. Available tools: exa_search"),
    verify(outcome, { servers }) {
      const last = sentimentLast(servers);
      expect(last?.body.messages.at(-1)).toEqual({
        role: 'tool',
        tool_call_id: 'call_q',
        content: "Error: unknown tool 'get_quote'. Available tools: exa_search",
      });
      expect(outcome.result?.reports[3]?.toolCalls).toMatchObject([
        { name: 'get_quote', result: null, error: "unknown tool 'get_quote'. Available tools: exa_search" },
      ]);
    },
  },
  {
    name: 'malformed JSON arguments: the parse error as the tool message, the search never sent, ok',
    async arrange(context) {
      const server = await context.openai(
        sentimentScript(toolCallAnswer([{ id: 'call_m', name: 'exa_search', arguments: '{"query": "Acme' }])),
      );
      const searches = provider(async () => [oneResult]);
      context.defer(() => expect(searches.queries).toEqual([]));
      return { deps: { model: context.model(server), market: fakeMarket(), search: searches } };
    },
    expect: searchFailed(`Invalid arguments for exa_search: not valid JSON (${jsonErrorOf('{"query": "Acme')})`),
    verify(outcome, { servers }) {
      expect(toolMessages(sentimentLast(servers))).toEqual([
        `Error: Invalid arguments for exa_search: not valid JSON (${jsonErrorOf('{"query": "Acme')})`,
      ]);
    },
  },
  {
    name: 'arguments that fail the schema: every problem named, the search never sent, ok',
    async arrange(context) {
      const server = await context.openai(
        sentimentScript(
          toolCallAnswer([
            { id: 'call_s', name: 'exa_search', arguments: { query: '  ', numResults: 50, daysBack: 30 } },
          ]),
        ),
      );
      const searches = provider(async () => [oneResult]);
      context.defer(() => expect(searches.queries).toEqual([]));
      return { deps: { model: context.model(server), market: fakeMarket(), search: searches } };
    },
    expect: searchFailed(
      'Invalid arguments for exa_search: query: Too small: expected string to have >=1 characters; numResults: Too big: expected number to be <=10',
    ),
    verify(outcome, { servers }) {
      expect(toolMessages(sentimentLast(servers))).toEqual([
        'Error: Invalid arguments for exa_search: query: Too small: expected string to have >=1 characters; numResults: Too big: expected number to be <=10',
      ]);
    },
  },
  {
    name: 'a tool that throws: its message as the tool message, ok',
    async arrange(context) {
      const server = await context.openai(sentimentScript(toolCallAnswer([{ id: 'call_t', ...search() }])));
      const searches = provider(async () => {
        throw new TypeError('fetch failed');
      });
      return { deps: { model: context.model(server), market: fakeMarket(), search: searches } };
    },
    expect: searchFailed('fetch failed'),
    verify(outcome, { servers }) {
      expect(toolMessages(sentimentLast(servers))).toEqual(['Error: fetch failed']);
    },
  },
  {
    name: 'one good call and one bad call in the same turn: both answered, in call order, ok',
    async arrange(context) {
      const server = await context.openai(
        sentimentScript(
          toolCallAnswer([
            { id: 'call_a', name: 'place_order', arguments: { side: 'buy' } },
            { id: 'call_b', ...search() },
          ]),
        ),
      );
      return {
        deps: { model: context.model(server), market: fakeMarket(), search: provider(async () => [oneResult]) },
      };
    },
    expect: okRun,
    verify(outcome, { servers }) {
      const messages = sentimentLast(servers)?.body.messages.filter(
        (message: { role: string }) => message.role === 'tool',
      );
      expect(messages.map((message: { tool_call_id: string }) => message.tool_call_id)).toEqual(['call_a', 'call_b']);
      expect(messages[0].content).toBe("Error: unknown tool 'place_order'. Available tools: exa_search");
      expect(messages[1].content).toContain('"title":"Acme beats estimates"');
    },
  },
  {
    name: 'a model that keeps calling tools: 3 rounds, then one call with tool_choice "none" that answers, ok',
    async arrange(context) {
      const server = await context.openai(
        byAgent({
          sentiment: [
            (body) =>
              body.tool_choice === 'none' ? textAnswer(deskText.sentiment!) : toolCallAnswer([search('round 1')]),
            (body) =>
              body.tool_choice === 'none' ? textAnswer(deskText.sentiment!) : toolCallAnswer([search('round 2')]),
            (body) =>
              body.tool_choice === 'none' ? textAnswer(deskText.sentiment!) : toolCallAnswer([search('round 3')]),
            (body) =>
              body.tool_choice === 'none' ? textAnswer(deskText.sentiment!) : toolCallAnswer([search('round 4')]),
          ],
        }),
      );
      const searches = provider(async () => [oneResult]);
      context.defer(() => expect(searches.queries).toEqual(['round 1', 'round 2', 'round 3']));
      return { deps: { model: context.model(server), market: fakeMarket(), search: searches } };
    },
    expect: okRun,
    verify(outcome, { servers }) {
      expect(requestsOf(servers[0]!, 'sentiment').map((request) => request.body.tool_choice)).toEqual([
        'auto',
        'auto',
        'auto',
        'none',
      ]);
      expect(outcome.result?.reports[3]?.text).toBe(deskText.sentiment);
    },
  },
  {
    name: 'a model that calls tools even when told not to: Sentiment fails at the cap, degraded, exit 3',
    async arrange(context) {
      const again = () => toolCallAnswer([search()]);
      const server = await context.openai(byAgent({ sentiment: [again(), again(), again(), again()] }));
      const searches = provider(async () => [oneResult]);
      context.defer(() => expect(searches.queries).toHaveLength(3));
      return { deps: { model: context.model(server), market: fakeMarket(), search: searches } };
    },
    expect: () => {
      const error = 'model still requested tools after 3 tool rounds and a forced final answer (tool_choice "none")';
      return {
        exitCode: 3,
        result: {
          status: 'degraded',
          error: null,
          decision: true,
          reports: { ...allOk, sentiment: error },
          warnings: [`sentiment failed: ${error}`],
        },
      };
    },
  },
  {
    name: 'huge search results: every snippet shortened alike, the untrusted block closed and under 10,000 characters, ok',
    async arrange(context) {
      const server = await context.openai(sentimentScript(toolCallAnswer([{ id: 'call_h', ...search() }])));
      const huge = Array.from({ length: 10 }, (_, index): SearchResult => ({
        ...oneResult,
        url: `https://news.example/${index}`,
        snippet: 'word '.repeat(20_000),
      }));
      return { deps: { model: context.model(server), market: fakeMarket(), search: provider(async () => huge) } };
    },
    expect: okRun,
    verify(outcome, { servers }) {
      const [content = ''] = toolMessages(sentimentLast(servers));
      expect(content.length).toBeLessThanOrEqual(10_000);
      expect(content.endsWith(`\n${untrustedContentEnd}`)).toBe(true);
      const results = JSON.parse(content.split('\n')[1]!) as SearchResult[];
      expect(results).toHaveLength(10);
      for (const result of results) expect(result.snippet).toMatch(/^(word ){10,}word…$|^(word )+word…$/);
    },
  },
  {
    name: 'a search result with a 50,000-character title: still one closed block under 10,000 characters, ok',
    async arrange(context) {
      const server = await context.openai(sentimentScript(toolCallAnswer([{ id: 'call_t', ...search() }])));
      const giant: SearchResult = { ...oneResult, title: 'T'.repeat(50_000), author: 'A'.repeat(50_000) };
      return {
        deps: { model: context.model(server), market: fakeMarket(), search: provider(async () => [giant, oneResult]) },
      };
    },
    expect: okRun,
    verify(outcome, { servers }) {
      const [content = ''] = toolMessages(sentimentLast(servers));
      expect(content.length).toBeLessThanOrEqual(10_000);
      expect(content).not.toContain('[truncated:');
      expect(content.endsWith(`\n${untrustedContentEnd}`)).toBe(true);
      const results = JSON.parse(content.split('\n')[1]!) as SearchResult[];
      expect(results.map((result) => result.url)).toEqual([oneResult.url, oneResult.url]);
    },
  },
];

faultMatrix('fault matrix: tools', scenarios);

// Through the library: these limits are analyze() options, not CLI flags.
it('a tool that hangs and ignores its signal: the call times out as a tool message, the run completes ok', async () => {
  const server = await startOpenAIServer(
    byAgent({ sentiment: [toolCallAnswer([{ id: 'call_hang', ...search() }]), textAnswer(deskText.sentiment!)] }),
  );
  try {
    const hanging = provider(() => new Promise<SearchResult[]>(() => {}));
    const model = createOpenAIModel({ baseURL: server.url, apiKey: openaiCanary, maxRetries: 0 });
    const started = Date.now();
    const result = await analyze(
      'ACME',
      { asOf: fixedNow(), toolTimeoutMs: 200 },
      { model, market: fakeMarket(), search: hanging },
    );
    // The tool never settles: its 200 ms limit, not the hang, ended the call.
    expect(Date.now() - started).toBeLessThan(longBeforeTheHangEnds(neverEndsMs));
    expect(result.status).toBe('ok');
    expect(result.reports.map((report) => [report.agent, report.status])).toEqual([
      ['quant', 'ok'],
      ['risk', 'ok'],
      ['execution', 'ok'],
      ['sentiment', 'ok'],
    ]);
    expect(toolMessages(requestsOf(server, 'sentiment').at(-1))).toEqual([
      'Error: tool exa_search timed out after 200 ms',
    ]);
    expect(result.reports[3]?.toolCalls).toMatchObject([
      { name: 'exa_search', result: null, error: 'tool exa_search timed out after 200 ms' },
    ]);
  } finally {
    await server.close();
  }
}, 90_000);

it('an agent past its own time limit: that desk fails with the limit in its error, degraded', async () => {
  const server = await startOpenAIServer(byAgent({ quant: [{ hang: true }] }));
  // The limit applies to every desk: long enough for the three that answer at once, even on a loaded machine.
  const agentLimitMs = 5_000;
  try {
    const model = createOpenAIModel({ baseURL: server.url, apiKey: openaiCanary, maxRetries: 0 });
    const ends: Array<[string, string | null]> = [];
    const events = (event: RunEvent) => {
      if (event.type === 'agent-end') ends.push([event.agent, event.error]);
    };
    const result = await analyze(
      'ACME',
      { asOf: fixedNow(), agentTimeoutMs: agentLimitMs },
      { model, market: fakeMarket(), search: provider(async () => []), events },
    );
    expect(result.status).toBe('degraded');
    expect(result.reports.map((report) => [report.agent, report.status === 'ok' ? 'ok' : report.error])).toEqual([
      ['quant', 'timed out after 5 s'],
      ['risk', 'ok'],
      ['execution', 'ok'],
      ['sentiment', 'ok'],
    ]);
    expect(result.warnings).toEqual(['quant failed: timed out after 5 s']);
    // Progress and the transcript hear the same reason as the report, not "interrupted".
    expect(ends).toContainEqual(['quant', 'timed out after 5 s']);
  } finally {
    await server.close();
  }
});
