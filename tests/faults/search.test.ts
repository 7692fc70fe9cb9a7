// --search: which source backs Sentiment's search tool. OpenAI's built-in search runs
// inside the tool (the search model takes no function tools), against the loopback
// OpenAI-compatible server through the real openai SDK; `none` binds no tool at all.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { createExaProvider } from '../../src/search/exa.js';
import type { SearchResult } from '../../src/search/types.js';
import { untrustedContentEnd } from '../../src/tools/untrusted.js';
import {
  allOk,
  byAgent,
  deskText,
  exaCanary,
  faultMatrix,
  requestsOf,
  toolMessages,
  type FaultScenario,
} from '../support/faults.js';
import { fakeMarket } from '../support/market.js';
import { textAnswer, toolCallAnswer, type OpenAIServer } from '../support/openai-server.js';
import {
  isSearchRequest,
  searchAnswer,
  searchUsage,
  threeCitations,
  withSearchModel,
} from '../support/search-model.js';

const searchCall = toolCallAnswer([
  { id: 'call_web', name: 'exa_search', arguments: { query: 'Acme Robotics news', numResults: 5, daysBack: 30 } },
]);
/** A fresh script per scenario: its queues are used up as the run goes. */
const sentimentSearches = () => byAgent({ sentiment: [searchCall, textAnswer(deskText.sentiment!)] });
const searchRequests = (server: OpenAIServer) => server.requests.filter((request) => isSearchRequest(request.body));
const deskRequests = (server: OpenAIServer) =>
  requestsOf(server, 'sentiment').filter((request) => !isSearchRequest(request.body));
const noCitations =
  "the OpenAI web search returned no citations (model 'gpt-4o-mini-search-preview-2025-03-11'), so nothing it said is backed by a source";

