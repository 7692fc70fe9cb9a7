import type { CacheCapabilities } from './cache-capabilities.js';

/**
 * The chat protocol in OpenAI's wire shape (snake_case where the wire is), so a
 * transcript shows exactly what crossed. Only src/llm/openai-*.ts imports the SDK.
 */

export interface ToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | {
      role: 'assistant';
      content: string | null;
      tool_calls?: ToolCall[];
      refusal?: string | null;
      /** Kept when an OpenAI-compatible server (DeepSeek, vLLM) sends its reasoning. */
      reasoning_content?: string;
    }
  | { role: 'tool'; tool_call_id: string; content: string };

export type AssistantMessage = Extract<ChatMessage, { role: 'assistant' }>;

/** Exactly the object that goes into the request's `tools` array. */
export interface ToolDefinition {
  type: 'function';
  function: {
    name: string;
    description: string;
    parameters: Record<string, unknown>;
    /** false only for an MCP tool whose schema strict mode cannot express (tuples, patternProperties, …). */
    strict: boolean;
  };
}

export interface JsonSchemaFormat {
  type: 'json_schema';
  json_schema: { name: string; schema: Record<string, unknown>; strict: true };
}

/** `tool_choice` naming one function: the model must call it (a structured answer through a strict tool). */
export interface NamedToolChoice {
  type: 'function';
  function: { name: string };
}

/**
 * What a request shares with the other calls of its ticker and as-of (src/agent/layout.ts):
 * the cache key sent as `prompt_cache_key`, and how many characters of the first system
 * message are the shared block, where a model with explicit breakpoints marks its end.
 */
export interface PromptCacheHint {
  key: string;
  sharedChars: number;
}

/** `--service-tier`: `flex` is cheaper and slower on the models that have it; `default` sends nothing. */
export const serviceTiers = ['flex', 'default'] as const;
export type ServiceTier = (typeof serviceTiers)[number];

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  /** Omitted (not empty) when the agent binds no tools. */
  tools?: ToolDefinition[];
  toolChoice?: 'auto' | 'none' | 'required' | NamedToolChoice;
  responseFormat?: JsonSchemaFormat;
  /**
   * The answer's whole JSON schema, bounds and minLength included, which the strict
   * `responseFormat` cannot carry: sent in the grammar mode to an engine that enforces it.
   */
  fullSchema?: Record<string, unknown>;
  temperature?: number;
  /** Upper bound on completion tokens; also the budget's worst case for this call. */
  maxTokens?: number;
  /** Sampling seed (`--samples`): OpenAI and most compatible servers accept it; others ignore it. */
  seed?: number;
  /**
   * How many times this answer has been asked for again after it broke its schema: a
   * local engine then gets a different seed, so a deterministic model can answer differently.
   */
  reask?: number;
  /** Which agent sends this; travels as a header so a replay miss can name it. */
  agent?: string;
  /** The shared block of a cacheable layout; absent in the legacy layout (a version 1 cassette). */
  cache?: PromptCacheHint;
  /** `flex` asks for flex processing; absent or `default` sends no service_tier. */
  serviceTier?: ServiceTier;
  signal?: AbortSignal;
}

export type FinishReason = 'stop' | 'tool_calls' | 'length' | 'content_filter' | 'function_call';

export interface Usage {
  /** Every prompt token, cached and written ones included. */
  promptTokens: number;
  completionTokens: number;
  /** Prompt tokens read from the provider's cache (billed at the cached price). */
  cachedPromptTokens: number;
  /** Prompt tokens written to the cache, where the provider bills a write apart (absent: none reported). */
  cacheWriteTokens?: number;
  /** Set when the server says flex processing served the call (priced at the flex rate). */
  serviceTier?: 'flex';
}

export interface ChatResponse {
  message: AssistantMessage;
  finishReason: FinishReason | null;
  usage: Usage;
  /** The model the server says answered. */
  model: string;
  /**
   * Set when a structured request went out in another mode (grammar, json_object or prompt)
   * rather than as the json_schema the request carried, so a transcript tells what was sent.
   */
  structuredMode?: 'grammar' | 'json_object' | 'prompt';
}

/** The one interface the agent runtime and pipeline talk to. */
export interface ChatModel {
  complete(request: ChatRequest): Promise<ChatResponse>;
  /** Start loading the client in the background, so the first call does not wait for it. */
  prepare?(): void;
  /** What the server does with a cacheable request for this model (src/llm/cache-capabilities.ts); absent: nothing known. */
  cacheCapabilities?(model: string): CacheCapabilities;
}

export const zeroUsage = (): Usage => ({ promptTokens: 0, completionTokens: 0, cachedPromptTokens: 0 });

export function addUsage(total: Usage, more: Usage): Usage {
  const writes = (total.cacheWriteTokens ?? 0) + (more.cacheWriteTokens ?? 0);
  return {
    promptTokens: total.promptTokens + more.promptTokens,
    completionTokens: total.completionTokens + more.completionTokens,
    cachedPromptTokens: total.cachedPromptTokens + more.cachedPromptTokens,
    ...(writes > 0 ? { cacheWriteTokens: writes } : {}),
  };
}
