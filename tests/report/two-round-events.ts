import type { RunEvent } from '../../src/events.js';
import type { ChatMessage, ToolDefinition } from '../../src/llm/types.js';

/**
 * The events of a real-shaped two-round Sentiment exchange, in the order runAgent
 * emits them: two parallel exa_search calls, their role:"tool" results, then the
 * final answer. Built by hand so trace and transcript tests see exact values.
 */

export const exaSearchDefinition: ToolDefinition = {
  type: 'function',
  function: {
    name: 'exa_search',
    description: 'Search the web (Exa).',
    parameters: {
      type: 'object',
      properties: { query: { type: 'string' }, numResults: { type: 'integer' }, daysBack: { type: 'integer' } },
      required: ['query', 'numResults', 'daysBack'],
      additionalProperties: false,
    },
    strict: true,
  },
};

export const longSearchResult = `<<<UNTRUSTED WEB CONTENT: 3 search results for "ACME earnings">>>\n${JSON.stringify(
  Array.from({ length: 3 }, (_, index) => ({
    title: `Result ${index + 1}`,
    url: `https://news.example.com/${index + 1}`,
    snippet: 'x'.repeat(150),
  })),
)}\n<<<END UNTRUSTED WEB CONTENT>>>`;

export const firstRequestMessages: ChatMessage[] = [
  { role: 'system', content: 'You are the Sentiment desk. Search the news first.' },
  { role: 'user', content: 'Brief: news of the last month.\n\nMARKET DATA — ACME' },
];

export const assistantWithCalls: Extract<ChatMessage, { role: 'assistant' }> = {
  role: 'assistant',
  content: null,
  tool_calls: [
    {
      id: 'call_abc123',
      type: 'function',
      function: { name: 'exa_search', arguments: '{"query":"ACME earnings","numResults":3,"daysBack":30}' },
    },
    {
      id: 'call_def456',
      type: 'function',
      function: { name: 'exa_search', arguments: '{"query":"ACME export rules","numResults":2,"daysBack":30}' },
    },
  ],
};

export const toolMessages: ChatMessage[] = [
  { role: 'tool', tool_call_id: 'call_abc123', content: longSearchResult },
  {
    role: 'tool',
    tool_call_id: 'call_def456',
    content: 'No results found for "ACME export rules" published 2026-10-28 to 2026-11-27.',
  },
];

export const finalAnswer: Extract<ChatMessage, { role: 'assistant' }> = {
  role: 'assistant',
  content: 'Overall sentiment 0.68 (https://news.example.com/1).',
};

export function twoRoundEvents(): RunEvent[] {
  const secondMessages = [...firstRequestMessages, assistantWithCalls, ...toolMessages];
  return [
    { type: 'agent-start', agent: 'sentiment', model: 'gpt-4o-mini', at: Date.UTC(2026, 10, 27, 21) },
    {
      type: 'model-call',
      agent: 'sentiment',
      call: 1,
      request: {
        model: 'gpt-4o-mini',
        messages: [...firstRequestMessages],
        tools: [exaSearchDefinition],
        toolChoice: 'auto',
        agent: 'sentiment',
      },
      response: {
        message: assistantWithCalls,
        finishReason: 'tool_calls',
        usage: { promptTokens: 812, completionTokens: 45, cachedPromptTokens: 0 },
        model: 'gpt-4o-mini-2024-07-18',
      },
      durationMs: 1234,
    },
    {
      type: 'usage',
      agent: 'sentiment',
      model: 'gpt-4o-mini-2024-07-18',
      usage: { promptTokens: 812, completionTokens: 45, cachedPromptTokens: 0 },
    },
    {
      type: 'tool-call',
      agent: 'sentiment',
      id: 'call_abc123',
      name: 'exa_search',
      arguments: '{"query":"ACME earnings","numResults":3,"daysBack":30}',
    },
    {
      type: 'tool-call',
      agent: 'sentiment',
      id: 'call_def456',
      name: 'exa_search',
      arguments: '{"query":"ACME export rules","numResults":2,"daysBack":30}',
    },
    {
      type: 'tool-result',
      agent: 'sentiment',
      id: 'call_def456',
      name: 'exa_search',
      content: (toolMessages[1] as { content: string }).content,
      error: null,
      durationMs: 410,
    },
    {
      type: 'tool-result',
      agent: 'sentiment',
      id: 'call_abc123',
      name: 'exa_search',
      content: longSearchResult,
      error: null,
      durationMs: 820,
    },
    {
      type: 'model-call',
      agent: 'sentiment',
      call: 2,
      request: {
        model: 'gpt-4o-mini',
        messages: secondMessages,
        tools: [exaSearchDefinition],
        toolChoice: 'auto',
        agent: 'sentiment',
      },
      response: {
        message: finalAnswer,
        finishReason: 'stop',
        usage: { promptTokens: 1650, completionTokens: 210, cachedPromptTokens: 512 },
        model: 'gpt-4o-mini-2024-07-18',
      },
      durationMs: 2100,
    },
    {
      type: 'usage',
      agent: 'sentiment',
      model: 'gpt-4o-mini-2024-07-18',
      usage: { promptTokens: 1650, completionTokens: 210, cachedPromptTokens: 512 },
    },
    { type: 'agent-end', agent: 'sentiment', status: 'ok', durationMs: 4600, error: null },
  ];
}

/** The message list the agent ended with. */
export function finalMessages(): ChatMessage[] {
  return [...firstRequestMessages, assistantWithCalls, ...toolMessages, finalAnswer];
}
