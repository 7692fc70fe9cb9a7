import { ConfigError, InterruptedError, errorMessage } from '../errors.js';
import { ignoreEvents } from '../events.js';
import type { ChatMessage, ChatRequest, ChatResponse, Usage } from '../llm/types.js';
import { addUsage, zeroUsage } from '../llm/types.js';
import { ToolRegistry } from '../tools/registry.js';
import { nextStep } from './next-step.js';
import { executeToolCall } from './tool-execution.js';
import type { AgentContext, AgentReport, AgentSpec, ToolCallRecord } from './types.js';
import { toolResultMaxCharacters } from '../tools/limits.js';

export const defaultMaxToolRounds = 5;
export const defaultMaxLoops = 1;
export const defaultToolTimeoutMs = 30_000;
export const defaultMaxToolResultChars = toolResultMaxCharacters;

/** The error of a report whose run was aborted through context.signal. */
export const interruptedMessage = new InterruptedError().message;

/** Sent after a final answer while self-review loops remain (seed 000 §5). */
export const reviewPrompt =
  'Review your previous answer against the task: correct any mistakes, fill any gaps, and drop claims you cannot support. Reply with the complete, improved answer only.';

/**
 * Runs one agent to a final answer: ask the model, run the tools it calls
 * (concurrently, every failure becoming a tool message it can read), ask again,
 * until it answers in text or the round limit forces it to.
 *
 * It never throws for anything a model, a tool or the network does: those end in a
 * report with status "failed" and an error. Only a broken spec (bad limits,
 * duplicate tool names) throws a ConfigError.
 *
 * Interruption rule: when context.signal aborts, the report comes back with status
 * "failed" and error `interruptedMessage` ("interrupted"); the caller, which owns the
 * signal, checks `signal.aborted` to tell an interrupted run from a failed one.
 *
 * `text` is the latest complete answer, kept on a failure in a later review loop.
 */
export async function runAgent(spec: AgentSpec, task: string, context: AgentContext): Promise<AgentReport> {
  const limits = resolveLimits(spec);
  const registry = new ToolRegistry(spec.tools);
  const emit = context.events ?? ignoreEvents;
  const signal = context.signal;
  const started = performance.now();
  const hasTools = registry.size > 0;
  const definitions = registry.definitions();

  const messages: ChatMessage[] = [
    { role: 'system', content: spec.instructions },
    { role: 'user', content: task },
  ];
  const toolCalls: ToolCallRecord[] = [];
  let usage: Usage = zeroUsage();
  let answeredBy = spec.model;
  let text = '';
  let calls = 0;
  let loop = 1;
  let toolRounds = 0;
  // Each loop makes at most maxToolRounds tool-calling requests plus one more.
  const callCap = limits.maxLoops * (limits.maxToolRounds + 1);

  emit({ type: 'agent-start', agent: spec.id, model: spec.model, at: Date.now() });

  const finish = (status: 'ok' | 'failed', error: string | null): AgentReport => {
    const durationMs = performance.now() - started;
    emit({ type: 'agent-end', agent: spec.id, status, durationMs, error });
    return { agent: spec.id, status, text, toolCalls, usage, model: answeredBy, durationMs, error };
  };

  while (true) {
    if (signal?.aborted) return finish('failed', interruptedMessage);
    if (calls >= callCap) return finish('failed', `agent ${spec.id} stopped after ${calls} model calls`);

    const forced = toolRounds >= limits.maxToolRounds;
    const request: Omit<ChatRequest, 'signal'> = {
      model: spec.model,
      // A copy: the conversation keeps growing, the request must show what was sent.
      messages: [...messages],
      ...(hasTools ? { tools: definitions, toolChoice: forced ? ('none' as const) : ('auto' as const) } : {}),
      ...(spec.temperature !== undefined ? { temperature: spec.temperature } : {}),
      ...(spec.maxTokens !== undefined ? { maxTokens: spec.maxTokens } : {}),
      agent: spec.id,
    };
    calls += 1;
    const callStarted = performance.now();
    let response: ChatResponse;
    try {
      response = await context.model.complete(signal ? { ...request, signal } : request);
    } catch (error) {
      return finish('failed', signal?.aborted ? interruptedMessage : errorMessage(error));
    }
    emit({ type: 'model-call', agent: spec.id, call: calls, request, response, durationMs: performance.now() - callStarted });
    emit({ type: 'usage', agent: spec.id, model: response.model, usage: response.usage });
    usage = addUsage(usage, response.usage);
    answeredBy = response.model;

    const step = nextStep(response, { agent: spec.id, forced, hasTools, maxToolRounds: limits.maxToolRounds });
    switch (step.kind) {
      case 'error':
        return finish('failed', step.error);
      case 'run-again': {
        messages.push(response.message);
        const outcomes = await Promise.all(
          step.toolCalls.map((call) =>
            executeToolCall(call, {
              agent: spec.id,
              registry,
              asOf: context.asOf,
              ...(signal ? { signal } : {}),
              timeoutMs: limits.toolTimeoutMs,
              maxResultChars: limits.maxToolResultChars,
              emit,
            }),
          ),
        );
        // Promise.all keeps call order, whatever order the tools finished in.
        step.toolCalls.forEach((call, index) => {
          const outcome = outcomes[index]!;
          messages.push({ role: 'tool', tool_call_id: call.id, content: outcome.content });
          toolCalls.push(outcome.record);
        });
        toolRounds += 1;
        continue;
      }
      case 'final': {
        text = step.text;
        if (step.warning) emit({ type: 'warning', message: step.warning });
        if (loop >= limits.maxLoops) return finish('ok', null);
        messages.push(response.message, { role: 'user', content: reviewPrompt });
        loop += 1;
        toolRounds = 0;
        continue;
      }
    }
  }
}

interface Limits {
  maxToolRounds: number;
  maxLoops: number;
  toolTimeoutMs: number;
  maxToolResultChars: number;
}

function resolveLimits(spec: AgentSpec): Limits {
  const limits: Limits = {
    maxToolRounds: spec.maxToolRounds ?? defaultMaxToolRounds,
    maxLoops: spec.maxLoops ?? defaultMaxLoops,
    toolTimeoutMs: spec.toolTimeoutMs ?? defaultToolTimeoutMs,
    maxToolResultChars: spec.maxToolResultChars ?? defaultMaxToolResultChars,
  };
  const minimums: Record<keyof Limits, number> = { maxToolRounds: 0, maxLoops: 1, toolTimeoutMs: 1, maxToolResultChars: 1 };
  for (const key of Object.keys(minimums) as Array<keyof Limits>) {
    if (!Number.isInteger(limits[key]) || limits[key] < minimums[key]) {
      throw new ConfigError(`agent ${spec.id}: ${key} must be an integer of at least ${minimums[key]}, got ${String(limits[key])}`);
    }
  }
  return limits;
}
