import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { runAgent } from '../../src/agent/run-agent.js';
import type { RunEvent } from '../../src/events.js';
import type { AssistantMessage, ChatMessage } from '../../src/llm/types.js';
import { createTraceSink } from '../../src/report/trace.js';
import { ScriptedModel } from '../../src/testing/scripted-model.js';
import { defineTool } from '../../src/tools/define-tool.js';
import { twoRoundEvents } from './two-round-events.js';

function traceOf(events: RunEvent[], options: { color?: boolean; maxContentChars?: number; label?: string } = {}) {
  const writes: string[] = [];
  const sink = createTraceSink({
    write: (text) => writes.push(text),
    color: options.color ?? false,
    maxContentChars: options.maxContentChars,
    label: options.label,
  });
  for (const event of events) sink(event);
  return { writes, lines: writes.join('').split('\n').slice(0, -1) };
}

describe('createTraceSink', () => {
  test('a scripted two-round tool run prints the protocol, per agent, in order', () => {
    const { lines } = traceOf(twoRoundEvents());
    expect(lines.slice(0, 8)).toEqual([
      '[sentiment] ▶ start (model gpt-4o-mini)',
      '[sentiment] → request #1 (model gpt-4o-mini, tools: exa_search, tool_choice auto)',
      '[sentiment]   system: You are the Sentiment desk. Search the news first.',
      '[sentiment]   user: Brief: news of the last month. MARKET DATA — ACME',
      '[sentiment] ← assistant (finish_reason tool_calls, 1.2 s, model gpt-4o-mini-2024-07-18)',
      '[sentiment]   tool_call id call_abc123 function.name exa_search function.arguments {"query":"ACME earnings","numResults":3,"daysBack":30}',
      '[sentiment]   tool_call id call_def456 function.name exa_search function.arguments {"query":"ACME export rules","numResults":2,"daysBack":30}',
      '[sentiment]   usage: 812 in / 45 out',
    ]);
    expect(lines.slice(8, 12)).toEqual([
      '[sentiment] ⚙ running exa_search (id call_abc123)',
      '[sentiment] ⚙ running exa_search (id call_def456)',
      '[sentiment] ← role:"tool" tool_call_id call_def456 (exa_search, 410 ms)',
      '[sentiment]   content: No results found for "ACME export rules" published 2026-10-28 to 2026-11-27.',
    ]);
    expect(lines[12]).toBe('[sentiment] ← role:"tool" tool_call_id call_abc123 (exa_search, 820 ms)');
    // Tool content is cut at 300 characters, with a marker saying how much was left out.
    const content = lines[13]!;
    expect(
      content.startsWith(
        '[sentiment]   content: <<<UNTRUSTED WEB CONTENT: 3 search results for "ACME earnings">>> [{"title":"Result 1"',
      ),
    ).toBe(true);
    const shown = content.slice('[sentiment]   content: '.length);
    expect(shown).toMatch(/… \[cut: [\d,]+ characters in all\]$/);
    expect(shown.replace(/… \[cut: [\d,]+ characters in all\]$/, '')).toHaveLength(300);
    // The second request's messages were all shown already (the answer, then the tool results): none repeat.
    expect(lines.slice(14)).toEqual([
      '[sentiment] → request #2 (model gpt-4o-mini, tools: exa_search, tool_choice auto)',
      '[sentiment] ← assistant (finish_reason stop, 2.1 s, model gpt-4o-mini-2024-07-18)',
      '[sentiment]   content: Overall sentiment 0.68 (https://news.example.com/1).',
      '[sentiment]   usage: 1,650 in (512 cached) / 210 out',
      '[sentiment] ■ end ok (4.6 s)',
    ]);
  });

  test('each event is written in one piece, so concurrent agents interleave by whole blocks', () => {
    const { writes } = traceOf(twoRoundEvents());
    // agent-start, model-call, 2 tool-calls, 2 tool-results, model-call, agent-end; usage adds nothing.
    expect(writes).toHaveLength(8);
    expect(writes[1]!.split('\n')).toHaveLength(8);
  });

  test('colour on a TTY, none without', () => {
    expect(traceOf(twoRoundEvents(), { color: true }).writes.join('')).toMatch(/\u001b\[\d+m/);
    expect(traceOf(twoRoundEvents(), { color: false }).writes.join('')).not.toMatch(/\u001b\[/);
  });

  test('maxContentChars and a label for several tickers', () => {
    const { lines } = traceOf(twoRoundEvents(), { maxContentChars: 10, label: 'ACME' });
    expect(lines[2]).toBe('[ACME sentiment]   system: You are th… [cut: 50 characters in all]');
  });

  test('a 1 MB tool argument, result and error are each one cut line saying the full size; control sequences arrive inert', () => {
    const huge = 'x'.repeat(1_000_000);
    const hostile =
      'title \u001b[2J\u001b]0;pwned\u0007\u001b]52;c;ZWNobyBoaQ==\u0007\u001b]8;;https://evil.example\u001b\\link\u001b]8;;\u001b\\ \u009b31m';
    const usage = { promptTokens: 1, completionTokens: 1, cachedPromptTokens: 0 };
    const events: RunEvent[] = [
      {
        type: 'model-call',
        agent: 'sentiment',
        call: 1,
        request: { model: 'gpt-4.1', messages: [{ role: 'user', content: hostile }] },
        response: {
          message: {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: 'call_1',
                type: 'function',
                function: { name: `exa_search${hostile}`, arguments: JSON.stringify({ query: huge }) },
              },
            ],
          },
          finishReason: 'tool_calls',
          usage,
          model: 'gpt-4.1',
        },
        durationMs: 10,
      },
      {
        type: 'tool-call',
        agent: 'sentiment',
        id: 'call_1',
        name: 'exa_search',
        arguments: JSON.stringify({ query: huge }),
      },
      {
        type: 'tool-result',
        agent: 'sentiment',
        id: 'call_1',
        name: 'exa_search',
        content: huge + hostile,
        error: huge,
        durationMs: 5,
      },
    ];
    for (const color of [false, true]) {
      const { writes, lines } = traceOf(events, { color });
      const text = writes.join('');
      expect(text.length).toBeLessThan(3_000);
      // Only autohedge's own SGR colours (ESC [ … m) remain, and only with colour on.
      expect(text.replace(/\u001b\[[0-9;]*m/g, '')).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
      expect(/\u001b/.test(text)).toBe(color);
      const argumentsLine = lines.find((line) => line.includes('function.arguments'))!;
      expect(argumentsLine).toContain(`… [cut: ${(1_000_012).toLocaleString('en-US')} characters in all]`);
      expect(lines.filter((line) => line.includes('[cut: 1,000,000 characters in all]'))).toHaveLength(1);
    }
    expect(traceOf(events).lines[1]).toContain('user: title ␛[2J␛]0;pwned␇');
  });

  test('requests with a response format, tool errors, failures and warnings', () => {
    const events: RunEvent[] = [
      { type: 'agent-start', agent: 'director', model: 'gpt-4.1', at: 0 },
      {
        type: 'model-call',
        agent: 'director',
        call: 1,
        request: {
          model: 'gpt-4.1',
          messages: [
            { role: 'system', content: 'Plan.' },
            { role: 'user', content: 'ACME' },
          ],
          responseFormat: { type: 'json_schema', json_schema: { name: 'plan', schema: {}, strict: true } },
        },
        response: {
          message: { role: 'assistant', content: null, refusal: 'I cannot help with that.' },
          finishReason: 'stop',
          usage: { promptTokens: 10, completionTokens: 2, cachedPromptTokens: 0 },
          model: 'gpt-4.1',
        },
        durationMs: 300,
      },
      {
        type: 'tool-result',
        agent: 'sentiment',
        id: 'call_9',
        name: 'exa_search',
        content: 'Error: Exa rate limit reached (429); try again later',
        error: 'Exa rate limit reached (429); try again later',
        durationMs: 50,
      },
      {
        type: 'agent-end',
        agent: 'director',
        status: 'failed',
        durationMs: 400,
        error: 'the model refused: I cannot help with that.',
      },
      { type: 'warning', message: 'sentiment: answer was cut off (finish_reason length)' },
    ];
    const { lines } = traceOf(events);
    expect(lines).toEqual([
      '[director] ▶ start (model gpt-4.1)',
      '[director] → request #1 (model gpt-4.1, response_format json_schema plan)',
      '[director]   system: Plan.',
      '[director]   user: ACME',
      '[director] ← assistant (finish_reason stop, 300 ms, model gpt-4.1)',
      '[director]   refusal: I cannot help with that.',
      '[director]   usage: 10 in / 2 out',
      '[sentiment] ← role:"tool" tool_call_id call_9 (exa_search, 50 ms) error: Exa rate limit reached (429); try again later',
      '[sentiment]   content: Error: Exa rate limit reached (429); try again later',
      '[director] ■ end failed (400 ms): the model refused: I cannot help with that.',
      '[warning] sentiment: answer was cut off (finish_reason length)',
    ]);
  });

  test('the Director: a schema retry shows only the correction; the decide call, a new conversation, is shown whole', () => {
    const usage = { promptTokens: 5, completionTokens: 5, cachedPromptTokens: 0 };
    const format = { type: 'json_schema' as const, json_schema: { name: 'plan', schema: {}, strict: true as const } };
    const planMessages: ChatMessage[] = [
      { role: 'system', content: 'Plan.' },
      { role: 'user', content: 'ACME data' },
    ];
    const call = (number: number, messages: ChatMessage[], content: string): RunEvent => ({
      type: 'model-call',
      agent: 'director',
      call: number,
      request: { model: 'gpt-4.1', messages, responseFormat: format },
      response: {
        message: { role: 'assistant', content, refusal: null },
        finishReason: 'stop',
        usage,
        model: 'gpt-4.1',
      },
      durationMs: 100,
    });
    const events: RunEvent[] = [
      { type: 'agent-start', agent: 'director', model: 'gpt-4.1', at: 0 },
      call(1, planMessages, 'not json'),
      call(
        2,
        [
          ...planMessages,
          { role: 'assistant', content: 'not json' },
          { role: 'user', content: 'Reply again with only the corrected JSON object.' },
        ],
        '{"thesis":"t"}',
      ),
      call(
        1,
        [
          { role: 'system', content: 'Decide.' },
          { role: 'user', content: 'Reports.' },
        ],
        '{"action":"HOLD"}',
      ),
    ];
    expect(traceOf(events).lines.filter((line) => !line.includes('usage:'))).toEqual([
      '[director] ▶ start (model gpt-4.1)',
      '[director] → request #1 (model gpt-4.1, response_format json_schema plan)',
      '[director]   system: Plan.',
      '[director]   user: ACME data',
      '[director] ← assistant (finish_reason stop, 100 ms, model gpt-4.1)',
      '[director]   content: not json',
      '[director] → request #2 (model gpt-4.1, response_format json_schema plan)',
      '[director]   user: Reply again with only the corrected JSON object.',
      '[director] ← assistant (finish_reason stop, 100 ms, model gpt-4.1)',
      '[director]   content: {"thesis":"t"}',
      '[director] → request #1 (model gpt-4.1, response_format json_schema plan)',
      '[director]   system: Decide.',
      '[director]   user: Reports.',
      '[director] ← assistant (finish_reason stop, 100 ms, model gpt-4.1)',
      '[director]   content: {"action":"HOLD"}',
    ]);
  });

  test('driven by the real runAgent loop over a ScriptedModel: ids, names, arguments, tool_call_id, finish_reason', async () => {
    const lookup = defineTool({
      name: 'lookup',
      description: 'Look a word up.',
      parameters: z.object({ word: z.string() }),
      outputs: 'a definition',
      run: async ({ word }) => `${word}: a definition`,
    });
    const model = new ScriptedModel([
      {
        toolCalls: [
          { id: 'call_A', name: 'lookup', arguments: { word: 'alpha' } },
          { id: 'call_B', name: 'lookup', arguments: { word: 'beta' } },
        ],
      },
      { text: 'Both looked up.' },
    ]);
    const events: RunEvent[] = [];
    await runAgent(
      {
        id: 'sentiment',
        name: 'Sentiment',
        description: '',
        model: 'gpt-4o-mini',
        instructions: 'Be brief.',
        tools: [lookup],
      },
      'Look up alpha and beta.',
      { model, asOf: new Date('2026-11-27T21:00:00Z'), events: (event) => events.push(event) },
    );
    model.assertComplete();
    const text = traceOf(events).lines.join('\n');
    expect(text).toContain('[sentiment] → request #1 (model gpt-4o-mini, tools: lookup, tool_choice auto)');
    expect(text).toContain(
      '[sentiment]   tool_call id call_A function.name lookup function.arguments {"word":"alpha"}',
    );
    expect(text).toContain('[sentiment]   tool_call id call_B function.name lookup function.arguments {"word":"beta"}');
    expect(text).toContain('[sentiment] ← assistant (finish_reason tool_calls,');
    expect(text).toMatch(
      /\[sentiment\] ← role:"tool" tool_call_id call_A \(lookup, \d+ ms\)\n\[sentiment\]   content: alpha: a definition/,
    );
    expect(text).toMatch(
      /\[sentiment\] ← role:"tool" tool_call_id call_B \(lookup, \d+ ms\)\n\[sentiment\]   content: beta: a definition/,
    );
    expect(text).toContain('[sentiment] → request #2 (model gpt-4o-mini, tools: lookup, tool_choice auto)');
    expect(text).toContain('[sentiment] ← assistant (finish_reason stop,');
    expect(text).toContain('[sentiment]   content: Both looked up.');
    expect(text).toContain('[sentiment] ■ end ok');
  });
});

const recorded = resolve(
  import.meta.dirname,
  '..',
  '..',
  '..',
  'shared',
  'fixtures',
  'recorded',
  'openai',
  'extracted',
);
const haveRecorded = existsSync(recorded);
if (!haveRecorded) console.warn(`skipping recorded-traffic trace test: ${recorded} is absent`);

describe.skipIf(!haveRecorded)(
  'trace of a recorded OpenAI exchange (pydantic-ai: two parallel tool calls, then stop)',
  () => {
    test('the real ids, names, arguments and tool_call_ids appear as sent', () => {
      const read = (name: string) => JSON.parse(readFileSync(join(recorded, name), 'utf8'));
      const first = read('nonstream_parallel_tool_calls.response.json');
      const followUp = read('nonstream_after_tool_results.request.json') as {
        messages: Array<Record<string, unknown>>;
        model: string;
      };
      const last = read('nonstream_after_tool_results_stop.response.json');
      const toAssistant = (message: Record<string, unknown>): AssistantMessage => ({
        role: 'assistant',
        content: (message.content as string | null) ?? null,
        ...(message.tool_calls ? { tool_calls: message.tool_calls as AssistantMessage['tool_calls'] } : {}),
      });
      const messages = followUp.messages.map((message) =>
        message.role === 'assistant' ? toAssistant(message) : (message as unknown as ChatMessage),
      );
      const usageOf = (body: { usage: { prompt_tokens: number; completion_tokens: number } }) => ({
        promptTokens: body.usage.prompt_tokens,
        completionTokens: body.usage.completion_tokens,
        cachedPromptTokens: 0,
      });
      const toolMessages = messages.filter(
        (message): message is Extract<ChatMessage, { role: 'tool' }> => message.role === 'tool',
      );
      const events: RunEvent[] = [
        {
          type: 'model-call',
          agent: 'worker',
          call: 1,
          request: { model: followUp.model, messages: messages.slice(0, 2) },
          response: {
            message: toAssistant(first.choices[0].message),
            finishReason: first.choices[0].finish_reason,
            usage: usageOf(first),
            model: first.model,
          },
          durationMs: 900,
        },
        ...toolMessages.map((message): RunEvent => ({
          type: 'tool-result',
          agent: 'worker',
          id: message.tool_call_id,
          name: 'tool',
          content: message.content,
          error: null,
          durationMs: 5,
        })),
        {
          type: 'model-call',
          agent: 'worker',
          call: 2,
          request: { model: followUp.model, messages },
          response: {
            message: toAssistant(last.choices[0].message),
            finishReason: last.choices[0].finish_reason,
            usage: usageOf(last),
            model: last.model,
          },
          durationMs: 700,
        },
      ];
      const { lines } = traceOf(events);
      expect(lines).toContain('[worker] ← assistant (finish_reason tool_calls, 900 ms, model gpt-4o-2024-08-06)');
      expect(lines).toContain(
        '[worker]   tool_call id call_jYdIdRZHxZTn5bWCq5jlMrJi function.name delete_file function.arguments {"path": ".env"}',
      );
      expect(lines).toContain(
        '[worker]   tool_call id call_TmlTVWQbzrXCZ4jNsCVNbNqu function.name create_file function.arguments {"path": "test.txt"}',
      );
      expect(lines).toContain('[worker] ← role:"tool" tool_call_id call_jYdIdRZHxZTn5bWCq5jlMrJi (tool, 5 ms)');
      expect(lines).toContain('[worker]   usage: 71 in / 46 out');
      expect(lines).toContain('[worker] ← assistant (finish_reason stop, 700 ms, model gpt-4o-2024-08-06)');
      expect(lines).toContain(
        '[worker]   content: The file `.env` has been deleted and `test.txt` has been created successfully.',
      );
      // Nothing of request #2 is new: the assistant message and both tool messages were printed already.
      const second = lines.indexOf('[worker] → request #2 (model gpt-4o)');
      expect(lines[second + 1]).toBe('[worker] ← assistant (finish_reason stop, 700 ms, model gpt-4o-2024-08-06)');
    });
  },
);
