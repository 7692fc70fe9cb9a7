/**
 * What a server and model do with a cacheable request, as a table: whether it takes
 * `prompt_cache_key` (some reject any field they do not know), whether the model has
 * explicit cache breakpoints (`cache_control` on a content part), and whether its cache
 * prefix starts with the tools and the response schema (so every call of a ticker must
 * send the same ones to share a prefix).
 *
 * Rows are matched in order on the host and the model; later rows override earlier ones.
 * A server the table does not know gets the key and nothing else; one that answers 400
 * naming `prompt_cache_key` anyway loses it for the rest of the command (openai-model.ts).
 */
export interface CacheCapabilities {
  /** Send `prompt_cache_key`. False where the server rejects unknown fields. */
  promptCacheKey: boolean;
  /** Mark the end of the shared block with `cache_control: {type: "ephemeral"}`. */
  breakpoints: boolean;
  /**
   * The cache prefix begins with the tools and the response schema (OpenAI's documented
   * rule): every call of a ticker then sends one tool list, and structure comes through a
   * forced strict tool instead of response_format.
   */
  toolsInPrefix: boolean;
}

interface Row {
  host: RegExp;
  model?: RegExp;
  set: Partial<CacheCapabilities>;
  /** Where the row's fact comes from. */
  why: string;
}

const rows: readonly Row[] = [
  {
    host: /^api\.openai\.com$/,
    set: { toolsInPrefix: true },
    why: 'OpenAI prompt caching guide: tools and structured-output schemas are part of the cached prefix',
  },
  {
    host: /\.(openai\.azure\.com|services\.ai\.azure\.com|cognitiveservices\.azure\.com)$/,
    set: { promptCacheKey: false },
    why: 'Azure: 400 "Unrecognized request argument supplied: prompt_cache_key" (MoonshotAI/kimi-code#2611)',
  },
  {
    host: /^integrate\.api\.nvidia\.com$/,
    set: { promptCacheKey: false },
    why: 'NVIDIA: 400 "Unsupported parameter(s): prompt_cache_key" (liliMozi/openhanako#2512)',
  },
  {
    host: /^openrouter\.ai$/,
    model: /^(anthropic\/|google\/gemini)/,
    set: { breakpoints: true },
    why: 'OpenRouter: cache_control breakpoints for Anthropic and Gemini models',
  },
  {
    host: /^dashscope(-intl|-us)?\.aliyuncs\.com$/,
    model: /^qwen(3)?-(max|plus|flash|coder)/,
    set: { breakpoints: true },
    why: 'Alibaba Model Studio: explicit cache (cache_control) on the Qwen commercial models',
  },
];

const defaults: CacheCapabilities = { promptCacheKey: true, breakpoints: false, toolsInPrefix: false };

/** The capabilities of `model` at `baseURL` (undefined: OpenAI's own API). */
export function cacheCapabilitiesOf(baseURL: string | undefined, model: string): CacheCapabilities {
  const host = hostnameOf(baseURL ?? 'https://api.openai.com/v1');
  let capabilities = defaults;
  for (const row of rows) {
    if (row.host.test(host) && (row.model === undefined || row.model.test(model)))
      capabilities = { ...capabilities, ...row.set };
  }
  return capabilities;
}

function hostnameOf(baseURL: string): string {
  try {
    return new URL(baseURL).hostname;
  } catch {
    return '';
  }
}
