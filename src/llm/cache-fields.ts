/**
 * The fields a cacheable request adds to the wire body, as the server's capabilities
 * allow (src/llm/cache-capabilities.ts): `prompt_cache_key`, a `cache_control` breakpoint
 * at the end of the shared block, and `service_tier: "flex"`. A 400 that refuses one of
 * them drops it — flex once per model, the key once — with one warning, and never again
 * for the rest of the command.
 */
import { ModelError } from '../errors.js';
import type { CacheCapabilities } from './cache-capabilities.js';
import type { ChatMessage, ChatRequest } from './types.js';

/** What a command has learnt the server refuses. */
export interface CacheState {
  keyRefused: boolean;
  /** Models that answered 400 to flex: they run at the default tier from then on. */
  flexRefused: Set<string>;
}

export function cacheFields(
  request: ChatRequest,
  capabilities: CacheCapabilities,
  state: CacheState,
): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  const hint = request.cache;
  if (hint && capabilities.promptCacheKey && !state.keyRefused) fields['prompt_cache_key'] = hint.key;
  if (hint && capabilities.breakpoints) fields['messages'] = withBreakpoint(request.messages, hint.sharedChars);
  if (request.serviceTier === 'flex' && !state.flexRefused.has(request.model)) fields['service_tier'] = 'flex';
  return fields;
}

/**
 * The first system message as two text parts, the first (the shared block) marked
 * `cache_control: ephemeral`: the explicit breakpoint of the models that have one.
 */
function withBreakpoint(messages: ChatMessage[], sharedChars: number): unknown[] {
  const first = messages[0];
  if (first?.role !== 'system' || first.content.length <= sharedChars) return messages;
  const parts = [
    { type: 'text', text: first.content.slice(0, sharedChars), cache_control: { type: 'ephemeral' } },
    { type: 'text', text: first.content.slice(sharedChars) },
  ];
  return [{ role: 'system', content: parts }, ...messages.slice(1)];
}

/**
 * A 400 (or 422) refusing a field this attempt sent: the field is dropped for the rest of
 * the command and the warning returned ('' when a concurrent call already warned); null
 * when the error is anything else.
 */
export function refusesField(
  error: unknown,
  model: string,
  sent: Record<string, unknown>,
  state: CacheState,
): string | null {
  if (!(error instanceof ModelError) || error.kind !== 'bad-request') return null;
  if (error.status !== 400 && error.status !== 422) return null;
  if ('service_tier' in sent && /service[_ ]?tier|flex/i.test(error.message)) {
    if (state.flexRefused.has(model)) return '';
    state.flexRefused.add(model);
    return `the server refused flex processing for ${model}; it runs at the default tier for the rest of this command`;
  }
  if ('prompt_cache_key' in sent && /prompt_cache_key/i.test(error.message)) {
    if (state.keyRefused) return '';
    state.keyRefused = true;
    return 'the server refused prompt_cache_key; it is no longer sent in this command';
  }
  return null;
}
