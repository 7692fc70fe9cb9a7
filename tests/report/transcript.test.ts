import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { runAgent } from '../../src/agent/run-agent.js';
import type { RunEvent } from '../../src/events.js';
import type { ChatMessage } from '../../src/llm/types.js';
import { createTranscript } from '../../src/report/transcript.js';
import { replayMessages } from '../support/transcript.js';
import { ScriptedModel } from '../../src/testing/scripted-model.js';
import { defineTool } from '../../src/tools/define-tool.js';
import { finalMessages, twoRoundEvents } from './two-round-events.js';

const fixedNow = () => Date.UTC(2026, 10, 27, 21, 0, 5);

function transcriptOf(events: RunEvent[], secrets: string[] = []) {
  const transcript = createTranscript({ secrets, now: fixedNow });
  for (const event of events) transcript.sink(event);
  return transcript.lines();
}

describe('createTranscript', () => {
  test('one JSON object a line, in order, with type, agent and at; usage events add nothing', () => {
    const lines = transcriptOf(twoRoundEvents());
    const parsed = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(parsed.map((line) => line.type)).toEqual([
      'agent-start',
      'model-call',
      'tool-call',
      'tool-call',
      'tool-result',
      'tool-result',
      'model-call',
      'agent-end',
    ]);
    expect(parsed.every((line) => line.agent === 'sentiment')).toBe(true);
    expect(parsed[0]).toEqual({
      type: 'agent-start',
      agent: 'sentiment',
      at: '2026-11-27T21:00:00.000Z',
      model: 'gpt-4o-mini',
    });
    expect(parsed[2]).toEqual({
      type: 'tool-call',
      agent: 'sentiment',
      at: '2026-11-27T21:00:05.000Z',
      id: 'call_abc123',
      name: 'exa_search',
      arguments: '{"query":"ACME earnings","numResults":3,"daysBack":30}',
    });
    expect(parsed[4]).toMatchObject({
      type: 'tool-result',
      id: 'call_def456',
      name: 'exa_search',
      error: null,
      durationMs: 410,
    });
    expect(parsed[7]).toEqual({
      type: 'agent-end',
      agent: 'sentiment',
      at: '2026-11-27T21:00:05.000Z',
      status: 'ok',
      durationMs: 4600,
      error: null,
    });
  });

  test('a model-call line holds the full request and the response', () => {
    const events = twoRoundEvents();
    const call = events[7] as Extract<RunEvent, { type: 'model-call' }>;
    const line = JSON.parse(transcriptOf(events)[6]!);
    expect(line).toEqual({
      type: 'model-call',
      agent: 'sentiment',
      at: '2026-11-27T21:00:05.000Z',
      call: 2,
      durationMs: 2100,
      request: call.request,
      response: call.response,
    });
  });

  test('the product module carries no test-only helper: rebuilding messages lives in tests/support', async () => {
    expect(Object.keys(await import('../../src/report/transcript.js')).sort()).toEqual(['createTranscript']);
  });

  test('replayMessages rebuilds the final message list of the two-round run', () => {
    expect(replayMessages(transcriptOf(twoRoundEvents()), 'sentiment')).toEqual(finalMessages());
    expect(replayMessages(transcriptOf(twoRoundEvents()), 'quant')).toEqual([]);
  });

  test('a run that stopped after asking for tools replays with the tool messages that followed, in call order', () => {
    // Drop the second model call and the end: the run stopped after the tools ran.
    const events = twoRoundEvents().slice(0, 7);
    const expected = finalMessages().slice(0, 5);
    expect(replayMessages(transcriptOf(events), 'sentiment')).toEqual(expected);
  });

  test('the transcript of a real runAgent loop over a ScriptedModel replays its exact message sequence', async () => {
    const lookup = defineTool({
      name: 'lookup',
      description: 'Look a word up.',
      parameters: z.object({ word: z.string() }),
      outputs: 'a definition',
      run: async ({ word }) => `${word}: a definition`,
    });
    const model = new ScriptedModel({
      sentiment: [
        { toolCalls: [{ id: 'call_A', name: 'lookup', arguments: { word: 'alpha' } }] },
        {
          toolCalls: [
            { id: 'call_B', name: 'lookup', arguments: { word: 'beta' } },
            { id: 'call_C', name: 'nope', arguments: '{}' },
          ],
        },
        { text: 'Alpha and beta looked up.' },
      ],
      quant: [{ text: 'Trend up.' }],
    });
    const transcript = createTranscript({ now: fixedNow });
    const asOf = new Date('2026-11-27T21:00:00Z');
    const spec = (id: string) => ({
      id,
      name: id,
      description: '',
      model: 'gpt-4o-mini',
      instructions: `You are ${id}.`,
      tools: id === 'sentiment' ? [lookup] : [],
    });
    // Two agents at once: their lines interleave, and each still replays on its own.
    await Promise.all([
      runAgent(spec('sentiment'), 'Look up alpha, then beta.', { model, asOf, events: transcript.sink }),
      runAgent(spec('quant'), 'Trend?', { model, asOf, events: transcript.sink }),
    ]);
    model.assertComplete();
    const lines = transcript.lines();

    const sentimentRequests = model.requestsOf('sentiment');
    expect(sentimentRequests).toHaveLength(3);
    // Every request line carries exactly the messages the model received.
    const requestLines = lines
      .map((line) => JSON.parse(line))
      .filter((line) => line.type === 'model-call' && line.agent === 'sentiment');
    expect(requestLines.map((line) => line.request.messages)).toEqual(
      sentimentRequests.map((request) => request.messages),
    );

    const expected: ChatMessage[] = [
      ...sentimentRequests[2]!.messages,
      { role: 'assistant', content: 'Alpha and beta looked up.' },
    ];
    expect(replayMessages(lines, 'sentiment')).toEqual(expected);
    expect(expected.map((message) => message.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'assistant',
      'tool',
      'tool',
      'assistant',
    ]);
    expect(expected[6]).toMatchObject({ role: 'tool', tool_call_id: 'call_C' });
    expect(replayMessages(lines, 'quant')).toEqual([
      { role: 'system', content: 'You are quant.' },
      { role: 'user', content: 'Trend?' },
      { role: 'assistant', content: 'Trend up.' },
    ]);
  });

  test('secrets and anything shaped like an OpenAI key become REDACTED before a line is made', () => {
    const secret = 'exa-secret-0123456789abcdef';
    const openaiKey = 'sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789';
    const events: RunEvent[] = [
      {
        type: 'model-call',
        agent: 'sentiment',
        call: 1,
        request: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: `key "${secret}"\nand\n${openaiKey}` }] },
        response: {
          message: { role: 'assistant', content: `echo ${secret}` },
          finishReason: 'stop',
          usage: { promptTokens: 1, completionTokens: 1, cachedPromptTokens: 0 },
          model: 'gpt-4o-mini',
        },
        durationMs: 10,
      },
      {
        type: 'tool-result',
        agent: 'sentiment',
        id: 'call_1',
        name: 'exa_search',
        content: `Error: bad key ${secret}`,
        error: `bad key ${secret}`,
        durationMs: 1,
      },
      { type: 'warning', message: `leaked ${openaiKey}` },
    ];
    const lines = transcriptOf(events, [secret]);
    const text = lines.join('\n');
    expect(text).not.toContain(secret);
    expect(text).not.toContain('AbCdEfGhIjKlMnOp');
    expect(JSON.parse(lines[0]!).request.messages[0].content).toBe('key "REDACTED"\nand\nREDACTED');
    expect(JSON.parse(lines[0]!).response.message.content).toBe('echo REDACTED');
    expect(JSON.parse(lines[1]!)).toMatchObject({ content: 'Error: bad key REDACTED', error: 'bad key REDACTED' });
    expect(JSON.parse(lines[2]!)).toEqual({
      type: 'warning',
      agent: null,
      at: '2026-11-27T21:00:05.000Z',
      message: 'leaked REDACTED',
    });
  });

  test('lines() is a copy: later events do not change a list already taken', () => {
    const transcript = createTranscript({ now: fixedNow });
    transcript.sink({ type: 'warning', message: 'one' });
    const taken = transcript.lines();
    transcript.sink({ type: 'warning', message: 'two' });
    expect(taken).toHaveLength(1);
    expect(transcript.lines()).toHaveLength(2);
  });
});
