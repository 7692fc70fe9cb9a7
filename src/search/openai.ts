import { isoDay } from '../clock.js';
import { ModelError, type ModelErrorKind } from '../errors.js';
import type { OpenAISearchClient, SearchContextSize, UrlCitation } from '../llm/openai-search.js';
import { capText } from '../text.js';
import { SearchError, type SearchErrorKind, type SearchProvider, type SearchResult } from './types.js';

/**
 * Web search through OpenAI's built-in search, for a user with only an OpenAI key.
 * Chat Completions refuses `{"type":"web_search"}` among function tools, and the search
 * models take no function tools, so the built-in search runs inside the search tool:
 * Sentiment's model calls the same tool as with Exa; behind it this provider asks a
 * search model and turns its `url_citation` annotations into results.
 */

/** The cheapest current Chat Completions search model; AUTOHEDGE_SEARCH_MODEL overrides it. */
export const defaultOpenAISearchModel = 'gpt-4o-mini-search-preview';
export const defaultSearchContextSize: SearchContextSize = 'low';
/** The answer is a list of sources with a sentence each: this bounds its cost. */
export const searchAnswerMaxTokens = 1_200;
const snippetMaxCharacters = 1_000;

export interface OpenAISearchProviderOptions {
  client: OpenAISearchClient;
  model?: string;
  searchContextSize?: SearchContextSize;
}

export function createOpenAISearchProvider(options: OpenAISearchProviderOptions): SearchProvider {
  const model = options.model ?? defaultOpenAISearchModel;
  const searchContextSize = options.searchContextSize ?? defaultSearchContextSize;
  return {
    id: 'openai',
    model,
    maxTokens: searchAnswerMaxTokens,
    async search(request, signal, agent) {
      if (signal.aborted) throw new SearchError('OpenAI web search was cancelled', 'aborted');
      const prompt = [
        `Search the web for: ${request.query}`,
        `Only use pages published from ${isoDay(new Date(request.startPublishedDate))} to ${isoDay(new Date(request.endPublishedDate))}.`,
        `Name the ${request.numResults} most relevant sources at most, each with one or two sentences on what it reports, and cite every source.`,
      ].join('\n');
      let answer;
      try {
        answer = await options.client.search({
          model,
          prompt,
          searchContextSize,
          maxTokens: searchAnswerMaxTokens,
          agent,
          signal,
        });
      } catch (error) {
        throw error instanceof ModelError
          ? new SearchError(`OpenAI web search failed: ${error.message}`, searchKind(error.kind), error.status)
          : error;
      }
      const results = citationsToResults(answer.content, answer.citations).slice(0, request.numResults);
      if (results.length === 0) {
        // A server that ignores web_search_options answers from memory: that is not a search.
        throw new SearchError(
          `the OpenAI web search returned no citations (model '${answer.model}'), so nothing it said is backed by a source`,
          'no-citations',
          null,
          { usage: answer.usage, model: answer.model },
        );
      }
      return { results, usage: answer.usage, model: answer.model };
    },
  };
}

function searchKind(kind: ModelErrorKind): SearchErrorKind {
  if (
    kind === 'authentication' ||
    kind === 'rate-limited' ||
    kind === 'timeout' ||
    kind === 'aborted' ||
    kind === 'connection' ||
    kind === 'server' ||
    kind === 'bad-request'
  )
    return kind;
  if (kind === 'quota') return 'rate-limited';
  if (kind === 'model-not-found') return 'bad-request';
  return 'invalid-response';
}

/** One result per cited URL, in the order first cited; the snippet is the cited span and a sentence either side. */
export function citationsToResults(content: string, citations: readonly UrlCitation[]): SearchResult[] {
  const byUrl = new Map<string, SearchResult>();
  for (const citation of citations) {
    if (byUrl.has(citation.url) || !/^https?:\/\//i.test(citation.url)) continue;
    byUrl.set(citation.url, {
      title: citation.title.trim() === '' ? null : citation.title,
      url: citation.url,
      publishedDate: null,
      author: null,
      snippet: capText(
        citedSpan(content, citation.startIndex, citation.endIndex).replace(/\s+/g, ' ').trim(),
        snippetMaxCharacters,
      ),
    });
  }
  return [...byUrl.values()];
}

const sentences = new Intl.Segmenter('en', { granularity: 'sentence' });

/** The sentences holding [start, end) of `content`, with one more sentence before and after. */
export function citedSpan(content: string, start: number, end: number): string {
  const from = Math.max(0, Math.min(start, content.length));
  const to = Math.max(from, Math.min(end, content.length));
  const segments = [...sentences.segment(content)];
  const first = segments.findIndex((segment) => segment.index + segment.segment.length > from);
  if (first === -1) return content.slice(from, to);
  let last = first;
  while (last + 1 < segments.length && (segments[last + 1]?.index ?? Infinity) < to) last += 1;
  const opening = segments[Math.max(0, first - 1)];
  const closing = segments[Math.min(segments.length - 1, last + 1)];
  return content.slice(opening?.index ?? from, closing ? closing.index + closing.segment.length : to);
}
