import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runAgent } from '../../src/agent/run-agent.js';
import type { AgentSpec } from '../../src/agent/types.js';
import { BudgetExceededError } from '../../src/errors.js';
import { ScriptedModel } from '../../src/testing/scripted-model.js';
import { agentSpec, asOf, eventLog } from './support.js';

const verdict = z.object({ action: z.enum(['BUY', 'SELL', 'HOLD']), size: z.number().min(0).max(100) });
type Verdict = z.infer<typeof verdict>;
const spec = (overrides: Partial<AgentSpec<Verdict>> = {}): AgentSpec<Verdict> => ({
  ...agentSpec(),
  tools: [],
  id: 'director',
  output: { name: 'verdict', schema: verdict },
  ...overrides,
});

describe('runAgent with an output schema', () => {
  it('sends the schema as a strict json_schema response format and returns the typed value', async () => {
    const model = new ScriptedModel([{ text: '{"action":"BUY","size":5}' }]);
    const report = await runAgent(spec(), 'Decide.', { model, asOf });
    model.assertComplete();
    expect(report).toMatchObject({
      status: 'ok',
      failure: null,
      output: { action: 'BUY', size: 5 },
      text: '{"action":"BUY","size":5}',
    });
    const format = model.requests[0]!.responseFormat!;
    expect(format.type).toBe('json_schema');
    expect(format.json_schema).toMatchObject({ name: 'verdict', strict: true });
    expect(format.json_schema.schema).toMatchObject({
      type: 'object',
      additionalProperties: false,
      required: ['action', 'size'],
    });
  });

  it('re-asks once with the validation errors when the answer slips, then accepts the correction', async () => {
    const model = new ScriptedModel([{ text: '{"action":"BUY","size":500}' }, { text: '{"action":"BUY","size":5}' }]);
    const report = await runAgent(spec(), 'Decide.', { model, asOf });
    model.assertComplete();
    expect(report.output).toEqual({ action: 'BUY', size: 5 });
    expect(model.requests[1]!.messages.slice(2)).toEqual([
      { role: 'assistant', content: '{"action":"BUY","size":500}' },
      {
        role: 'user',
        content:
          'Your reply did not match the required JSON schema: size must be <= 100; you sent 500. Reply again with only the corrected JSON object.',
      },
    ]);
  });

  it('fails with kind "schema" after two slips, inventing no value', async () => {
    const model = new ScriptedModel([{ text: 'BUY, definitely.' }, { text: '{"action":"MAYBE","size":1}' }]);
    const report = await runAgent(spec(), 'Decide.', { model, asOf });
    model.assertComplete();
    expect(report.status).toBe('failed');
    expect(report.output).toBeUndefined();
    expect(report.failure?.kind).toBe('schema');
    expect(report.error).toMatch(
      /^director: the model's verdict broke the schema twice \(action must be one of "BUY", "SELL", "HOLD"; you sent "MAYBE"\)$/,
    );
  });

  it("runs review passes through the caller's review step, keeping the last accepted answer", async () => {
    const model = new ScriptedModel([{ text: '{"action":"BUY","size":50}' }, { text: '{"action":"BUY","size":5}' }]);
    const seen: Verdict[] = [];
    const review = (answer: Verdict) => {
      seen.push(answer);
      return answer.size > 10 ? `size ${answer.size} is above 10: revise` : null;
    };
    const report = await runAgent(spec({ reviewPasses: 1 }), 'Decide.', { model, asOf, review });
    model.assertComplete();
    expect(seen).toEqual([{ action: 'BUY', size: 50 }]);
    expect(report.output).toEqual({ action: 'BUY', size: 5 });
    expect(model.requests[1]!.messages.slice(2)).toEqual([
      { role: 'assistant', content: '{"action":"BUY","size":50}' },
      { role: 'user', content: 'size 50 is above 10: revise' },
    ]);
  });

  it('asks no review when the review step finds nothing, and none when passes are 0', async () => {
    const clean = new ScriptedModel([{ text: '{"action":"HOLD","size":0}' }]);
    await runAgent(spec({ reviewPasses: 1 }), 'Decide.', { model: clean, asOf, review: () => null });
    clean.assertComplete();
    const none = new ScriptedModel([{ text: '{"action":"BUY","size":50}' }]);
    const report = await runAgent(spec({ reviewPasses: 0 }), 'Decide.', { model: none, asOf, review: () => 'revise' });
    none.assertComplete();
    expect(report.output).toEqual({ action: 'BUY', size: 50 });
  });

  it('keeps the answer before a review pass that fails, and types the failure', async () => {
    const model = new ScriptedModel([
      { text: '{"action":"BUY","size":50}' },
      { error: new BudgetExceededError('--max-cost reached') },
    ]);
    const report = await runAgent(spec({ reviewPasses: 1 }), 'Decide.', { model, asOf, review: () => 'revise' });
    expect(report).toMatchObject({
      status: 'failed',
      failure: { kind: 'budget', message: '--max-cost reached' },
      output: { action: 'BUY', size: 50 },
    });
  });
});

describe('runAgent: typed failures and one time limit', () => {
  it('its own time limit is a "timeout", the caller\'s abort an "interrupted"', async () => {
    const slow = new ScriptedModel([{ text: 'late', delayMs: 2_000 }]);
    const timedOut = await runAgent(agentSpec({ timeoutMs: 50 }), 'x', { model: slow, asOf });
    expect(timedOut.failure).toEqual({ kind: 'timeout', message: 'timed out after 0.05 s' });

    const controller = new AbortController();
    const stopped = runAgent(agentSpec({ timeoutMs: 5_000 }), 'x', {
      model: new ScriptedModel([{ text: 'late', delayMs: 2_000 }]),
      asOf,
      signal: controller.signal,
    });
    controller.abort(new Error('interrupted'));
    expect((await stopped).failure).toEqual({ kind: 'interrupted', message: 'interrupted' });
  });

  it('a model error is "model", a refused budget "budget"', async () => {
    const failing = await runAgent(agentSpec(), 'x', {
      model: new ScriptedModel([{ error: new Error('503 from upstream') }]),
      asOf,
    });
    expect(failing.failure).toEqual({ kind: 'model', message: '503 from upstream' });
    const capped = await runAgent(agentSpec(), 'x', {
      model: new ScriptedModel([{ error: new BudgetExceededError('cap') }]),
      asOf,
    });
    expect(capped.failure?.kind).toBe('budget');
  });

  it("numbers calls from the caller's counter and stays silent about start and end when the caller announces", async () => {
    let calls = 10;
    const log = eventLog();
    await runAgent(agentSpec(), 'x', {
      model: new ScriptedModel([{ text: 'ok' }]),
      asOf,
      events: log.sink,
      announce: false,
      nextCallNumber: () => (calls += 1),
    });
    expect(log.events.map((event) => event.type)).toEqual(['model-call', 'usage']);
    expect(log.events[0]).toMatchObject({ call: 11 });
  });
});
