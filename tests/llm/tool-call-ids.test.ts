import { describe, expect, it } from 'vitest';
import { toolCallsOfMessage } from '../../src/llm/tool-calls.js';

describe('tool-call ids across responses', () => {
  it('an id an earlier response already used is replaced, so every tool message pairs with one call', () => {
    const calls = toolCallsOfMessage(
      [
        { id: 'call_0', type: 'function', function: { name: 'lookup', arguments: '{"q":"a"}' } },
        { id: 'call_1', type: 'function', function: { name: 'lookup', arguments: '{"q":"b"}' } },
      ],
      ['call_0'],
    );
    expect(calls.map((call) => call.id)).toEqual(['call_autohedge_1', 'call_1']);
    expect(calls.map((call) => call.function.arguments)).toEqual(['{"q":"a"}', '{"q":"b"}']);
  });
});
