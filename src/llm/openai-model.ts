/**
 * The one ChatModel that talks to a real server: OpenAI, or anything OpenAI-compatible
 * (Ollama, vLLM, DeepSeek) through `baseURL`. The only module that imports `openai`,
 * lazily, so CLI start-up does not pay for the SDK.
 *
 * Streams by default and assembles the answer itself (content, refusal, reasoning,
 * tool calls: src/llm/tool-calls.ts, usage from the final `choices: []` chunk), because
 * a streamed answer is where servers differ and where connections drop. Structured
 * output falls back by mode (src/llm/structured-mode.ts) for servers without json_schema.
 */
import type OpenAI from 'openai';
import type {
  ChatCompletion,
  ChatCompletionChunk,
  ChatCompletionCreateParamsBase,
} from 'openai/resources/chat/completions';
import { formatSeconds } from '../clock.js';
import { agentHeader } from '../constants.js';
import { ConfigError, ModelError } from '../errors.js';
import { hostOf, isConnectionDrop, toModelError, type ModelErrorContext } from './errors.js';
import { sanitizeText } from '../sanitize.js';
import { newOpenAIClient, type Sdk } from './openai-client.js';
import { acceptWholeCompletion, requireStreamEnd, StreamEndedWithoutDone } from './stream-guard.js';
import { extractJson, nextMode, refusesResponseFormat, requestInMode, type StructuredMode } from './structured-mode.js';
import { idsInConversation, toolCallsOfMessage, ToolCallAssembler } from './tool-calls.js';
import type { AssistantMessage, ChatModel, ChatRequest, ChatResponse, FinishReason, ToolCall, Usage } from './types.js';

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
  /** Where structured output starts (AUTOHEDGE_STRUCTURED); default json_schema. */
  structuredMode?: StructuredMode;
  /** Step down json_schema -> json_object -> prompt when the server refuses a mode. Default true. */
  fallback?: boolean;
  /** A notice for stderr: the structured mode this server needs. */
  warn?: (message: string) => void;
}

