/**
 * A server's answer turned into a ChatResponse: the whole-completion form, and the
 * pieces the streamed assembly (src/llm/openai-stream.ts) shares with it.
 */
import type { ChatCompletion } from 'openai/resources/chat/completions';
import { ModelError } from '../errors.js';
import { sanitizeText } from '../sanitize.js';
import { hostOf } from './errors.js';
import { idsInConversation, toolCallsOfMessage } from './tool-calls.js';
import { usageFromWire } from './usage-fields.js';
import type { AssistantMessage, ChatRequest, ChatResponse, FinishReason, ToolCall, Usage } from './types.js';

/** Where an answer came from, for the messages of a malformed one. */
export interface AnswerContext {
  model: string;
  baseURL: string;
  timeoutMs: number;
}

export function fromCompletion(completion: ChatCompletion, request: ChatRequest, context: AnswerContext): ChatResponse {
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
    usage: usageOf(completion.usage, (completion as { service_tier?: unknown }).service_tier),
    model: completion.model || request.model,
  };
}

/** DeepSeek and older vLLM send `reasoning_content`; Groq, OpenRouter, Ollama, LM Studio and newer vLLM `reasoning`. */
export interface WireReasoning {
  reasoning_content?: unknown;
  reasoning?: unknown;
}

export function reasoningOf(wire: WireReasoning): string {
  if (typeof wire.reasoning_content === 'string') return wire.reasoning_content;
  return typeof wire.reasoning === 'string' ? wire.reasoning : '';
}

/**
 * The one place a ChatResponse's message is built, streamed or not: the server's text
 * (content, refusal, reasoning, tool names) is untrusted, so it is sanitised here,
 * where it enters, and nothing downstream can print a control sequence from it.
 * Tool arguments stay as sent (they are JSON; the renderers sanitise what they show).
 */
export function assistantMessage(parts: {
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

/** The usage object with every provider's cache fields (src/llm/usage-fields.ts); `flex` when the server says flex served it. */
export function usageOf(usage: ChatCompletion['usage'] | null | undefined, serviceTier?: unknown): Usage {
  return usageFromWire(usage, serviceTier);
}

export function noChoices(context: AnswerContext): ModelError {
  return new ModelError(
    `the model returned no choices (model '${context.model}' at ${hostOf(context.baseURL)})`,
    'invalid-response',
  );
}
