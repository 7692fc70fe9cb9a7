// Fault matrix, Exa: the real exa-js client (through createExaProvider) against the
// loopback Exa stub. Whatever Exa does, Sentiment reads one line of error text as its
// tool message, answers without the news, and the run completes.
import { expect } from 'vitest';
import { createExaProvider } from '../../src/search/exa.js';
import { type ExaStubReply } from '../support/exa-server.js';
import { closedPortURL } from '../support/local-server.js';
import { fakeMarket } from '../support/market.js';
import {
  allOk,
  byAgent,
  deskText,
  exaCanary,
  faultMatrix,
  requestsOf,
  toolMessages,
  type FaultContext,
  type FaultScenario,
} from '../support/faults.js';
import { textAnswer, toolCallAnswer } from '../support/openai-server.js';

const okRun = {
  exitCode: 0,
  result: { status: 'ok' as const, error: null, decision: true, reports: allOk, warnings: [] as string[] },
};

/** Sentiment searches once, then answers. */
async function sentimentSearching(context: FaultContext) {
  return context.openai(
    byAgent({
      sentiment: [
        toolCallAnswer([
          {
            id: 'call_exa',
            name: 'exa_search',
            arguments: { query: 'Acme Robotics news', numResults: 5, daysBack: 30 },
          },
        ]),
        textAnswer(deskText.sentiment!),
      ],
    }),
  );
}

/** One row: Exa answers `reply` (or is configured by `provider`), Sentiment must read `toolMessage`. */
function exaRow(
  name: string,
  toolMessage: string,
  arrangeExa: (context: FaultContext) => Promise<{ baseURL: string; apiKey?: string; timeoutMs?: number }>,
  sent = 1,
): FaultScenario {
  return {
    name,
    async arrange(context) {
      const server = await sentimentSearching(context);
      const exa = await arrangeExa(context);
      return {
        deps: {
          model: context.model(server),
          market: fakeMarket(),
          search: createExaProvider({
            apiKey: 'apiKey' in exa ? exa.apiKey : exaCanary,
            baseURL: exa.baseURL,
            timeoutMs: exa.timeoutMs ?? 2_000,
          }),
        },
      };
    },
    // Sentiment answers without news; the run stays ok and says so.
    expect: {
      ...okRun,
      result: {
        ...okRun.result,
        warnings: [`sentiment: every tool call failed (${toolMessage}); its report rests on no tool results`],
      },
    },
    verify(outcome, { servers, stubs }) {
      const messages = requestsOf(servers[0]!, 'sentiment').at(-1)?.body.messages;
      expect(messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'call_exa', content: `Error: ${toolMessage}` });
      expect(toolMessages(requestsOf(servers[0]!, 'sentiment').at(-1))).toEqual([`Error: ${toolMessage}`]);
      expect(outcome.result?.reports[3]?.toolCalls).toMatchObject([
        { name: 'exa_search', result: null, error: toolMessage },
      ]);
      const requests = stubs[0]?.requests ?? [];
      expect(requests).toHaveLength(sent);
      for (const request of requests) expect(request.headers.authorization).toBe(`Bearer ${exaCanary}`);
    },
  };
}

/** Exa answers every search with this reply; its error bodies echo the key it was sent. */
const answering = (reply: ExaStubReply) => async (context: FaultContext) => {
  const stub = await context.exa(reply);
  return { baseURL: stub.baseURL };
};
const echoingKey = (status: number, error: string) => async (context: FaultContext) => {
  const stub = await context.exa((request) => ({
    status,
    body: { requestId: 'r1', error: `${error} (key ${String(request.headers.authorization)})` },
  }));
  return { baseURL: stub.baseURL };
};

