import { afterEach, describe, expect, it } from 'vitest';
import { cacheCapabilitiesOf } from '../../src/llm/cache-capabilities.js';
import { createOpenAIModel } from '../../src/llm/openai-model.js';
import { cacheSavingOf, costOf, loadPriceTable, priceFor, type Price } from '../../src/llm/prices.js';
import type { ChatRequest } from '../../src/llm/types.js';
import { usageFromWire } from '../../src/llm/usage-fields.js';
import { errorReply, startOpenAIServer, textAnswer, type OpenAIServer } from '../../testkit/openai-server.js';

const price: Price = {
  input: 2,
  cachedInput: 0.5,
  output: 8,
  cacheWrite: 2.5,
  flex: { input: 1, cachedInput: 0.25, output: 4 },
};

/** Each provider's usage object, as it sends it (field names from tests/fixtures/providers), and what it costs at `price`. */
const providers: Array<{
  provider: string;
  wire: object;
  tier?: string;
  cached: number;
  written: number;
  usd: number;
}> = [
  {
    provider: 'OpenAI',
    wire: { prompt_tokens: 2000, completion_tokens: 100, prompt_tokens_details: { cached_tokens: 1536 } },
    cached: 1536,
    written: 0,
    usd: (464 * 2 + 1536 * 0.5 + 100 * 8) / 1e6,
  },
  {
    provider: 'OpenAI flex',
    wire: { prompt_tokens: 2000, completion_tokens: 100, prompt_tokens_details: { cached_tokens: 1536 } },
    tier: 'flex',
    cached: 1536,
    written: 0,
    usd: (464 * 1 + 1536 * 0.25 + 100 * 4) / 1e6,
  },
  {
    provider: 'DeepSeek',
    wire: { prompt_tokens: 339, completion_tokens: 83, prompt_cache_hit_tokens: 320, prompt_cache_miss_tokens: 19 },
    cached: 320,
    written: 0,
    usd: (19 * 2 + 320 * 0.5 + 83 * 8) / 1e6,
  },
  {
    provider: 'xAI',
    wire: {
      prompt_tokens: 291,
      completion_tokens: 26,
      prompt_tokens_details: { text_tokens: 291, cached_tokens: 290 },
    },
    cached: 290,
    written: 0,
    usd: (1 * 2 + 290 * 0.5 + 26 * 8) / 1e6,
  },
  {
    provider: 'Mistral',
    wire: { prompt_tokens: 171, completion_tokens: 14, prompt_tokens_details: { cached_tokens: 128 } },
    cached: 128,
    written: 0,
    usd: (43 * 2 + 128 * 0.5 + 14 * 8) / 1e6,
  },
  {
    provider: 'Groq',
    wire: { prompt_tokens: 210, completion_tokens: 15, queue_time: 0.04 },
    cached: 0,
    written: 0,
    usd: (210 * 2 + 15 * 8) / 1e6,
  },
  {
    provider: 'OpenRouter (write)',
    wire: {
      prompt_tokens: 3000,
      completion_tokens: 10,
      prompt_tokens_details: { cached_tokens: 0, cache_write_tokens: 2048 },
    },
    cached: 0,
    written: 2048,
    usd: (952 * 2 + 2048 * 2.5 + 10 * 8) / 1e6,
  },
  {
    provider: 'Qwen explicit cache',
    wire: {
      prompt_tokens: 3000,
      completion_tokens: 10,
      prompt_tokens_details: { cached_tokens: 1024, cache_creation_input_tokens: 1000 },
    },
    cached: 1024,
    written: 1000,
    usd: (976 * 2 + 1024 * 0.5 + 1000 * 2.5 + 10 * 8) / 1e6,
  },
  {
    provider: 'Moonshot',
    wire: { prompt_tokens: 1500, completion_tokens: 10, cached_tokens: 1200 },
    cached: 1200,
    written: 0,
    usd: (300 * 2 + 1200 * 0.5 + 10 * 8) / 1e6,
  },
  {
    provider: 'a broken server (more cached than sent)',
    wire: { prompt_tokens: 100, completion_tokens: 0, prompt_tokens_details: { cached_tokens: 1e9 } },
    cached: 100,
    written: 0,
    usd: (100 * 0.5) / 1e6,
  },
];

