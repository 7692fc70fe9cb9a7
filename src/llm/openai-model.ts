/**
 * The one ChatModel that talks to a real server: OpenAI, or anything OpenAI-compatible
 * (Ollama, vLLM, DeepSeek) through `baseURL`. The only module that imports `openai`,
 * lazily, so CLI start-up does not pay for the SDK.
 *
 * Streams by default and assembles the answer itself (content, refusal, reasoning,
 * tool calls: src/llm/tool-calls.ts, usage from the final `choices: []` chunk), because
 * a streamed answer is where servers differ and where connections drop. Structured
 * output falls back by mode (src/llm/structured-mode.ts) for servers without json_schema.
 * With `detectEngine`, a local engine is told by its own signs (src/llm/engine.ts): its
 * structured output starts in the grammar mode, a re-ask gets a new seed, and every
 * answer is checked against a silently truncated prompt (src/llm/truncation.ts).
 */
import type OpenAI from 'openai';
import type { ChatCompletionCreateParamsBase } from 'openai/resources/chat/completions';
import { agentHeader } from '../constants.js';
import { ConfigError } from '../errors.js';
import { hostOf, toModelError, type ModelErrorContext } from './errors.js';
import { fromCompletion } from './openai-answer.js';
import { errorContextOf, lazyOpenAIClient, type ClientSettings } from './openai-client.js';
import { assembleStream } from './openai-stream.js';
import { pacedCall } from './paced-call.js';
import { pacerKey, processPacers, type PacerRegistry, type Reservation } from './pacer.js';
import { parseRateLimitHeaders } from './rate-limit-headers.js';
import { detectEngine, EngineCache, noEngine, type EngineFacts } from './engine.js';
import { acceptWholeCompletion, requireStreamEnd } from './stream-guard.js';
import {
  extractJson,
  nextMode,
  refusesResponseFormat,
  requestInMode,
  startingMode,
  type StructuredMode,
} from './structured-mode.js';
import { estimatePromptTokens } from './token-estimate.js';
import { TruncationGuard } from './truncation.js';
import { cacheCapabilitiesOf, type CacheCapabilities } from './cache-capabilities.js';
import { cacheFields, refusesField, type CacheState } from './cache-fields.js';
import type { ChatModel, ChatRequest, ChatResponse } from './types.js';

export interface OpenAIModelOptions {
  apiKey?: string;
  /** An OpenAI-compatible server, e.g. `http://localhost:11434/v1` for Ollama. */
  baseURL?: string;
  /** Per attempt: until the response starts, then the longest silence inside a stream. */
  timeoutMs?: number;
  /** The SDK's own retries on connection errors, 408, 409, 429 and 5xx. */
  maxRetries?: number;
  fetch?: typeof fetch;
  stream?: boolean;
  /** Where structured output starts (AUTOHEDGE_STRUCTURED); default grammar for a local engine, else json_schema. */
  structuredMode?: StructuredMode;
  /**
   * Ask the base URL which local engine it is (llama.cpp, Ollama, vLLM, LM Studio), once per
   * model. Off by default (a library caller, a replay of a recording made without it).
   */
  detectEngine?: boolean;
  /** The engine as already known (doctor, tests): no detection. */
  engine?: EngineFacts;
  /** Step down json_schema -> json_object -> prompt when the server refuses a mode. Default true. */
  fallback?: boolean;
  /** A notice for stderr: the structured mode this server needs. */
  warn?: (message: string) => void;
  /**
   * Where this model's pacers come from: by default the process's (shared by every model
   * built without --rpm / --tpm); null sends every request at once (a replay, which must
   * not wait on recorded limits).
   */
  pacers?: PacerRegistry | null;
  /** Overrides of the capability table for this server (a loopback server taught a provider's cache rule). */
  cacheCapabilities?: Partial<CacheCapabilities>;
}

