import { AutohedgeError } from '../errors.js';
import type { Usage } from '../llm/types.js';

/** The search sources `--search` chooses between; `none` binds no search tool at all. */
export const searchProviderIds = ['exa', 'openai'] as const;
export type SearchProviderId = (typeof searchProviderIds)[number];
export const searchChoices = [...searchProviderIds, 'none'] as const;
export type SearchChoice = (typeof searchChoices)[number];
/** The default search source: Exa, as before `--search` existed. */
export const defaultSearchChoice: SearchChoice = 'exa';

export interface SearchRequest {
  query: string;
  numResults: number;
  /** ISO 8601 instant. */
  startPublishedDate: string;
  /** ISO 8601 instant: the run's clock. Nothing published after it may reach the model. */
  endPublishedDate: string;
  /**
   * The run's clock is in the past (`--as-of`): results without a date are dropped too,
   * because nothing shows they were published before the as-of day.
   */
  historical?: boolean;
}

export interface SearchResult {
  title: string | null;
  url: string;
  publishedDate: string | null;
  author: string | null;
  snippet: string;
}

/** What one search cost beyond its fee: the tokens a model-backed search spent. */
export interface SearchOutcome {
  results: SearchResult[];
  /** Set by a provider that asks a model (OpenAI's built-in search). */
  usage?: Usage;
  /** The model that answered, when one did. */
  model?: string;
}

export interface SearchProvider {
  /** Which source backs the search tool (`autohedge tools`, the report). Fakes may leave it out. */
  readonly id?: SearchProviderId;
  /** The model a model-backed provider asks, for pricing and `autohedge tools`. */
  readonly model?: string;
  /** The answer cap of a model-backed search: the budget's worst case for its output tokens. */
  readonly maxTokens?: number;
  /** `agent`, the calling agent's id, goes out as a request header so a replay miss can name it. */
  search(request: SearchRequest, signal: AbortSignal, agent?: string): Promise<SearchResult[] | SearchOutcome>;
  /** Start loading the client in the background, so the first search does not wait for it. */
  prepare?(): void;
}

/** Providers may answer with bare results (fakes, Exa) or with what the search spent. */
export function outcomeOf(answer: SearchResult[] | SearchOutcome): SearchOutcome {
  return Array.isArray(answer) ? { results: answer } : answer;
}

export type SearchErrorKind =
  | 'authentication'
  | 'rate-limited'
  | 'server'
  | 'bad-request'
  | 'timeout'
  | 'invalid-response'
  | 'connection'
  | 'aborted'
  | 'no-citations';

/** A search failed; the message is safe to show a model or a user (never holds the key). */
export class SearchError extends AutohedgeError {
  constructor(
    message: string,
    readonly kind: SearchErrorKind,
    readonly status: number | null = null,
    /** What a model-backed search spent before it failed (an answer without citations is billed too). */
    readonly spent?: { usage: Usage; model: string },
  ) {
    super(message);
  }
}