export function createOpenAIModel(options: OpenAIModelOptions = {}): ChatModel {
  const timeoutMs = options.timeoutMs ?? 120_000;
  const maxRetries = options.maxRetries ?? 2;
  const streaming = options.stream ?? true;
  // The structured mode that works is learnt once and kept for the rest of the run.
  let mode: StructuredMode = options.structuredMode ?? 'json_schema';
  let connection: Promise<{ client: OpenAI; sdk: Sdk }> | undefined;

  const connect = async () => {
    const sdk = await import('openai');
    const client = newOpenAIClient(sdk, {
      apiKey: options.apiKey,
      baseURL: options.baseURL,
      timeoutMs,
      maxRetries,
      fetch: options.fetch,
      wrapFetch: (base) => requireStreamEnd(acceptWholeCompletion(noRetryOnQuota(base))),
    });
    return { client, sdk };
  };

  /** One call on the wire, with `responseFormat` as the mode wants it. */
  const send = async (request: ChatRequest, responseFormat: object | undefined): Promise<ChatResponse> => {
    if (!options.apiKey && !options.baseURL) throw new ConfigError('OPENAI_API_KEY is not set');
    connection ??= connect();
    const { client, sdk } = await connection;
    const context: ModelErrorContext = {
      model: request.model,
      baseURL: client.baseURL,
      timeoutMs,
      maxRetries,
      secrets: options.apiKey ? [options.apiKey] : [],
      sdk,
    };
    const requestOptions = {
      signal: request.signal ?? null,
      ...(request.agent ? { headers: { [agentHeader]: request.agent } } : {}),
    };
    const body = requestBody(request, responseFormat);
    try {
      if (!streaming) {
        const completion = await client.chat.completions.create({ ...body, stream: false }, requestOptions);
        return fromCompletion(completion, request, context);
      }
      const stream = await client.chat.completions.create(
        { ...body, stream: true, stream_options: { include_usage: true } },
        requestOptions,
      );
      return await assembleStream(stream, request, context);
    } catch (error) {
      throw toModelError(error, context);
    }
  };

  /** A structured call in the current mode, stepping down once per refusal of response_format. */
  const sendStructured = async (request: ChatRequest): Promise<ChatResponse> => {
    for (;;) {
      const current = mode;
      const { body, responseFormat } = requestInMode(request, current);
      try {
        const response = await send(body, responseFormat);
        if (current === 'json_schema') return response;
        return {
          ...response,
          message: { ...response.message, content: extractJson(response.message.content) },
          structuredMode: current,
        };
      } catch (error) {
        const next = nextMode(current);
        if (options.fallback === false || !next || !refusesResponseFormat(error)) throw error;
        // Concurrent calls may all be refused; the switch is announced once.
        if (mode === current) {
          mode = next;
          options.warn?.(
            `${hostOf(options.baseURL ?? 'https://api.openai.com/v1')} refused response_format ${current}; using ${next} structured output for the rest of the run (AUTOHEDGE_STRUCTURED=${next} skips this check)`,
          );
        }
      }
    }
  };

  return {
    prepare() {
      if (!options.apiKey && !options.baseURL) return;
      connection ??= connect();
      // A failure to load surfaces on the first call, which awaits the same promise.
      connection.catch(() => undefined);
    },
    complete(request: ChatRequest): Promise<ChatResponse> {
      return request.responseFormat ? sendStructured(request) : send(request, undefined);
    },
  };
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

function fromCompletion(completion: ChatCompletion, request: ChatRequest, context: ModelErrorContext): ChatResponse {
  const choice = completion.choices?.[0];
  if (!choice) throw noChoices(context);
  const wire = (choice.message ?? {}) as ChatCompletion.Choice['message'] & WireReasoning;
  return {
    message: assistantMessage({
      content: wire.content ?? null,
      refusal: wire.refusal ?? null,
      reasoning: reasoningOf(wire),
      toolCalls: toolCallsOfMessage(wire.tool_calls, idsInConversation(request.messages)),
    }),
    finishReason: (choice.finish_reason as FinishReason | null) ?? null,
    usage: usageOf(completion.usage),
    model: completion.model || request.model,
  };
}

/** DeepSeek and older vLLM send `reasoning_content`; Groq, OpenRouter, Ollama, LM Studio and newer vLLM `reasoning`. */
interface WireReasoning {
  reasoning_content?: unknown;
  reasoning?: unknown;
}

function reasoningOf(wire: WireReasoning): string {
  if (typeof wire.reasoning_content === 'string') return wire.reasoning_content;
  return typeof wire.reasoning === 'string' ? wire.reasoning : '';
}

async function assembleStream(
  stream: AsyncIterable<ChatCompletionChunk> & { controller: AbortController },
  request: ChatRequest,
  context: ModelErrorContext,
): Promise<ChatResponse> {
  let content: string | null = null;
  let refusal: string | null = null;
  let reasoning = '';
  let finishReason: FinishReason | null = null;
  let usage: Usage = { promptTokens: 0, completionTokens: 0, cachedPromptTokens: 0 };
  let model = '';
  let sawChoices = false;
  const calls = new ToolCallAssembler();

  // The SDK's timeout ends when the response starts; a stream that then goes silent
  // would hang the run, so silence longer than the timeout ends it here.
  let silentTooLong = false;
  let silence: NodeJS.Timeout | undefined;
  const restartSilenceTimer = () => {
    clearTimeout(silence);
    silence = setTimeout(() => {
      silentTooLong = true;
      stream.controller.abort();
    }, context.timeoutMs);
  };

  const problem = (what: string, cause: unknown) => {
    const inProgress = finishReason === null ? calls.current() : undefined;
    const during = inProgress
      ? ` during tool call '${sanitizeText(inProgress.name)}' (${inProgress.arguments.length} argument characters received)`
      : '';
    return new ModelError(`${what}${during} (model '${request.model}')`, 'invalid-response', null, { cause });
  };

  try {
    restartSilenceTimer();
    for await (const chunk of stream) {
      restartSilenceTimer();
      if (chunk.model) model = chunk.model;
      if (chunk.usage) usage = usageOf(chunk.usage);
      // Usage-only chunks come as `choices: []`; a few servers leave `choices` out.
      const choices = Array.isArray(chunk.choices) ? chunk.choices : [];
      if (choices.length > 0) sawChoices = true;
      const choice = choices.find((candidate) => (candidate.index ?? 0) === 0);
      if (!choice) continue;
      const delta = (choice.delta ?? {}) as ChatCompletionChunk.Choice.Delta & WireReasoning;
      if (typeof delta.content === 'string') content = (content ?? '') + delta.content;
      if (typeof delta.refusal === 'string') refusal = (refusal ?? '') + delta.refusal;
      reasoning += reasoningOf(delta);
      for (const fragment of delta.tool_calls ?? []) calls.add(fragment);
      if (choice.finish_reason) finishReason = choice.finish_reason;
    }
  } catch (error) {
    if (request.signal?.aborted) throw new ModelError('model call aborted', 'aborted');
    if (error instanceof StreamEndedWithoutDone)
      throw problem(`the stream from ${hostOf(context.baseURL)} ended without [DONE]`, error);
    if (isConnectionDrop(error))
      throw problem(`the connection to ${hostOf(context.baseURL)} dropped mid-stream`, error);
    throw error;
  } finally {
    clearTimeout(silence);
  }

  // The SDK ends the iteration quietly when its request is aborted.
  if (request.signal?.aborted) throw new ModelError('model call aborted', 'aborted');
  if (silentTooLong) {
    throw problemTimeout(context);
  }
  if (!sawChoices) throw noChoices(context);

  return {
    message: assistantMessage({
      content,
      refusal,
      reasoning,
      toolCalls: calls.finish(idsInConversation(request.messages)),
    }),
    finishReason,
    usage,
    model: model || request.model,
  };
}

/**
 * The one place a ChatResponse's message is built, streamed or not: the server's text
 * (content, refusal, reasoning, tool names) is untrusted, so it is sanitised here,
 * where it enters, and nothing downstream can print a control sequence from it.
 * Tool arguments stay as sent (they are JSON; the renderers sanitise what they show).
 */
function assistantMessage(parts: {
  content: string | null;
  refusal: string | null;
  reasoning: string;
  toolCalls: ToolCall[];
}): AssistantMessage {
  const toolCalls = parts.toolCalls.map((call) => ({
    ...call,
    function: { ...call.function, name: sanitizeText(call.function.name) },
  }));
  return {
    role: 'assistant',
    content: parts.content === null ? null : sanitizeText(parts.content),
    ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
    ...(parts.refusal ? { refusal: sanitizeText(parts.refusal) } : {}),
    ...(parts.reasoning ? { reasoning_content: sanitizeText(parts.reasoning) } : {}),
  };
}

function usageOf(usage: ChatCompletion['usage'] | null | undefined): Usage {
  return {
    promptTokens: usage?.prompt_tokens ?? 0,
    completionTokens: usage?.completion_tokens ?? 0,
    cachedPromptTokens: usage?.prompt_tokens_details?.cached_tokens ?? 0,
  };
}

function noChoices(context: ModelErrorContext): ModelError {
  return new ModelError(
    `the model returned no choices (model '${context.model}' at ${hostOf(context.baseURL)})`,
    'invalid-response',
  );
}

function problemTimeout(context: ModelErrorContext): ModelError {
  return new ModelError(
    `model call timed out after ${formatSeconds(context.timeoutMs)} of silence mid-stream (model '${context.model}' at ${hostOf(context.baseURL)})`,
    'timeout',
  );
}

/**
 * An exhausted quota comes as a 429, which the SDK would retry with back-off although
 * no retry can succeed; marking it `x-should-retry: false` makes it fail at once.
 */
function noRetryOnQuota(inner: typeof fetch): typeof fetch {
  return async (input, init) => {
    const response = await inner(input, init);
    if (response.status !== 429) return response;
    const text = await response.text();
    const headers = new Headers(response.headers);
    if (text.includes('insufficient_quota')) headers.set('x-should-retry', 'false');
    return new Response(text, { status: response.status, statusText: response.statusText, headers });
  };
}

/**
 * The model ids a server lists at `GET /models`, or null when it has no such list (404).
 * Any other failure is the same typed ModelError a chat call would raise.
 */
export async function listModels(options: OpenAIModelOptions, signal?: AbortSignal): Promise<string[] | null> {
  const sdk = await import('openai');
  const client = newOpenAIClient(sdk, {
    apiKey: options.apiKey,
    baseURL: options.baseURL,
    timeoutMs: options.timeoutMs ?? 120_000,
    maxRetries: options.maxRetries ?? 2,
    fetch: options.fetch,
  });
  const context: ModelErrorContext = {
    model: '(listing models)',
    baseURL: client.baseURL,
    timeoutMs: options.timeoutMs ?? 120_000,
    maxRetries: options.maxRetries ?? 2,
    secrets: options.apiKey ? [options.apiKey] : [],
    sdk,
  };
  try {
    const page = await client.models.list({ signal: signal ?? null });
    return page.data.map((model) => model.id);
  } catch (error) {
    if (error instanceof sdk.NotFoundError) return null;
    throw toModelError(error, context);
  }
}
