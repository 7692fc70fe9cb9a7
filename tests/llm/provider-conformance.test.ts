// Conformance with real recorded traffic of ten OpenAI-compatible providers, collected
// from public projects' test suites (tests/fixtures/providers/PROVENANCE.md). Each
// recorded body is served by the loopback server to the real `openai` SDK through
// createOpenAIModel; a tool-call answer is then followed up the way the agent loop does,
// and the follow-up request must pair every tool result with its call.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createOpenAIModel } from '../../src/llm/openai-model.js';
import type { ChatMessage, ChatRequest } from '../../src/llm/types.js';
import { startOpenAIServer, textAnswer, type OpenAIServer, type Reply } from '../support/openai-server.js';

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'providers');
const read = (file: string) => readFileSync(path.join(fixtures, file), 'utf8');

/** How the recording is served: vercel/ai's one-chunk-per-line files are framed as SSE, the rest go out as recorded. */
function replyFor(file: string): { reply: Reply; stream: boolean } {
  const text = read(file);
  if (file.endsWith('.chunks.txt')) {
    const lines = text.split('\n').filter((line) => line.trim() !== '');
    return { reply: { sse: lines.map((line) => `data: ${line}\n\n`).join('') + 'data: [DONE]\n\n' }, stream: true };
  }
  if (file.endsWith('.sse')) return { reply: { sse: text }, stream: true };
  return { reply: { status: 200, text, headers: { 'content-type': 'application/json' } }, stream: false };
}

interface Expected {
  content?: string | null;
  /** [id, name, arguments] per call, in order. */
  calls?: Array<[string, string, string]>;
  reasoningStartsWith?: string;
  reasoningLength?: number;
  finishReason: string;
  usage: [prompt: number, completion: number, cached: number];
  model: string;
}

interface Case {
  provider: string;
  file: string;
  expected: Expected;
}

const weatherSF = '{"location": "San Francisco"}';

