import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runAgent } from '../../src/agent/run-agent.js';
import { maxToolCallsPerResponse } from '../../src/agent/tool-execution.js';
import { ScriptedModel } from '../../src/testing/scripted-model.js';
import { defineTool } from '../../src/tools/define-tool.js';
import { agentSpec, asOf } from './support.js';

describe('at most a fixed number of tool calls run per model response', () => {
  it('20 calls in one response: 8 run, 12 answered with an error, every tool message paired by tool_call_id in call order', async () => {
    const ran: number[] = [];
    const count = defineTool({
      name: 'count',
      description: 'Counts',
      outputs: 'the number',
      parameters: z.object({ n: z.number() }),
      run: async ({ n }) => {
        ran.push(n);
        return `counted ${n}`;
      },
    });
    const calls = Array.from({ length: 20 }, (_, n) => ({ id: `call_${n}`, name: 'count', arguments: { n } }));
    const model = new ScriptedModel([{ toolCalls: calls }, { text: 'done' }]);
    const report = await runAgent(agentSpec({ tools: [count] }), 'Count.', { model, asOf });
    model.assertComplete();

    expect(maxToolCallsPerResponse).toBe(8);
    expect(ran.sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    const toolMessages = model.requests[1]!.messages.filter((message) => message.role === 'tool');
    expect(toolMessages.map((message) => message.tool_call_id)).toEqual(calls.map((call) => call.id));
    expect(toolMessages.slice(0, 8).map((message) => message.content)).toEqual(
      calls.slice(0, 8).map((call) => `counted ${call.arguments.n}`),
    );
    for (const message of toolMessages.slice(8)) {
      expect(message.content).toBe(
        'Error: not run: at most 8 tool calls run per response and this one asked for 20; ask again for what is still needed',
      );
    }
    expect(report.toolCalls.filter((call) => call.error === null)).toHaveLength(8);
    expect(report.toolCalls.filter((call) => call.error !== null)).toHaveLength(12);
    expect(report.status).toBe('ok');
  });
});

describe('tool failure is out of band', () => {
  it('a tool returning "Error: disk full" is a success; a tool throwing is a failure the model reads as Error: <message>', async () => {
    const logTail = defineTool({
      name: 'log_tail',
      description: 'Last log line',
      outputs: 'one line',
      parameters: z.object({}),
      run: async () => 'Error: disk full',
    });
    const broken = defineTool({
      name: 'broken',
      description: 'Always fails',
      outputs: 'nothing',
      parameters: z.object({}),
      run: async () => {
        throw new Error('disk full');
      },
    });
    const model = new ScriptedModel([
      {
        toolCalls: [
          { id: 'a', name: 'log_tail', arguments: {} },
          { id: 'b', name: 'broken', arguments: {} },
        ],
      },
      { text: 'The log says the disk is full.' },
    ]);
    const report = await runAgent(agentSpec({ tools: [logTail, broken] }), 'Check the log.', { model, asOf });
    expect(report.toolCalls.map((call) => [call.id, call.result, call.error])).toEqual([
      ['a', 'Error: disk full', null],
      ['b', null, 'disk full'],
    ]);
    const toolMessages = model.requests[1]!.messages.filter((message) => message.role === 'tool').map(
      (message) => message.content,
    );
    expect(toolMessages).toEqual(['Error: disk full', 'Error: disk full']);
  });
});
