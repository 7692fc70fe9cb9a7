import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { runAgent } from '../../src/agent/run-agent.js';
import { ScriptedModel } from '../../src/testing/scripted-model.js';
import type { ToolContext } from '../../src/tools/types.js';
import { defineTool } from '../../src/tools/define-tool.js';
import { agentSpec, asOf } from './support.js';

/** A historical run (--as-of) tells every tool so, through ToolContext; a live run does not. */

function recordingTool() {
  const contexts: ToolContext[] = [];
  const tool = defineTool({
    name: 'lookup',
    description: 'Looks something up',
    outputs: 'one line',
    parameters: z.object({ query: z.string() }),
    run: async (_args, context) => {
      contexts.push(context);
      return 'found';
    },
  });
  return { tool, contexts };
}

describe('ToolContext.historical', () => {
  it.each([
    [true, true],
    [undefined, false],
  ])('agent context historical %s → tool sees %s, with the run clock', async (historical, seen) => {
    const { tool, contexts } = recordingTool();
    const model = new ScriptedModel([{ toolCalls: [{ name: 'lookup', arguments: { query: 'x' } }] }, { text: 'done' }]);
    const report = await runAgent(agentSpec({ tools: [tool] }), 'task', {
      model,
      asOf,
      ...(historical === undefined ? {} : { historical }),
    });
    expect(report.status).toBe('ok');
    expect(contexts).toHaveLength(1);
    expect(contexts[0]).toMatchObject({ asOf, historical: seen });
  });
});