export function createOpenAIModel(options: OpenAIModelOptions = {}): ChatModel {
  const timeoutMs = options.timeoutMs ?? 120_000;
  const maxRetries = options.maxRetries ?? 2;
  const pacers = options.pacers === undefined ? processPacers() : options.pacers;
  // The structured mode that works is learnt once and kept for the rest of the run.
  const structured: StructuredState = { mode: undefined };
  const local = localEngine(options);
  const settings = clientSettingsOf(options, timeoutMs, maxRetries);
  const connect = lazyOpenAIClient(settings);
  const capabilities = (model: string): CacheCapabilities => ({
    ...cacheCapabilitiesOf(options.baseURL, model),
    ...options.cacheCapabilities,
  });
  // What this command learnt the server refuses: kept for the rest of the command, so each is refused once.
  const cache: CacheState = { keyRefused: false, flexRefused: new Set() };

  /** One call on the wire, with `responseFormat` as the mode wants it, paced and retried on 429. */
  const sendAsIs = async (
    request: ChatRequest,
    responseFormat: object | undefined,
    fields: Record<string, unknown>,
  ): Promise<ChatResponse> => {
    if (!options.apiKey && !options.baseURL) throw new ConfigError('OPENAI_API_KEY is not set');
    const connection = await connect();
    const { client } = connection;
    const context = errorContextOf(request.model, connection, settings);
    const pacer = pacers?.get(pacerKey(client.baseURL, options.apiKey, request.model));
    return pacedCall(
      pacer,
      request,
      maxRetries,
      (reservation) =>
        sendOnce(client, request, responseFormat, context, {
          streaming: options.stream ?? true,
          reservation,
          fields,
        }),
      undefined,
      (waitMs) => options.warn?.(quotaWaitNotice(request.model, waitMs)),
    );
  };

  /** A 400 refusing flex or prompt_cache_key drops it (once per model, once per command) and sends again. */
  const send = async (request: ChatRequest, responseFormat: object | undefined): Promise<ChatResponse> => {
    for (;;) {
      const fields = cacheFields(request, capabilities(request.model), cache);
      try {
        return await sendAsIs(request, responseFormat, fields);
      } catch (error) {
        // Only a field this attempt sent can be dropped, so the loop ends.
        const refused = refusesField(error, request.model, fields, cache);
        if (refused === null) throw error;
        if (refused !== '') options.warn?.(refused);
      }
    }
  };

  return {
    cacheCapabilities: capabilities,
    prepare() {
      if (!options.apiKey && !options.baseURL) return;
      // A failure to load surfaces on the first call, which awaits the same promise.
      connect().catch(() => undefined);
    },
    async complete(request: ChatRequest): Promise<ChatResponse> {
      const facts = await local.facts(request.model);
      const estimate = estimatePromptTokens(request);
      local.guard?.before(request.model, estimate, facts);
      const sent = withReaskSeed(request, facts);
      const response = sent.responseFormat
        ? await sendStructured(sent, structured, facts, options, send)
        : await send(sent, undefined);
      local.guard?.after(request.model, estimate, response.usage.promptTokens, facts, facts.engine !== null);
      return response;
    },
  };
}

interface StructuredState {
  mode: StructuredMode | undefined;
}

/** The SDK client's settings: the pacer, not the SDK, answers rate limits; a stream must end properly. */
function clientSettingsOf(options: OpenAIModelOptions, timeoutMs: number, maxRetries: number): ClientSettings {
  return {
    apiKey: options.apiKey,
    baseURL: options.baseURL,
    timeoutMs,
    maxRetries,
    fetch: options.fetch,
    wrapFetch: (base) => requireStreamEnd(acceptWholeCompletion(leaveRateLimitsToPacer(base))),
  };
}

/** The engine behind the base URL (asked once per model) and the truncation guard: none for OpenAI itself. */
function localEngine(options: OpenAIModelOptions): {
  facts(model: string): Promise<EngineFacts>;
  guard: TruncationGuard | undefined;
} {
  const { baseURL } = options;
  if (!baseURL) return { facts: () => Promise.resolve(noEngine), guard: undefined };
  const cache = new EngineCache();
  const known = options.engine;
  const facts = (model: string): Promise<EngineFacts> => {
    if (known) return Promise.resolve(known);
    if (!options.detectEngine) return Promise.resolve(noEngine);
    return cache.facts(baseURL, model, async () => {
      const found = await detectEngine(baseURL, model, options.fetch, options.apiKey);
      if (found.engine) {
        const context = found.contextTokens ? `, context ${found.contextTokens} tokens` : '';
        options.warn?.(
          `${hostOf(baseURL)} is ${found.engine} (${model}${context}): structured output in the grammar mode, the full schema`,
        );
      }
      return found;
    });
  };
  return { facts, guard: new TruncationGuard(hostOf(baseURL)) };
}

/** A re-ask to a local engine carries another seed: a deterministic model would otherwise repeat its slip. */
function withReaskSeed(request: ChatRequest, facts: EngineFacts): ChatRequest {
  const { reask, ...rest } = request;
  if (!reask || !facts.engine) return rest;
  return { ...rest, seed: (request.seed ?? 0) + reask * 7_919 };
}

/** One request, streamed or whole; the response's rate-limit headers go to the pacer as soon as they arrive. */
async function sendOnce(
  client: OpenAI,
  request: ChatRequest,
  responseFormat: object | undefined,
  context: ModelErrorContext,
  how: { streaming: boolean; reservation: Reservation | undefined; fields: Record<string, unknown> },
): Promise<ChatResponse> {
  const requestOptions = {
    signal: request.signal ?? null,
    ...(request.agent ? { headers: { [agentHeader]: request.agent } } : {}),
  };
  const body = { ...requestBody(request, responseFormat), ...how.fields } as ChatCompletionCreateParamsBase;
  const observe = (response: Response) => how.reservation?.observe(parseRateLimitHeaders(response.headers, Date.now()));
  try {
    if (!how.streaming) {
      const { data, response } = await client.chat.completions
        .create({ ...body, stream: false }, requestOptions)
        .withResponse();
      observe(response);
      return fromCompletion(data, request, context);
    }
    const { data, response } = await client.chat.completions
      .create({ ...body, stream: true, stream_options: { include_usage: true } }, requestOptions)
      .withResponse();
    observe(response);
    return await assembleStream(data, request, context);
  } catch (error) {
    throw toModelError(error, context);
  }
}

