// The scripted server others reuse (pipeline, smoke tests, benchmark): its own promises.
import { afterEach, describe, expect, it } from 'vitest';
import { createOpenAIModel } from '../../src/llm/openai-model.js';
import type { ChatRequest } from '../../src/llm/types.js';
import {
  answerChunks,
  answerSse,
  splitInto,
  startOpenAIServer,
  textAnswer,
  toolCallAnswer,
  type OpenAIServer,
} from '../support/openai-server.js';

let server: OpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const ask = (agent: string): ChatRequest => ({
  model: 'gpt-4.1-mini',
  agent,
  messages: [{ role: 'user', content: `hello from ${agent}` }],
});

describe('startOpenAIServer', () => {
  it('answers by a handler of the request, so concurrent callers get their own reply', async () => {
    server = await startOpenAIServer((body, index, request) =>
      textAnswer(`${request.headers['x-autohedge-agent']} #${index}: ${body.messages[0].content}`, { delayMs: 30 }),
    );
    const model = createOpenAIModel({ apiKey: 'sk-test', baseURL: server.url, maxRetries: 0 });

    const [quant, risk] = await Promise.all([model.complete(ask('quant')), model.complete(ask('risk'))]);

    expect(quant.message.content).toMatch(/^quant #[01]: hello from quant$/);
    expect(risk.message.content).toMatch(/^risk #[01]: hello from risk$/);
    // Both requests arrived before either was answered: they overlapped.
    const [first, second] = server.requests;
    expect(Math.max(first!.receivedAt, second!.receivedAt)).toBeLessThanOrEqual(
      Math.min(first!.answeredAt!, second!.answeredAt!),
    );
  });

  it('sends one described answer streamed or whole, as each request asks', async () => {
    const answer = toolCallAnswer([{ id: 'call_9', name: 'exa_search', arguments: { query: 'NVDA' } }], {
      usage: { prompt_tokens: 7, completion_tokens: 3 },
    });
    server = await startOpenAIServer([answer, answer]);
    const streamed = createOpenAIModel({ apiKey: 'sk-test', baseURL: server.url, maxRetries: 0 });
    const whole = createOpenAIModel({ apiKey: 'sk-test', baseURL: server.url, maxRetries: 0, stream: false });

    const responses = [await streamed.complete(ask('sentiment')), await whole.complete(ask('sentiment'))];

    expect(responses[0]).toEqual(responses[1]);
    expect(responses[0]?.message.tool_calls).toEqual([
      { id: 'call_9', type: 'function', function: { name: 'exa_search', arguments: '{"query":"NVDA"}' } },
    ]);
  });

  it('builds chunks shaped like the recorded stream: name first, then argument fragments, then usage', () => {
    const chunks = answerChunks({
      model: 'm',
      toolCalls: [{ id: 'call_1', name: 'exa_search', arguments: '{"query":"NVDA"}' }],
      pieces: 2,
    }) as Array<{ choices: Array<{ delta: any; finish_reason: string | null }>; usage?: unknown }>;

    expect(chunks.map((chunk) => chunk.choices[0]?.delta ?? 'usage')).toEqual([
      { role: 'assistant', content: null, refusal: null },
      { tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'exa_search', arguments: '' } }] },
      { tool_calls: [{ index: 0, function: { arguments: '{"query"' } }] },
      { tool_calls: [{ index: 0, function: { arguments: ':"NVDA"}' } }] },
      {},
      'usage',
    ]);
    expect(chunks[4]?.choices[0]?.finish_reason).toBe('tool_calls');
    expect(answerSse({ model: 'm', text: 'hi' }).endsWith('data: [DONE]\n\n')).toBe(true);
    expect(splitInto('abcdefg', 3)).toEqual(['abc', 'def', 'g']);
  });

  it('reports an exhausted script as a non-retried 400 naming the request', async () => {
    server = await startOpenAIServer([]);
    const model = createOpenAIModel({ apiKey: 'sk-test', baseURL: server.url, maxRetries: 2 });

    await expect(model.complete(ask('quant'))).rejects.toThrow(/openai-server: no scripted reply left for request 1/);
    expect(server.requests).toHaveLength(1);
  });

  it('closes promptly while a reply hangs', async () => {
    server = await startOpenAIServer([{ hang: true }]);
    const model = createOpenAIModel({ apiKey: 'sk-test', baseURL: server.url, maxRetries: 0 });
    const call = model.complete(ask('risk')).catch((error: Error) => error);
    for (let tries = 0; tries < 100 && server.requests.length === 0; tries += 1)
      await new Promise((resolve) => setTimeout(resolve, 5));

    await server.close();
    server = undefined;

    expect(await call).toBeInstanceOf(Error);
  });
});