describe('every provider’s cache fields, priced', () => {
  it.each(providers)('$provider', ({ wire, tier, cached, written, usd }) => {
    const usage = usageFromWire(wire, tier);
    expect(usage.cachedPromptTokens).toBe(cached);
    expect(usage.cacheWriteTokens ?? 0).toBe(written);
    expect(costOf(usage, price)).toBeCloseTo(usd, 12);
    const rates = tier === 'flex' ? price.flex! : price;
    expect(cacheSavingOf(usage, price)).toBeCloseTo((cached * (rates.input - rates.cachedInput)) / 1e6, 12);
  });

  it('reads cacheWrite and flex from AUTOHEDGE_PRICES', async () => {
    const table = await loadPriceTable({
      AUTOHEDGE_PRICES:
        '{"my-model": {"input": 1, "output": 2, "cacheWrite": 1.25, "flex": {"input": 0.5, "output": 1}}}',
    });
    expect(priceFor('my-model', table)).toEqual({
      input: 1,
      cachedInput: 1,
      output: 2,
      cacheWrite: 1.25,
      flex: { input: 0.5, cachedInput: 0.5, output: 1 },
    });
    await expect(
      loadPriceTable({ AUTOHEDGE_PRICES: '{"m": {"input": 1, "output": 2, "flex": {"input": 1}}}' }),
    ).rejects.toThrow(/AUTOHEDGE_PRICES/);
  });
});

describe('the capability table', () => {
  it.each([
    ['https://api.openai.com/v1', 'gpt-4.1', { promptCacheKey: true, breakpoints: false, toolsInPrefix: true }],
    [
      'https://x.openai.azure.com/openai/v1',
      'gpt-4.1',
      { promptCacheKey: false, breakpoints: false, toolsInPrefix: false },
    ],
    [
      'https://integrate.api.nvidia.com/v1',
      'nemotron',
      { promptCacheKey: false, breakpoints: false, toolsInPrefix: false },
    ],
    [
      'https://openrouter.ai/api/v1',
      'anthropic/claude-sonnet-4.5',
      { promptCacheKey: true, breakpoints: true, toolsInPrefix: false },
    ],
    [
      'https://openrouter.ai/api/v1',
      'openai/gpt-4.1',
      { promptCacheKey: true, breakpoints: false, toolsInPrefix: false },
    ],
    ['http://127.0.0.1:11434/v1', 'qwen3:8b', { promptCacheKey: true, breakpoints: false, toolsInPrefix: false }],
  ])('%s %s', (baseURL, model, expected) => {
    expect(cacheCapabilitiesOf(baseURL, model)).toEqual(expected);
  });
});

describe('what goes on the wire', () => {
  let server: OpenAIServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  const request = (extra: Partial<ChatRequest> = {}): ChatRequest => ({
    model: 'gpt-5-mini',
    messages: [
      { role: 'system', content: 'SHARED BLOCK\n\nYou are the Quant desk.' },
      { role: 'user', content: 'Go.' },
    ],
    cache: { key: 'ACME@2026-11-27T21:00:00.000Z', sharedChars: 'SHARED BLOCK\n\n'.length },
    ...extra,
  });

  it('falls back to the default tier once on a 400 for flex, with one warning, and never loops', async () => {
    server = await startOpenAIServer((body) =>
      body.service_tier === 'flex'
        ? errorReply(400, {
            message: "Invalid value: 'flex'. Supported values for service_tier are: 'auto' and 'default'.",
          })
        : textAnswer('ok'),
    );
    const warnings: string[] = [];
    const model = createOpenAIModel({
      baseURL: server.url,
      pacers: null,
      maxRetries: 0,
      warn: (text) => warnings.push(text),
    });
    const first = await model.complete(request({ serviceTier: 'flex' }));
    const second = await model.complete(request({ serviceTier: 'flex' }));
    expect([first.message.content, second.message.content]).toEqual(['ok', 'ok']);
    expect(server.requests.map((sent) => sent.body.service_tier ?? 'none')).toEqual(['flex', 'none', 'none']);
    expect(warnings).toEqual([
      'the server refused flex processing for gpt-5-mini; it runs at the default tier for the rest of this command',
    ]);
  });

  it('sends prompt_cache_key, a breakpoint where the model has one, and drops a refused key once', async () => {
    server = await startOpenAIServer((body) =>
      body.prompt_cache_key
        ? errorReply(400, { message: 'Unrecognized request argument supplied: prompt_cache_key' })
        : textAnswer('ok'),
    );
    const warnings: string[] = [];
    const model = createOpenAIModel({
      baseURL: server.url,
      pacers: null,
      maxRetries: 0,
      warn: (text) => warnings.push(text),
      cacheCapabilities: { breakpoints: true },
    });
    await model.complete(request());
    await model.complete(request());
    expect(server.requests.map((sent) => sent.body.prompt_cache_key ?? null)).toEqual([
      'ACME@2026-11-27T21:00:00.000Z',
      null,
      null,
    ]);
    expect(server.requests[0]!.body.messages[0].content).toEqual([
      { type: 'text', text: 'SHARED BLOCK\n\n', cache_control: { type: 'ephemeral' } },
      { type: 'text', text: 'You are the Quant desk.' },
    ]);
    expect(warnings).toHaveLength(1);
  });
});