const cases: Case[] = [
  {
    provider: 'Qwen (Alibaba), streamed: "id": "" on later fragments',
    file: 'alibaba/alibaba-tool-call.chunks.txt',
    expected: {
      content: null,
      calls: [['call_eee11723464a4b9eb8cee71d', 'weather', weatherSF]],
      finishReason: 'tool_calls',
      usage: [295, 22, 0],
      model: 'qwen3-max',
    },
  },
  {
    provider: 'Qwen (Alibaba), whole',
    file: 'alibaba/alibaba-tool-call.json',
    expected: {
      content: '',
      calls: [['call_962bfd2ab8f54b89a1161356', 'weather', weatherSF]],
      finishReason: 'tool_calls',
      usage: [295, 22, 0],
      model: 'qwen3-max',
    },
  },
  {
    provider: 'DeepSeek, streamed tool call with reasoning_content',
    file: 'deepseek/deepseek-tool-call.chunks.txt',
    expected: {
      content: '',
      calls: [['call_00_ioIn7yN9p1ZOMNpDLwd4MgAF', 'weather', weatherSF]],
      reasoningStartsWith: 'The user is asking for the weather in San Francisco',
      reasoningLength: 191,
      finishReason: 'tool_calls',
      usage: [339, 83, 320],
      model: 'deepseek-reasoner',
    },
  },
  {
    provider: 'DeepSeek, whole tool call with reasoning_content',
    file: 'deepseek/deepseek-tool-call.json',
    expected: {
      content: '',
      calls: [['call_00_9V0vrf86Pc9aelHCJMZqnJBo', 'weather', weatherSF]],
      reasoningStartsWith: 'The user is asking for the weather in San Francisco',
      reasoningLength: 242,
      finishReason: 'tool_calls',
      usage: [339, 92, 320],
      model: 'deepseek-reasoner',
    },
  },
  {
    provider: 'DeepSeek, streamed reasoning then text',
    file: 'deepseek/deepseek-reasoning.chunks.txt',
    expected: {
      content: 'The word "strawberry" contains three "r"s.',
      reasoningStartsWith: 'We need to count the number of the letter "r"',
      reasoningLength: 606,
      finishReason: 'stop',
      usage: [18, 219, 0],
      model: 'deepseek-reasoner',
    },
  },
  {
    provider: 'Groq, streamed (usage in x_groq and at the top)',
    file: 'groq/groq-tool-call.chunks.txt',
    expected: {
      content: null,
      calls: [['tk85n1k4m', 'weather', '{}']],
      finishReason: 'tool_calls',
      usage: [210, 15, 0],
      model: 'llama-3.3-70b-versatile',
    },
  },
  {
    provider: 'Groq, whole (no content field)',
    file: 'groq/groq-tool-call.json',
    expected: {
      content: null,
      calls: [['ax9fskhev', 'weather', '{}']],
      finishReason: 'tool_calls',
      usage: [218, 15, 0],
      model: 'llama-3.3-70b-versatile',
    },
  },
  {
    provider: 'Mistral, streamed: a call without index or type',
    file: 'mistral/mistral-tool-call.chunks.txt',
    expected: {
      content: '',
      calls: [['gSIMJiOkT', 'weather', weatherSF]],
      finishReason: 'tool_calls',
      usage: [124, 22, 0],
      model: 'mistral-small-latest',
    },
  },
  {
    provider: 'Mistral, whole: a call without type',
    file: 'mistral/mistral-tool-call.json',
    expected: {
      content: null,
      calls: [['gSIMJiOkT', 'weather', weatherSF]],
      finishReason: 'tool_calls',
      usage: [124, 22, 0],
      model: 'mistral-small-latest',
    },
  },
  {
    provider: 'Mistral fixture (zai-glm), streamed: id first, then fragments with an empty name',
    file: 'mistral/mistral-incremental-tool-call.chunks.txt',
    expected: {
      content: '',
      calls: [['chatcmpl-tool-9f149c74c42f265b', 'webSearchTool', '{"query": "current Berlin weather"}']],
      finishReason: 'tool_calls',
      usage: [171, 14, 128],
      model: 'zai-glm-5-2',
    },
  },
  {
    provider: 'xAI, streamed: reasoning_content, then the whole call in one fragment',
    file: 'xai/xai-tool-call.chunks.txt',
    expected: {
      content: null,
      calls: [['call_55117580', 'weather', '{"location":"San Francisco"}']],
      reasoningStartsWith: 'First, the user is',
      reasoningLength: 18,
      finishReason: 'tool_calls',
      usage: [291, 26, 290],
      model: 'grok-3-mini',
    },
  },
  {
    provider: 'xAI, whole',
    file: 'xai/xai-tool-call.json',
    expected: {
      content: '',
      calls: [['call_93562515', 'weather', '{"location":"San Francisco"}']],
      reasoningStartsWith: 'First, the user is asking about the weather',
      reasoningLength: 357,
      finishReason: 'tool_calls',
      usage: [291, 26, 244],
      model: 'grok-3-mini',
    },
  },
  {
    provider: 'Azure OpenAI model router, streamed: a first chunk with choices [] and an empty model',
    file: 'azure/azure-model-router.1.chunks.txt',
    expected: {
      content: 'Capital of Denmark.',
      finishReason: 'stop',
      usage: [15, 78, 0],
      model: 'gpt-5-nano-2025-08-07',
    },
  },
  {
    provider: 'DeepSeek on Azure AI Foundry, whole with reasoning_content',
    file: 'azure/azure-deepseek-reasoning.1.json',
    expected: {
      reasoningStartsWith: 'We need to invent a new holiday',
      reasoningLength: 3389,
      finishReason: 'stop',
      usage: [19, 1969, 0],
      model: 'deepseek-v4-pro',
    },
  },
  {
    provider: 'Perplexity, streamed text',
    file: 'perplexity/perplexity-text.chunks.txt',
    expected: { content: '**EcoVista Day**[1][5]', finishReason: 'stop', usage: [11, 434, 0], model: 'sonar' },
  },
  {
    provider: 'Cerebras, whole tool call (qwen-3-coder)',
    file: 'cerebras/test_openai_model_cerebras_provider_qwen_3_coder.2.response.json',
    expected: {
      content: null,
      calls: [['b8847f144', 'final_result', '{"city": "Paris", "country": "France"}']],
      finishReason: 'tool_calls',
      usage: [364, 33, 0],
      model: 'qwen-3-coder-480b',
    },
  },
  {
    provider: 'Ollama, whole text with `reasoning` (gpt-oss)',
    file: 'ollama/test_ollama_cloud_tool_output.1.response.json',
    expected: {
      content: 'Paris.',
      reasoningStartsWith: 'We need to answer question: "What is the capital of France?"',
      reasoningLength: 490,
      finishReason: 'stop',
      usage: [134, 122, 0],
      model: 'gpt-oss:20b',
    },
  },
  {
    provider: 'Ollama, whole tool call with `reasoning`',
    file: 'ollama/test_ollama_cloud_tool_output.2.response.json',
    expected: {
      content: '',
      calls: [['call_o2vnpxrw', 'final_result', '{"city":"Paris","country":"France"}']],
      reasoningStartsWith: 'The conversation: user asked',
      reasoningLength: 763,
      finishReason: 'tool_calls',
      usage: [206, 194, 0],
      model: 'gpt-oss:20b',
    },
  },
  {
    provider: 'OpenRouter (Mistral behind it), whole tool call',
    file: 'openrouter/test_openrouter_tool_calling.1.response.json',
    expected: {
      content: '',
      calls: [['3sniiMddS', 'divide', '{"numerator": 123, "denominator": 456, "on_inf": "infinity"}']],
      finishReason: 'tool_calls',
      usage: [134, 43, 0],
      model: 'mistralai/mistral-small',
    },
  },
  {
    provider: 'OpenRouter (Claude behind it), streamed: keep-alive comments and `reasoning` deltas',
    file: 'openrouter/test_openrouter_streaming_reasoning.1.response.sse',
    expected: {
      content: '2 + 2 = 4',
      reasoningStartsWith: 'This is a simple arithmetic question.',
      reasoningLength: 51,
      finishReason: 'stop',
      usage: [43, 36, 0],
      model: 'anthropic/claude-sonnet-4.5',
    },
  },
];

