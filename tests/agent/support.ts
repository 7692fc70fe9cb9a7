import { z } from 'zod';
import type { AgentSpec } from '../../src/agent/types.js';
import type { RunEvent } from '../../src/events.js';
import type { ChatMessage } from '../../src/llm/types.js';
import { defineTool } from '../../src/tools/define-tool.js';

export const asOf = new Date('2025-10-10T20:00:00Z');

export const systemPrompt = 'You are a careful analyst.';

export function agentSpec(overrides: Partial<AgentSpec> = {}): AgentSpec {
  return {
    id: 'sentiment',
    name: 'Sentiment',
    description: 'Reads the news',
    model: 'gpt-4o-mini',
    instructions: systemPrompt,
    tools: [],
    ...overrides,
  };
}

export const weatherTool = defineTool({
  name: 'get_weather',
  description: 'Current weather for a city',
  outputs: 'one line: city, conditions, temperature',
  parameters: z.object({ city: z.string().describe('City name') }),
  run: async ({ city }) => (city === 'Beijing' ? 'Beijing: rain, 18°C' : `${city}: cloudy, 20°C`),
});

export function eventLog(): { events: RunEvent[]; sink: (event: RunEvent) => void } {
  const events: RunEvent[] = [];
  return { events, sink: (event) => events.push(event) };
}

export function assistantToolCall(id: string, name: string, args: string): ChatMessage {
  return {
    role: 'assistant',
    content: null,
    tool_calls: [{ id, type: 'function', function: { name, arguments: args } }],
  };
}

/** A promise with its resolver outside, for making tools wait on each other. */
export function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}