const scenarios: FaultScenario[] = [
  {
    name: '--search openai: the search model is asked with web_search_options and no tools or temperature; three citations reach Sentiment as three results; priced, ok',
    async arrange(context) {
      const server = await context.openai(withSearchModel(() => searchAnswer(threeCitations), sentimentSearches()));
      return {
        argv: ['analyze', 'ACME', '--json', '--search', 'openai', '--base-url', server.url],
        deps: { model: context.model(server), market: fakeMarket() },
      };
    },
    expect: { exitCode: 0, result: { status: 'ok', error: null, decision: true, reports: allOk, warnings: [] } },
    verify(outcome, { servers }) {
      const [search, ...more] = searchRequests(servers[0]!);
      expect(more).toEqual([]);
      expect(search?.headers['x-autohedge-agent']).toBe('sentiment');
      expect(search?.body).toMatchObject({
        model: 'gpt-4o-mini-search-preview',
        web_search_options: { search_context_size: 'low' },
      });
      expect(search?.body).not.toHaveProperty('tools');
      expect(search?.body).not.toHaveProperty('temperature');
      expect(search?.body).not.toHaveProperty('stream');
      const prompt: string = search?.body.messages[0].content;
      expect(prompt).toContain('Acme Robotics news');
      expect(prompt).toContain('from 2026-10-29 to 2026-11-28');

      // Sentiment's own requests carry the tool as ever; its second one carries the results.
      const desk = deskRequests(servers[0]!);
      expect(desk[0]?.body.tools.map((tool: { function: { name: string } }) => tool.function.name)).toEqual([
        'exa_search',
      ]);
      const [block = ''] = toolMessages(desk[1]);
      const lines = block.split('\n');
      expect(lines[0]).toMatch(/^<<<UNTRUSTED WEB CONTENT: 3 search results for "Acme Robotics news"/);
      expect(lines[2]).toBe(untrustedContentEnd);
      const results = JSON.parse(lines[1]!) as SearchResult[];
      expect(results.map((result) => [result.title, result.url])).toEqual(
        threeCitations.map((citation) => [citation.title, citation.url]),
      );
      results.forEach((result, index) => expect(result.snippet).toContain(threeCitations[index]!.text));

      expect(outcome.result?.search).toEqual({ provider: 'openai', model: 'gpt-4o-mini-search-preview' });
      const expectedCost = 0.025 + (searchUsage.prompt_tokens * 0.15 + searchUsage.completion_tokens * 0.6) / 1e6;
      expect(outcome.result?.usage.search).toEqual({
        provider: 'openai',
        model: 'gpt-4o-mini-search-preview-2025-03-11',
        searches: 1,
        promptTokens: searchUsage.prompt_tokens,
        completionTokens: searchUsage.completion_tokens,
        costUsd: expect.closeTo(expectedCost, 10),
      });
      const agentsCost = Object.values(outcome.result?.usage.byAgent ?? {}).reduce(
        (sum, agent) => sum + (agent.costUsd ?? 0),
        0,
      );
      expect(outcome.result?.usage.costUsd).toBeCloseTo(agentsCost + expectedCost, 10);
    },
  },
  {
    name: '--search openai, an answer without citations: an Error tool result (memory is not search), still billed, the run ends ok',
    async arrange(context) {
      const server = await context.openai(withSearchModel(() => searchAnswer([]), sentimentSearches()));
      return {
        argv: ['analyze', 'ACME', '--json', '--search', 'openai', '--base-url', server.url],
        deps: { model: context.model(server), market: fakeMarket() },
      };
    },
    expect: {
      exitCode: 0,
      result: {
        status: 'ok',
        error: null,
        decision: true,
        reports: allOk,
        warnings: [`sentiment: every tool call failed (${noCitations}); its report rests on no tool results`],
      },
    },
    verify(outcome, { servers }) {
      expect(toolMessages(deskRequests(servers[0]!)[1])).toEqual([`Error: ${noCitations}`]);
      expect(outcome.result?.reports[3]?.toolCalls.map((call) => call.error)).toEqual([noCitations]);
      expect(outcome.result?.usage.search).toMatchObject({ searches: 1, promptTokens: searchUsage.prompt_tokens });
    },
  },
  {
    name: '--search none: Sentiment is sent no tools, is told there is no search, and the run warns; ok',
    async arrange(context) {
      const server = await context.openai(byAgent());
      return {
        argv: ['analyze', 'ACME', '--json', '--search', 'none'],
        deps: { model: context.model(server), market: fakeMarket() },
      };
    },
    expect: {
      exitCode: 0,
      result: {
        status: 'ok',
        error: null,
        decision: true,
        reports: allOk,
        warnings: ['sentiment: no web search in this run (--search none); its report rests on no news search'],
      },
    },
    verify(outcome, { servers }) {
      const [request, ...more] = deskRequests(servers[0]!);
      expect(more).toEqual([]);
      expect(request?.body).not.toHaveProperty('tools');
      expect(JSON.stringify(request?.body.messages)).toContain(
        'No web search is available in this run (--search none)',
      );
      expect(searchRequests(servers[0]!)).toEqual([]);
      expect(outcome.result?.search).toEqual({ provider: 'none', model: null });
      expect(outcome.result?.usage.search).toBeUndefined();
    },
  },
  {
    name: '--search none with --agent quant: no desk of the run searches, so no warning; ok',
    async arrange(context) {
      const server = await context.openai(byAgent());
      return {
        argv: ['analyze', 'ACME', '--json', '--search', 'none', '--agent', 'quant'],
        deps: { model: context.model(server), market: fakeMarket() },
      };
    },
    expect: {
      exitCode: 0,
      result: { status: 'ok', error: null, decision: false, reports: { quant: 'ok' }, warnings: [] },
    },
  },
  {
    name: 'AUTOHEDGE_SEARCH=none does the same as --search none',
    async arrange(context) {
      const server = await context.openai(byAgent());
      return {
        deps: { model: context.model(server), market: fakeMarket() },
        io: { env: { ...context.io.env, AUTOHEDGE_SEARCH: 'none' } },
      };
    },
    expect: {
      exitCode: 0,
      result: {
        status: 'ok',
        error: null,
        decision: true,
        reports: allOk,
        warnings: ['sentiment: no web search in this run (--search none); its report rests on no news search'],
      },
    },
  },
  {
    name: '--search bing: a usage error naming the choices, no request, exit 2',
    async arrange(context) {
      const server = await context.openai(byAgent());
      context.defer(() => expect(server.requests).toEqual([]));
      return {
        argv: ['analyze', 'ACME', '--json', '--search', 'bing'],
        deps: { model: context.model(server), market: fakeMarket() },
      };
    },
    expect: {
      exitCode: 2,
      result: null,
      stderr: "autohedge: --search must be one of exa, openai, none (got 'bing')",
    },
  },
  {
    name: 'AUTOHEDGE_SEARCH=google: a configuration error naming the variable, exit 2',
    async arrange(context) {
      const server = await context.openai(byAgent());
      return {
        deps: { model: context.model(server), market: fakeMarket() },
        io: { env: { ...context.io.env, AUTOHEDGE_SEARCH: 'google' } },
      };
    },
    expect: {
      exitCode: 2,
      result: null,
      stderr: "autohedge: AUTOHEDGE_SEARCH must be one of exa, openai, none (got 'google')",
    },
  },
  {
    name: '--max-cost leaves no room for a search (Exa priced at $1 by AUTOHEDGE_PRICES): the search is not made, the model and the user are told; ok',
    async arrange(context) {
      const server = await context.openai(sentimentSearches());
      const exa = await context.exa();
      context.defer(() => expect(exa.requests).toEqual([]));
      const prices = join(mkdtempSync(join(tmpdir(), 'autohedge-search-prices-')), 'prices.json');
      writeFileSync(prices, JSON.stringify({ exa: { perCall: 1 } }));
      return {
        argv: ['analyze', 'ACME', '--json', '--max-cost', '0.5'],
        deps: {
          model: context.model(server),
          market: fakeMarket(),
          search: createExaProvider({ apiKey: exaCanary, baseURL: exa.baseURL }),
        },
        io: { env: { ...context.io.env, AUTOHEDGE_PRICES: prices } },
      };
    },
    expect: () => {
      return {
        exitCode: 0,
        result: {
          status: 'ok',
          error: null,
          decision: true,
          reports: allOk,
          warnings: [
            expect.stringMatching(
              /^--max-cost \$0\.5000 reached: the next exa search could cost up to \$1\.0000 \(spent \$0\.\d{4}, in flight up to \$0\.\d{4}\); the call was not made$/,
            ) as unknown as string,
            expect.stringContaining(
              `sentiment: every tool call failed (--max-cost $0.5000 reached: the next exa search`,
            ) as unknown as string,
          ],
        },
      };
    },
  },
];

faultMatrix('search providers', scenarios);
