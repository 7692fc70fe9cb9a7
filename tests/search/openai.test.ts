import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { createOpenAISearchClient } from '../../src/llm/openai-search.js';
import { citationsToResults, citedSpan, createOpenAISearchProvider } from '../../src/search/openai.js';
import { SearchError, outcomeOf, type SearchRequest } from '../../src/search/types.js';
import { captureIo } from '../support/cli.js';
import { errorReply, startOpenAIServer, type OpenAIServer, type Reply } from '../support/openai-server.js';
import { searchAnswer, threeCitations } from '../support/search-model.js';

const request: SearchRequest = {
  query: 'Acme Robotics news',
  numResults: 2,
  startPublishedDate: '2026-10-29T12:00:00.000Z',
  endPublishedDate: '2026-11-28T12:00:00.000Z',
};
const apiKey = 'sk-test-search-5f3c9a17b2';
let server: OpenAIServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function providerAnswering(...replies: Reply[]) {
  server = await startOpenAIServer(replies);
  return createOpenAISearchProvider({
    client: createOpenAISearchClient({ apiKey, baseURL: server.url, maxRetries: 0, timeoutMs: 2_000 }),
  });
}

describe('the OpenAI search provider over the real SDK', () => {
  it('keeps at most numResults citations, with the agent header and the key as the chat client sends them', async () => {
    const provider = await providerAnswering(searchAnswer(threeCitations));
    const outcome = outcomeOf(await provider.search(request, new AbortController().signal, 'sentiment'));

    expect(outcome.results.map((result) => result.url)).toEqual(
      threeCitations.slice(0, 2).map((citation) => citation.url),
    );
    expect(outcome.usage).toEqual({ promptTokens: 3_000, completionTokens: 200, cachedPromptTokens: 0 });
    const sent = server!.requests[0]!;
    expect(sent.headers.authorization).toBe(`Bearer ${apiKey}`);
    expect(sent.headers['x-autohedge-agent']).toBe('sentiment');
    expect(sent.body).toEqual({
      model: 'gpt-4o-mini-search-preview',
      messages: [
        {
          role: 'user',
          content:
            'Search the web for: Acme Robotics news\nOnly use pages published from 2026-10-29 to 2026-11-28.\nName the 2 most relevant sources at most, each with one or two sentences on what it reports, and cite every source.',
        },
      ],
      web_search_options: { search_context_size: 'low' },
      max_completion_tokens: 1_200,
    });
  });

  it.each([
    [401, { message: `Incorrect API key provided: ${apiKey}`, code: 'invalid_api_key' }, 'authentication'],
    [429, { message: 'Rate limit reached', code: 'rate_limit_exceeded' }, 'rate-limited'],
    [404, { message: 'The model does not exist', code: 'model_not_found' }, 'bad-request'],
  ] as const)('a %i becomes a SearchError the model can read, without the key', async (status, error, kind) => {
    const provider = await providerAnswering(errorReply(status, error));
    const thrown = await provider.search(request, new AbortController().signal).catch((caught: unknown) => caught);

    expect(thrown).toBeInstanceOf(SearchError);
    expect((thrown as SearchError).kind).toBe(kind);
    expect((thrown as SearchError).message).toMatch(/^OpenAI web search failed: /);
    expect((thrown as SearchError).message).not.toContain(apiKey);
  });

  it('a malformed answer is an error, not an empty search', async () => {
    const provider = await providerAnswering({ json: { choices: [] } });
    await expect(provider.search(request, new AbortController().signal)).rejects.toThrow(
      "OpenAI web search failed: the search model 'gpt-4o-mini-search-preview' returned a malformed answer",
    );
  });
});

describe('citations to results', () => {
  const content = 'Intro sentence. Acme won an order. The order is for 40 robots. Shares rose 3 %. Unrelated close.';
  const start = content.indexOf('The order');
  const end = start + 'The order is for 40 robots.'.length;

  it('the cited sentence with one sentence either side', () => {
    expect(citedSpan(content, start, end).trim()).toBe(
      'Acme won an order. The order is for 40 robots. Shares rose 3 %.',
    );
    expect(citedSpan(content, 0, 5).trim()).toBe('Intro sentence. Acme won an order.');
    // Out-of-range indexes (an untrusted server's) are clamped, never thrown on.
    expect(citedSpan(content, -10, 10_000)).toBe(content);
  });

  it('one result per URL, first citation wins; only http(s) URLs; empty titles become null', () => {
    const results = citationsToResults(content, [
      { url: 'https://a.example/x', title: 'A', startIndex: start, endIndex: end },
      { url: 'https://a.example/x', title: 'A again', startIndex: 0, endIndex: 5 },
      { url: 'javascript:alert(1)', title: 'bad', startIndex: 0, endIndex: 5 },
      { url: 'https://b.example/y', title: ' ', startIndex: 0, endIndex: 5 },
    ]);
    expect(results.map((result) => [result.url, result.title])).toEqual([
      ['https://a.example/x', 'A'],
      ['https://b.example/y', null],
    ]);
    expect(results[0]).toMatchObject({
      publishedDate: null,
      author: null,
      snippet: 'Acme won an order. The order is for 40 robots. Shares rose 3 %.',
    });
  });
});

describe('autohedge tools names the provider behind exa_search', () => {
  it.each([
    [[], {}, 'exa_search: backed by Exa (EXA_API_KEY)'],
    [
      ['--search', 'openai'],
      {},
      "exa_search: backed by OpenAI's built-in web search (model gpt-4o-mini-search-preview, OPENAI_API_KEY)",
    ],
    [
      [],
      { AUTOHEDGE_SEARCH: 'openai', AUTOHEDGE_SEARCH_MODEL: 'gpt-5-search-api' },
      "exa_search: backed by OpenAI's built-in web search (model gpt-5-search-api, OPENAI_API_KEY)",
    ],
    [['--search', 'none'], {}, 'exa_search: not bound: --search none, Sentiment runs without a search tool'],
  ])('%j %j', async (args, env, line) => {
    const io = captureIo();
    const code = await runCli(['tools', ...args], { ...io, env: { ...io.env, ...env } }, {});
    expect(code).toBe(0);
    expect(io.out()).toContain(`\n  ${line}\n`);
  });

  it('--json carries provider and model beside the unchanged definition', async () => {
    const io = captureIo();
    await runCli(['tools', '--json', '--search', 'openai'], io, {});
    const [tool] = JSON.parse(io.out()) as Array<{
      name: string;
      provider: string;
      model: string;
      definition: { function: { name: string } };
    }>;
    expect(tool).toMatchObject({
      name: 'exa_search',
      provider: 'openai',
      model: 'gpt-4o-mini-search-preview',
      definition: { function: { name: 'exa_search' } },
    });
  });
});
