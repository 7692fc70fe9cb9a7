import { z } from 'zod';
import type { Exa } from 'exa-js';
import { agentHeader } from '../constants.js';
import { ConfigError } from '../errors.js';
import { capText } from '../text.js';
import { SearchError, type SearchProvider, type SearchResult } from './types.js';

/**
 * Web search through Exa. The only importer of exa-js, and only lazily: building the
 * provider loads nothing, so `autohedge tools` and CLI start-up never pay for the SDK
 * and never need a key. Exa's vendor facts (endpoint, path, auth header) live here.
 */

export interface ExaProviderOptions {
  apiKey: string | undefined;
  baseURL?: string;
  /** exa-js has no timeout of its own. Default 20 s. */
  timeoutMs?: number;
}

export const defaultSearchTimeoutMs = 20_000;
/** Snippets are bounded: a result is a lead to follow, not a page to read. */
export const snippetMaxCharacters = 1_000;
/** Exa's list price includes contents for up to 10 results; more cost extra. */
export const exaMaxResults = 10;

export const exaDefaultBaseUrl = 'https://api.exa.ai';
export const exaSearchPath = '/search';

export const notConfiguredMessage = 'exa_search is not configured: set EXA_API_KEY';

/**
 * The base URL of the Exa endpoint a recorded search request went to, or undefined
 * when `url` is no Exa search: what a replay needs to point the provider at the
 * recorded server (api.exa.ai, or a local stub) without the cassette code knowing Exa's paths.
 */
export function exaBaseUrlOf(url: string): string | undefined {
  const parsed = new URL(url);
  if (!parsed.pathname.endsWith(exaSearchPath)) return undefined;
  return `${parsed.origin}${parsed.pathname.slice(0, -exaSearchPath.length)}`;
}

export function createExaProvider(options: ExaProviderOptions): SearchProvider {
  const timeoutMs = options.timeoutMs ?? defaultSearchTimeoutMs;
  let connection: Promise<ExaConnection> | undefined;

  return {
    id: 'exa',
    prepare() {
      if (!options.apiKey) return;
      connection ??= connect(options.apiKey, options.baseURL);
      // A failure to load surfaces on the first search, which awaits the same promise.
      connection.catch(() => undefined);
    },
    async search(request, signal, agent) {
      // Checked here rather than left to exa-js, which would fall back to process.env.
      const apiKey = options.apiKey;
      if (!apiKey) throw new ConfigError(notConfiguredMessage);
      if (signal.aborted) throw cancelled();
      connection ??= connect(apiKey, options.baseURL);
      const { client, isExaError } = await connection;
      if (signal.aborted) throw cancelled();

      // search() takes no per-request headers; request() does, and search() with `contents`
      // given sends exactly this body to exactly this endpoint.
      const body = {
        query: request.query,
        type: 'auto',
        numResults: request.numResults,
        startPublishedDate: request.startPublishedDate,
        endPublishedDate: request.endPublishedDate,
        contents: { highlights: { maxCharacters: snippetMaxCharacters } },
      };
      const response = client
        .request(exaSearchPath, 'POST', body, undefined, agent ? { [agentHeader]: agent } : undefined)
        .then(
          (answer: unknown) => toResults(answer, request.numResults),
          (error: unknown) => {
            throw toSearchError(error, isExaError);
          },
        );
      return await withDeadline(response, timeoutMs, signal);
    },
  };
}

interface ExaConnection {
  client: Exa;
  isExaError: (error: unknown) => error is { statusCode: number };
}

async function connect(apiKey: string, baseURL: string | undefined): Promise<ExaConnection> {
  // exa-js binds the global fetch when this import first runs, not per request: a fetch
  // interceptor (src/record) has to be in place before the first search.
  const { Exa, ExaError } = await import('exa-js');
  const client = new Exa(apiKey, baseURL ?? exaDefaultBaseUrl);
  sendKeyAsBearer(client, apiKey);
  return {
    client,
    isExaError: (error: unknown): error is { statusCode: number } => error instanceof ExaError,
  };
}

