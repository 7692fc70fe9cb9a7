import type { ChatRequest } from './types.js';

/** Completion cap assumed for a call that sets none. */
export const defaultMaxTokens = 4_096;

/**
 * A request's prompt tokens, estimated before it is sent: a quarter of the characters of
 * its messages, tools and response format (JSON punctuation included, so it errs high).
 * The spending cap prices a call's worst case with it, and the pacer reserves it.
 */
export function estimatePromptTokens(request: Pick<ChatRequest, 'messages' | 'tools' | 'responseFormat'>): number {
  const characters =
    JSON.stringify(request.messages).length +
    (request.tools ? JSON.stringify(request.tools).length : 0) +
    (request.responseFormat ? JSON.stringify(request.responseFormat).length : 0);
  return Math.ceil(characters / 4);
}

/** What OpenAI counts against the token quota when it admits a request: its prompt plus max_tokens in full. */
export function reservedTokens(request: ChatRequest): number {
  return estimatePromptTokens(request) + (request.maxTokens ?? defaultMaxTokens);
}