const scenarios: FaultScenario[] = [
  exaRow(
    'EXA_API_KEY missing: a not-configured message, no request sent, ok',
    'exa_search is not configured: set EXA_API_KEY',
    async (context) => {
      const stub = await context.exa();
      return { baseURL: stub.baseURL, apiKey: undefined };
    },
    0,
  ),
  exaRow(
    'Exa 401 (the body echoes the key): the key rejected, the key itself never shown, ok',
    'Exa rejected the API key (401)',
    echoingKey(401, 'Invalid API key'),
  ),
  exaRow(
    'Exa 429: rate limit, ok',
    'Exa rate limit reached (429); try again later',
    echoingKey(429, 'Too many requests'),
  ),
  exaRow(
    'Exa 502: service error, ok',
    'Exa service error (502)',
    answering({ status: 502, body: '<html>Bad Gateway</html>', contentType: 'text/html' }),
  ),
  exaRow('Exa never answers: timed out, ok', 'Exa search timed out after 300 ms', async (context) => {
    const stub = await context.exa({ hang: true });
    return { baseURL: stub.baseURL, timeoutMs: 300 };
  }),
  exaRow(
    'Exa answers 200 with a body that is not JSON: malformed response, ok',
    'Exa returned a malformed response',
    answering({ status: 200, body: '<html>maintenance</html>', contentType: 'text/html' }),
  ),
  exaRow(
    'Exa answers JSON of the wrong shape: malformed response, ok',
    'Exa returned a malformed response',
    answering({ status: 200, body: { results: [{ title: 'no url' }] } }),
  ),
  {
    ...exaRow(
      'Exa unreachable (connection refused): could not reach Exa, ok',
      'could not reach Exa',
      async () => ({ baseURL: await closedPortURL() }),
      0,
    ),
  },
  {
    name: 'Exa redirects (307) to another origin: that origin never receives the key; the run is ok',
    async arrange(context) {
      const server = await sentimentSearching(context);
      const elsewhere = await context.exa({
        body: {
          requestId: 'r',
          results: [
            { url: 'https://news.example.com/a', title: 'Elsewhere', publishedDate: '2026-11-20T00:00:00.000Z' },
          ],
        },
      });
      const exa = await context.exa({ status: 307, body: '', headers: { location: `${elsewhere.baseURL}/search` } });
      return {
        deps: {
          model: context.model(server),
          market: fakeMarket(),
          search: createExaProvider({ apiKey: exaCanary, baseURL: exa.baseURL, timeoutMs: 2_000 }),
        },
      };
    },
    expect: okRun,
    verify(outcome, { stubs }) {
      const [elsewhere, exa] = stubs;
      expect(exa?.requests.map((request) => request.headers.authorization)).toEqual([`Bearer ${exaCanary}`]);
      expect(elsewhere?.requests).toHaveLength(1);
      expect(JSON.stringify(elsewhere?.requests[0]?.headers)).not.toContain(exaCanary);
      expect(outcome.result?.reports[3]?.toolCalls[0]?.result).toContain('Elsewhere');
    },
  },
  {
    name: 'a 10 MB query: refused by the tool schema before any request (at most 400 characters); ok',
    async arrange(context) {
      const server = await context.openai(
        byAgent({
          sentiment: [
            toolCallAnswer([{ id: 'call_exa', name: 'exa_search', arguments: { query: 'a'.repeat(10_000_000) } }]),
            textAnswer(deskText.sentiment!),
          ],
        }),
      );
      const exa = await context.exa();
      return {
        deps: {
          model: context.model(server),
          market: fakeMarket(),
          search: createExaProvider({ apiKey: exaCanary, baseURL: exa.baseURL }),
        },
      };
    },
    expect: {
      ...okRun,
      result: {
        ...okRun.result,
        warnings: [
          'sentiment: every tool call failed (Invalid arguments for exa_search: query: Too big: expected string to have <=400 characters); its report rests on no tool results',
        ],
      },
    },
    verify(_outcome, { stubs }) {
      expect(stubs[0]?.requests).toEqual([]);
    },
  },
  {
    name: 'Exa returns a page dated after the run clock: dropped from the tool output, and said so; ok',
    async arrange(context) {
      const server = await sentimentSearching(context);
      const exa = await context.exa({
        body: {
          requestId: 'r',
          results: [
            { url: 'https://news.example.com/old', title: 'Before the run', publishedDate: '2026-11-20T00:00:00.000Z' },
            {
              url: 'https://news.example.com/future',
              title: 'From the future',
              publishedDate: '2026-12-24T00:00:00.000Z',
            },
          ],
        },
      });
      return {
        deps: {
          model: context.model(server),
          market: fakeMarket(),
          search: createExaProvider({ apiKey: exaCanary, baseURL: exa.baseURL }),
        },
      };
    },
    expect: okRun,
    verify(outcome, { stubs }) {
      expect((stubs[0]?.requests[0]?.body as { endPublishedDate: string }).endPublishedDate).toBe(
        '2026-11-28T12:00:00.000Z',
      );
      const result = outcome.result?.reports[3]?.toolCalls[0]?.result ?? '';
      expect(result).toContain('Before the run');
      expect(result).not.toContain('From the future');
      expect(result).toContain('(1 dated after the window dropped)');
    },
  },
];

faultMatrix('fault matrix: Exa', scenarios);