/** A structured call in the current mode, stepping down once per refusal of response_format. */
async function sendStructured(
  request: ChatRequest,
  structured: StructuredState,
  facts: EngineFacts,
  options: OpenAIModelOptions,
  send: (request: ChatRequest, responseFormat: object | undefined) => Promise<ChatResponse>,
): Promise<ChatResponse> {
  for (;;) {
    const current = (structured.mode ??= startingMode(options.structuredMode, facts.engine));
    const { body, responseFormat } = requestInMode(request, current, facts.engine);
    try {
      const response = await send(body, responseFormat);
      if (current === 'json_schema') return response;
      const content = current === 'grammar' ? response.message.content : extractJson(response.message.content);
      return { ...response, message: { ...response.message, content }, structuredMode: current };
    } catch (error) {
      const next = nextMode(current, facts.engine);
      if (options.fallback === false || !next || !refusesResponseFormat(error)) throw error;
      // Concurrent calls may all be refused; the switch is announced once.
      if (structured.mode === current) {
        structured.mode = next;
        const enforced =
          next === 'json_object' && facts.engine === 'llama.cpp'
            ? ' (the schema inside it, which llama.cpp enforces)'
            : '';
        options.warn?.(
          `${hostOf(options.baseURL ?? 'https://api.openai.com/v1')} refused response_format ${current}; using ${next}${enforced} structured output for the rest of the run (AUTOHEDGE_STRUCTURED=${next} skips this check)`,
        );
      }
    }
  }
}

/**
 * OpenAI's reasoning models (o1, o3, o4-mini, the gpt-5 family) answer 400
 * "unsupported_value" to any temperature but the default; the chat variants accept one.
 */
export function acceptsTemperature(model: string): boolean {
  return !/^(o\d|gpt-5)/.test(model) || /chat/.test(model);
}

/** The wire body, verbatim from the request; optional fields only when set. */
function requestBody(request: ChatRequest, responseFormat: object | undefined): ChatCompletionCreateParamsBase {
  const hasTools = request.tools !== undefined && request.tools.length > 0;
  return {
    model: request.model,
    // Our messages are already in the wire shape; `reasoning_content` rides along as-is.
    messages: request.messages as ChatCompletionCreateParamsBase['messages'],
    ...(hasTools ? { tools: request.tools } : {}),
    // OpenAI rejects tool_choice without tools.
    ...(hasTools && request.toolChoice ? { tool_choice: request.toolChoice } : {}),
    ...(responseFormat ? { response_format: responseFormat as ChatCompletionCreateParamsBase['response_format'] } : {}),
    ...(request.temperature !== undefined && acceptsTemperature(request.model)
      ? { temperature: request.temperature }
      : {}),
    ...(request.maxTokens !== undefined ? { max_completion_tokens: request.maxTokens } : {}),
    ...(request.seed !== undefined ? { seed: request.seed } : {}),
  };
}

/**
 * Every 429 is marked `x-should-retry: false`, so the SDK does not retry it on its own
 * clock: the pacer retries a rate limit after the server's wait, holding back every other
 * request of the same quota meanwhile (src/llm/paced-call.ts), and an exhausted quota
 * (insufficient_quota), which no retry can pass, fails at once.
 */
function leaveRateLimitsToPacer(inner: typeof fetch): typeof fetch {
  return async (input, init) => {
    const response = await inner(input, init);
    if (response.status !== 429) return response;
    const headers = new Headers(response.headers);
    headers.set('x-should-retry', 'false');
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  };
}

/**
 * The model ids a server lists at `GET /models`, or null when it has no such list (404).
 * Any other failure is the same typed ModelError a chat call would raise.
 */
export async function listModels(options: OpenAIModelOptions, signal?: AbortSignal): Promise<string[] | null> {
  const settings: ClientSettings = {
    apiKey: options.apiKey,
    baseURL: options.baseURL,
    timeoutMs: options.timeoutMs ?? 120_000,
    maxRetries: options.maxRetries ?? 2,
    fetch: options.fetch,
  };
  const connection = await lazyOpenAIClient(settings)();
  const { client, sdk } = connection;
  const context = errorContextOf('(listing models)', connection, settings);
  try {
    const page = await client.models.list({ signal: signal ?? null });
    return page.data.map((model) => model.id);
  } catch (error) {
    if (error instanceof sdk.NotFoundError) return null;
    throw toModelError(error, context);
  }
}

/** What a request that holds still for the provider's quota says on stderr. */
function quotaWaitNotice(model: string, waitMs: number): string {
  return `a ${model} request waits ${(waitMs / 1000).toFixed(1)} s for rate-limit budget (the provider's announced quota, a 429's pause, or --rpm/--tpm)`;
}