let server: OpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const question: ChatRequest = {
  model: 'requested-model',
  messages: [{ role: 'user', content: 'What is the weather in San Francisco?' }],
};

describe('conformance with recorded traffic of OpenAI-compatible providers (tests/fixtures/providers)', () => {
  it('covers at least eight providers', () => {
    expect(new Set(cases.map((item) => item.file.split('/')[0])).size).toBeGreaterThanOrEqual(8);
  });

  it.each(cases)('$provider ($file)', async ({ file, expected }) => {
    const { reply, stream } = replyFor(file);
    server = await startOpenAIServer([reply, textAnswer('It is sunny.')]);
    const model = createOpenAIModel({ apiKey: 'sk-test-conformance', baseURL: server.url, maxRetries: 0, stream });

    const response = await model.complete(question);

    const { message } = response;
    // A long recorded text is checked for being there; a short one, or none, exactly.
    if ('content' in expected) expect(message.content).toBe(expected.content);
    else expect(message.content?.length ?? 0).toBeGreaterThan(100);
    expect((message.tool_calls ?? []).map((call) => [call.id, call.function.name, call.function.arguments])).toEqual(
      expected.calls ?? [],
    );
    for (const call of message.tool_calls ?? [])
      expect(() => JSON.parse(call.function.arguments) as unknown).not.toThrow();
    if (expected.reasoningStartsWith) {
      expect(message.reasoning_content?.startsWith(expected.reasoningStartsWith)).toBe(true);
      expect(message.reasoning_content).toHaveLength(expected.reasoningLength ?? 0);
    } else {
      expect(message.reasoning_content).toBeUndefined();
    }
    expect(response.finishReason).toBe(expected.finishReason);
    expect([response.usage.promptTokens, response.usage.completionTokens, response.usage.cachedPromptTokens]).toEqual(
      expected.usage,
    );
    expect(response.model).toBe(expected.model);
    expect(server.requests[0]?.body.stream ?? false).toBe(stream);

    if (!message.tool_calls) return;
    // The follow-up, as the loop builds it: the assistant message as received, one result per call.
    const results = message.tool_calls.map((call): ChatMessage => ({
      role: 'tool',
      tool_call_id: call.id,
      content: `{"ok":true}`,
    }));
    await model.complete({ ...question, messages: [...question.messages, message, ...results] });
    const sent = server.requests[1]?.body as {
      messages: Array<{
        role: string;
        tool_calls?: Array<{ id: string; type: string; function: { name: string; arguments: string } }>;
        tool_call_id?: string;
        reasoning_content?: string;
      }>;
    };
    const assistant = sent.messages[1];
    expect(assistant?.tool_calls).toEqual(message.tool_calls);
    expect(assistant?.tool_calls?.every((call) => call.type === 'function')).toBe(true);
    expect(sent.messages.slice(2).map((item) => [item.role, item.tool_call_id])).toEqual(
      message.tool_calls.map((call) => ['tool', call.id]),
    );
    // A reasoning model keeps its own reasoning between tool rounds (DeepSeek asks for it back).
    expect(assistant?.reasoning_content).toBe(message.reasoning_content);
  });
});
