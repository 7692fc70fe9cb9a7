/**
 * A server's `usage` object as our Usage: the token counts, and the prompt cache's reads
 * and writes, which every provider reports its own way (real field names, as recorded in
 * tests/fixtures/providers and documented by each provider):
 *
 * | provider | cache reads | cache writes |
 * | --- | --- | --- |
 * | OpenAI, Azure, xAI, Groq, Mistral, Qwen, OpenRouter | `prompt_tokens_details.cached_tokens` | `prompt_tokens_details.cache_write_tokens` (OpenRouter, Azure) |
 * | DeepSeek | `prompt_cache_hit_tokens` (misses: `prompt_cache_miss_tokens`) | — (a miss is billed as input) |
 * | Qwen explicit cache (DashScope) | `prompt_tokens_details.cached_tokens` | `prompt_tokens_details.cache_creation_input_tokens` |
 * | Moonshot (Kimi) | `cached_tokens` | — |
 * | Anthropic's compatible endpoint | `prompt_tokens_details.cached_tokens` | `cache_creation_input_tokens` |
 *
 * The counts are untrusted: only finite non-negative numbers count, and reads and writes
 * are capped at the prompt, so a broken server cannot make a call cost less than nothing.
 */
import type { Usage } from './types.js';

type Wire = Record<string, unknown>;

const objectOf = (value: unknown): Wire =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Wire) : {};

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

/** The first field that holds a count, in the order given. */
function firstCount(...values: unknown[]): number {
  for (const value of values) {
    const found = count(value);
    if (found !== undefined) return found;
  }
  return 0;
}

export function usageFromWire(raw: unknown, serviceTier?: unknown): Usage {
  const usage = objectOf(raw);
  const details = objectOf(usage['prompt_tokens_details']);
  const promptTokens = count(usage['prompt_tokens']) ?? 0;
  const cached = firstCount(details['cached_tokens'], usage['prompt_cache_hit_tokens'], usage['cached_tokens']);
  const writes = firstCount(
    details['cache_write_tokens'],
    details['cache_creation_input_tokens'],
    usage['cache_creation_input_tokens'],
  );
  const cachedPromptTokens = Math.min(cached, promptTokens);
  const cacheWriteTokens = Math.min(writes, promptTokens - cachedPromptTokens);
  return {
    promptTokens,
    completionTokens: count(usage['completion_tokens']) ?? 0,
    cachedPromptTokens,
    ...(cacheWriteTokens > 0 ? { cacheWriteTokens } : {}),
    ...(serviceTier === 'flex' ? { serviceTier: 'flex' as const } : {}),
  };
}
