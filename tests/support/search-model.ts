/**
 * What an OpenAI search model (gpt-4o-mini-search-preview) answers over Chat Completions:
 * a whole (not streamed) completion whose message carries `url_citation` annotations,
 * in the shape of OpenAI's API reference. For the loopback OpenAI-compatible server.
 */
import type { RecordedRequest, Reply } from './openai-server.js';

export interface Citation {
  url: string;
  title: string;
  /** The cited text; it is placed in the answer and indexed as OpenAI indexes it. */
  text: string;
}

export const searchUsage = { prompt_tokens: 3_000, completion_tokens: 200 };

export function searchAnswer(citations: readonly Citation[], model = 'gpt-4o-mini-search-preview-2025-03-11'): Reply {
  let content = 'Here is what recent coverage says.';
  const annotations = citations.map((citation) => {
    content += ' ';
    const start = content.length;
    content += `${citation.text} ([${new URL(citation.url).host}](${citation.url}))`;
    return {
      type: 'url_citation',
      url_citation: { start_index: start, end_index: content.length, title: citation.title, url: citation.url },
    };
  });
  content += ' Coverage is mixed overall.';
  return {
    json: {
      id: 'chatcmpl-search',
      object: 'chat.completion',
      created: 1_764_000_000,
      model,
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content, refusal: null, annotations },
          finish_reason: 'stop',
          logprobs: null,
        },
      ],
      usage: { ...searchUsage, total_tokens: searchUsage.prompt_tokens + searchUsage.completion_tokens },
    },
  };
}

/** True for the search model's request (it alone carries web_search_options). */
export const isSearchRequest = (body: any): boolean => body?.web_search_options !== undefined;

/** Answers search-model requests with `search`, everything else with `inner`. */
export function withSearchModel<Result extends Reply | Promise<Reply>>(
  search: (body: any) => Reply,
  inner: (body: any, index: number, request: RecordedRequest) => Result,
): (body: any, index: number, request: RecordedRequest) => Reply | Result {
  return (body: any, index: number, request: RecordedRequest) =>
    isSearchRequest(body) ? search(body) : inner(body, index, request);
}

export const threeCitations: Citation[] = [
  {
    url: 'https://news.example.com/acme-order',
    title: 'Acme Robotics wins a large order',
    text: 'Acme Robotics won a 40-robot order from a carmaker.',
  },
  {
    url: 'https://markets.example.org/acme-guidance',
    title: 'Acme raises guidance',
    text: 'Acme raised its full-year guidance by 5 %.',
  },
  {
    url: 'https://blog.example.net/acme-short',
    title: 'Why one fund is short Acme',
    text: 'A hedge fund disclosed a short position, citing margins.',
  },
];
