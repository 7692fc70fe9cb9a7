import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runAgent } from '../../src/agent/run-agent.js';
import type { ToolCall } from '../../src/llm/types.js';
import { ScriptedModel } from '../../src/testing/scripted-model.js';
import { defineTool } from '../../src/tools/define-tool.js';
import { agentSpec, asOf } from './support.js';

/**
 * Conformance against real traffic (pydantic-ai's recording of gpt-4o, two parallel
 * tool calls then stop): given the same model answers, runAgent must send the
 * follow-up request the real client sent, message for message, and the same tools.
 */
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const recorded = path.resolve(repoRoot, '..', 'shared', 'fixtures', 'recorded', 'openai', 'extracted');
const present = existsSync(recorded);
if (!present) console.warn(`skipping recorded-traffic conformance: ${recorded} is absent`);

const readJson = (name: string) => JSON.parse(readFileSync(path.join(recorded, name), 'utf8')) as Record<string, any>;

describe.skipIf(!present)('runAgent against recorded OpenAI traffic (../shared/fixtures/recorded)', () => {
  it('sends the follow-up request of a recorded parallel tool-call exchange', async () => {
    const first = readJson('nonstream_parallel_tool_calls.response.json');
    const followUp = readJson('nonstream_after_tool_results.request.json');
    const last = readJson('nonstream_after_tool_results_stop.response.json');
    const recordedCalls = first.choices[0].message.tool_calls as ToolCall[];

    // The recorded tools: empty descriptions, one string parameter; these tools answered "true" and "Success".
    const fileTool = (name: string, answer: string) =>
      defineTool({
        name,
        description: '',
        outputs: answer,
        parameters: z.object({ path: z.string() }),
        run: async () => answer,
      });
    const model = new ScriptedModel([
      {
        toolCalls: recordedCalls.map((call) => ({
          id: call.id,
          name: call.function.name,
          arguments: call.function.arguments,
        })),
      },
      { text: last.choices[0].message.content as string },
    ]);
    const [system, user] = followUp.messages as Array<{ content: string }>;
    const report = await runAgent(
      agentSpec({
        model: followUp.model,
        instructions: system!.content,
        tools: [fileTool('create_file', 'Success'), fileTool('delete_file', 'true')],
      }),
      user!.content,
      { model, asOf },
    );
    model.assertComplete();

    const sent = model.requests[1]!;
    expect(sent.messages).toEqual(followUp.messages);
    expect(sent.tools).toEqual(followUp.tools);
    expect(sent.toolChoice).toBe(followUp.tool_choice);
    expect(report.status).toBe('ok');
    expect(report.text).toBe('The file `.env` has been deleted and `test.txt` has been created successfully.');
  });

  it('derives the exact recorded strict definition of a one-string-parameter tool', () => {
    const request = readJson('stream_single_tool_call.request.json');
    const tool = defineTool({
      name: 'get_capital',
      description: '',
      outputs: 'a city',
      parameters: z.object({ country: z.string() }),
      run: async () => 'London',
    });
    expect([tool.definition]).toEqual(request.tools);
  });
});