/**
 * exa-js sends the key as `x-api-key`, and fetch follows a redirect to another origin
 * with every custom header: a 307 to a foreign host would receive the key. Exa accepts
 * the same key as `Authorization: Bearer`, which fetch drops on a cross-origin redirect
 * (Fetch standard, "HTTP-redirect fetch"). exa-js takes no fetch and no headers option,
 * so its default headers are changed in place; tests/search pin this against loopback.
 */
function sendKeyAsBearer(client: Exa, apiKey: string): void {
  const headers = (client as unknown as { headers?: unknown }).headers;
  if (!(headers instanceof Headers))
    throw new ConfigError('exa-js changed how it keeps its headers: cannot keep the Exa key off redirects');
  headers.delete('x-api-key');
  headers.set('authorization', `Bearer ${apiKey}`);
}

/**
 * exa-js takes no AbortSignal, so the request cannot be stopped: the caller stops
 * waiting instead, and the request finishes (or fails) unobserved in the background.
 */
async function withDeadline<T>(work: Promise<T>, timeoutMs: number, signal: AbortSignal): Promise<T> {
  // The loser of the race may still reject later; that failure has no one left to tell.
  work.catch(() => {});
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new SearchError(`Exa search timed out after ${timeoutMs} ms`, 'timeout')),
      timeoutMs,
    );
    onAbort = () => reject(cancelled());
    // The signal may have fired while exa-js was loading; its event will not come again.
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
    if (onAbort) signal.removeEventListener('abort', onAbort);
  }
}

function cancelled(): SearchError {
  return new SearchError('Exa search was cancelled', 'aborted');
}

/** Mapped by status only: exa-js messages can quote request details. */
function toSearchError(error: unknown, isExaError: ExaConnection['isExaError']): SearchError {
  if (error instanceof SearchError) return error;
  if (!isExaError(error)) return new SearchError('could not reach Exa', 'connection');
  const status = error.statusCode;
  if (status === 401 || status === 403)
    return new SearchError(`Exa rejected the API key (${status})`, 'authentication', status);
  if (status === 429) return new SearchError('Exa rate limit reached (429); try again later', 'rate-limited', status);
  if (status >= 500) return new SearchError(`Exa service error (${status})`, 'server', status);
  // A successful status with an unreadable body.
  if (status >= 200 && status < 300) return malformed(status);
  return new SearchError(`Exa rejected the search request (${status})`, 'bad-request', status);
}

function malformed(status: number | null = null): SearchError {
  return new SearchError('Exa returned a malformed response', 'invalid-response', status);
}

const optionalText = z
  .string()
  .nullish()
  .transform((value) => (value && value.trim() !== '' ? value : null));

const exaSearchResponse = z.object({
  results: z.array(
    z.object({
      url: z.string(),
      title: optionalText,
      publishedDate: optionalText,
      author: optionalText,
      highlights: z.array(z.string()).nullish(),
      text: z.string().nullish(),
    }),
  ),
});

function toResults(body: unknown, numResults: number): SearchResult[] {
  const parsed = exaSearchResponse.safeParse(body);
  if (!parsed.success) throw malformed();
  return parsed.data.results.slice(0, numResults).map((result) => ({
    title: result.title,
    url: result.url,
    publishedDate: result.publishedDate,
    author: result.author,
    snippet: toSnippet(result.highlights, result.text),
  }));
}

/** Highlights when Exa sent them, else the text; whitespace collapsed, length capped. */
export function toSnippet(highlights: readonly string[] | null | undefined, text: string | null | undefined): string {
  const source = highlights && highlights.length > 0 ? highlights.join(' … ') : (text ?? '');
  return capText(source.replace(/\s+/g, ' ').trim(), snippetMaxCharacters);
}
