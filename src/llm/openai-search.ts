/**
 * One call to an OpenAI search model (`gpt-4o-mini-search-preview` and its kin) over Chat
 * Completions: the built-in web search runs on OpenAI's side and the answer carries
 * `url_citation` annotations. Beside openai-model.ts, not inside it, because the request
 * is of another kind: `web_search_options`, no tools (search models take none), no
 * temperature (they reject it), and not streamed (annotations arrive whole only in a
 * non-streamed answer). Imports `openai` lazily, like openai-model.ts.
 */
import { z } from 'zod';
import { agentHeader } from '../constants.js';
import { ConfigError, ModelError } from '../errors.js';
import { errorContextOf, lazyOpenAIClient } from './openai-client.js';
import { toModelError } from './errors.js';
import type { Usage } from './types.js';
import { usageFromWire } from './usage-fields.js';

export interface OpenAISearchClientOptions {
  apiKey?: string;
  baseURL?: string;
  /** Per attempt. Default 60 s: a search model browses before it answers. */
  timeoutMs?: number;
  maxRetries?: number;
  fetch?: typeof fetch;
}

export type SearchContextSize = 'low' | 'medium' | 'high';

export interface WebSearchCall {
  model: string;
  /** The whole user message: the query and the date window. */
  prompt: string;
  searchContextSize: SearchContextSize;
  /** Upper bound on the answer's tokens; also the budget's worst case. */
  maxTokens: number;
  agent?: string;
  signal: AbortSignal;
}

export interface UrlCitation {
  url: string;
  title: string;
  /** The cited span of `content`, by UTF-16 index (as OpenAI counts). */
  startIndex: number;
  endIndex: number;
}

export interface WebSearchAnswer {
  content: string;
  citations: UrlCitation[];
  usage: Usage;
  /** The model the server says answered. */
  model: string;
}

export interface OpenAISearchClient {
  search(call: WebSearchCall): Promise<WebSearchAnswer>;
}

const citationSchema = z.object({
  type: z.literal('url_citation'),
  url_citation: z.object({
    url: z.string(),
    title: z.string().nullish(),
    start_index: z.number().int(),
    end_index: z.number().int(),
  }),
});

/** The parts of a completion a search needs; anything else a server adds is ignored. */
const completionSchema = z.object({
  model: z.string().nullish(),
  choices: z
    .array(
      z.object({
        message: z.object({
          content: z.string().nullish(),
          // Other annotation types (none today) are skipped, not an error.
          annotations: z.array(z.unknown()).nullish(),
        }),
      }),
    )
    .min(1),
  // Loose: each provider's cache fields (src/llm/usage-fields.ts) are read from what passes through.
  usage: z
    .looseObject({
      prompt_tokens: z.number().nullish(),
      completion_tokens: z.number().nullish(),
      prompt_tokens_details: z.looseObject({ cached_tokens: z.number().nullish() }).nullish(),
    })
    .nullish(),
});

export function createOpenAISearchClient(options: OpenAISearchClientOptions = {}): OpenAISearchClient {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const maxRetries = options.maxRetries ?? 2;
  const settings = { apiKey: options.apiKey, baseURL: options.baseURL, timeoutMs, maxRetries, fetch: options.fetch };
  const connection = lazyOpenAIClient(settings);

  return {
    async search(call) {
      if (!options.apiKey && !options.baseURL) throw new ConfigError('the OpenAI web search needs OPENAI_API_KEY');
      const connected = await connection();
      const { client } = connected;
      const context = errorContextOf(call.model, connected, settings);
      let completion: unknown;
      try {
        completion = await client.chat.completions.create(
          {
            model: call.model,
            messages: [{ role: 'user', content: call.prompt }],
            web_search_options: { search_context_size: call.searchContextSize },
            max_completion_tokens: call.maxTokens,
          },
          { signal: call.signal, ...(call.agent ? { headers: { [agentHeader]: call.agent } } : {}) },
        );
      } catch (error) {
        throw toModelError(error, context);
      }
      return toAnswer(completion, call.model);
    },
  };
}

function toAnswer(completion: unknown, requestedModel: string): WebSearchAnswer {
  const parsed = completionSchema.safeParse(completion);
  if (!parsed.success)
    throw new ModelError(`the search model '${requestedModel}' returned a malformed answer`, 'invalid-response');
  const message = parsed.data.choices[0]?.message;
  const citations = (message?.annotations ?? []).flatMap((annotation) => {
    const citation = citationSchema.safeParse(annotation);
    if (!citation.success) return [];
    const { url, title, start_index: startIndex, end_index: endIndex } = citation.data.url_citation;
    return [{ url, title: title ?? '', startIndex, endIndex }];
  });
  const usage = parsed.data.usage;
  return {
    content: message?.content ?? '',
    citations,
    usage: usageFromWire(usage),
    model: parsed.data.model || requestedModel,
  };
}
