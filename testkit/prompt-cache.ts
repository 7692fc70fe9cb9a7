/**
 * OpenAI's documented prompt-caching rule, for a loopback model server: a request is
 * served from the cache for the longest prefix it shares with a prompt written earlier,
 * when that prefix is at least 1,024 tokens, counted in steps of 128 tokens. The prefix
 * begins with the tools and the structured-output schema, then the messages in order.
 * A prompt is written to the cache only once the call that sent it has completed, so
 * calls made at the same instant cannot read each other's.
 *
 * Tokens are counted as the rest of the test doubles count them: 4 characters each.
 */
import { tokensOf } from './quota.js';

export const cacheMinimumTokens = 1_024;
export const cacheStepTokens = 128;

/** The prompt as the provider reads it: tools, schema, then each message (role, text, tool calls). */
export function promptText(body: unknown): string {
  const request = (body ?? {}) as { messages?: unknown[]; tools?: unknown; response_format?: unknown };
  const parts: string[] = [];
  if (request.tools) parts.push(JSON.stringify(request.tools));
  if (request.response_format) parts.push(JSON.stringify(request.response_format));
  for (const raw of request.messages ?? []) {
    const message = raw as { role?: string; content?: unknown; tool_calls?: unknown };
    const content = Array.isArray(message.content)
      ? (message.content as Array<{ text?: unknown }>).map((part) => String(part.text ?? '')).join('')
      : String(message.content ?? '');
    parts.push(`<${message.role ?? ''}>${content}${message.tool_calls ? JSON.stringify(message.tool_calls) : ''}`);
  }
  return parts.join('\n');
}

/** Cached tokens for a shared prefix of `characters`: 0 below the minimum, else whole steps past it. */
export function cachedTokensFor(characters: number): number {
  const tokens = Math.floor(characters / 4);
  if (tokens < cacheMinimumTokens) return 0;
  return cacheMinimumTokens + Math.floor((tokens - cacheMinimumTokens) / cacheStepTokens) * cacheStepTokens;
}

function commonPrefix(left: string, right: string): number {
  const limit = Math.min(left.length, right.length);
  let index = 0;
  while (index < limit && left.charCodeAt(index) === right.charCodeAt(index)) index += 1;
  return index;
}

export interface PromptCache {
  /** The tokens of this prompt the cache serves now (never more than the prompt's own). */
  read(prompt: string): number;
  /** The prompt, once its call has completed. */
  write(prompt: string): void;
}

export function createPromptCache(): PromptCache {
  const written: string[] = [];
  return {
    read(prompt) {
      let longest = 0;
      for (const earlier of written) longest = Math.max(longest, commonPrefix(prompt, earlier));
      return Math.min(cachedTokensFor(longest), tokensOf(prompt.length));
    },
    write(prompt) {
      written.push(prompt);
    },
  };
}
