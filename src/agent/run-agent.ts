import { ConfigError } from '../errors.js';
import { ignoreEvents, type EventSink } from '../events.js';
import type {
  AssistantMessage,
  ChatMessage,
  ChatRequest,
  ChatResponse,
  JsonSchemaFormat,
  ToolCall,
  Usage,
} from '../llm/types.js';
import { addUsage, zeroUsage } from '../llm/types.js';
import { ToolRegistry } from '../tools/registry.js';
import { failureOf, stoppedFailure, type StopSignals } from './failure.js';
import { nextStep, type NextStep } from './next-step.js';
import { cacheHintOf, forcedTool, openingMessages, outputToolName } from './layout.js';
import { fullSchemaFor, parseAnswer, responseFormatFor, schemaSlipPrompt } from './output.js';
import { executeToolCalls } from './tool-execution.js';
import type { AgentContext, AgentFailure, AgentReport, AgentSpec, ToolCallRecord } from './types.js';

export { interruptedMessage } from './failure.js';
import { toolResultMaxCharacters } from '../tools/limits.js';

export const defaultMaxToolRounds = 5;
export const defaultReviewPasses = 0;
export const defaultToolTimeoutMs = 30_000;
export const defaultMaxToolResultChars = toolResultMaxCharacters;

/** Sent after a final answer while review passes remain and the caller gives no review of its own. */
export const reviewPrompt =
  'Review your previous answer against the task: correct any mistakes, fill any gaps, and drop claims you cannot support. Reply with the complete, improved answer only.';

/**
 * Runs one agent to a final answer: ask the model, run the tools it calls
 * (concurrently, every failure becoming a tool message it can read), ask again,
 * until it answers in text or the round limit forces it to. With an output schema
 * the answer is JSON, validated, re-asked once on a slip, and returned as `output`.
 * Review passes (the original AutoHedge's `max_loops`) then let it improve the answer.
 *
 * It never throws for anything a model, a tool or the network does: those end in a
 * report with status "failed" and a typed `failure`. Only a broken spec (bad limits,
 * duplicate tool names) throws a ConfigError. The spec's own time limit ends in
 * `timeout`, an abort of context.signal in `interrupted` (named by the abort's reason
 * when it has one).
 *
 * `text` (and `output`) are the latest accepted answer, kept on a failure in a later review pass.
 */
export async function runAgent<Output = string>(
  spec: AgentSpec<Output>,
  task: string,
  context: AgentContext<Output>,
): Promise<AgentReport<Output>> {
  return new AgentRun(spec, task, context).execute();
}

interface Limits {
  maxToolRounds: number;
  reviewPasses: number;
  toolTimeoutMs: number;
  maxToolResultChars: number;
}

/** What to do after a final answer. */
type AfterAnswer = { next: 'done' } | { next: 'again' } | { next: 'fail'; failure: AgentFailure };

/** One run's state; each method is one step of the loop. */
class AgentRun<Output> {
  private readonly limits: Limits;
  private readonly registry: ToolRegistry;
  private readonly emit: EventSink;
  private readonly stops: StopSignals;
  private readonly signal: AbortSignal | undefined;
  private readonly responseFormat: JsonSchemaFormat | undefined;
  private readonly fullSchema: Record<string, unknown> | undefined;
  /** Set when the structured answer comes through a forced strict tool (a shared head): its name. */
  private readonly outputTool: string | undefined;
  /** The answer's own assistant message (with its tool call) while it stands, for the turns after it. */
  private submitted: { message: AssistantMessage; callId: string } | undefined;
  private readonly callCap: number;
  private readonly nextCallNumber: () => number;
  private readonly messages: ChatMessage[];
  private readonly toolCalls: ToolCallRecord[] = [];
  private readonly started = performance.now();
  private usage: Usage = zeroUsage();
  private answeredBy: string;
  private text = '';
  private output: { value: Output } | undefined;
  private calls = 0;
  private passes = 0;
  private toolRounds = 0;
  private slips = 0;

  constructor(
    private readonly spec: AgentSpec<Output>,
    task: string,
    private readonly context: AgentContext<Output>,
  ) {
    this.limits = resolveLimits(spec);
    this.registry = new ToolRegistry(spec.tools);
    this.emit = context.events ?? ignoreEvents;
    const timeout = spec.timeoutMs !== undefined ? AbortSignal.timeout(spec.timeoutMs) : undefined;
    this.stops = { caller: context.signal, timeout, timeoutMs: spec.timeoutMs };
    const signals = [context.signal, timeout].filter((signal): signal is AbortSignal => signal !== undefined);
    this.signal = signals.length > 1 ? AbortSignal.any(signals) : signals[0];
    const head = context.shared?.head;
    this.outputTool = head && spec.output ? outputToolName(spec.output) : undefined;
    this.responseFormat = spec.output && !head ? responseFormatFor(spec.output) : undefined;
    this.fullSchema = spec.output && !head ? fullSchemaFor(spec.output) : undefined;
    // Each pass makes at most maxToolRounds tool-calling requests, one answer, and one re-ask of a slip.
    this.callCap = (this.limits.reviewPasses + 1) * (this.limits.maxToolRounds + 1 + (spec.output ? 1 : 0));
    let localCalls = 0;
    this.nextCallNumber = context.nextCallNumber ?? (() => (localCalls += 1));
    this.answeredBy = spec.model;
    this.messages = openingMessages(spec.instructions, task, context.shared);
  }

  async execute(): Promise<AgentReport<Output>> {
    if (this.context.announce !== false)
      this.emit({ type: 'agent-start', agent: this.spec.id, model: this.spec.model, at: Date.now() });
    while (true) {
      const stopped = stoppedFailure(this.stops);
      if (stopped) return this.finish(stopped);
      if (this.calls >= this.callCap)
        return this.finish({ kind: 'limit', message: `agent ${this.spec.id} stopped after ${this.calls} model calls` });
      const forced = this.toolRounds >= this.limits.maxToolRounds;
      const asked = await this.ask(forced);
      if ('kind' in asked) return this.finish(asked);
      const response = this.submission(asked);
      const step = nextStep(response, {
        agent: this.spec.id,
        forced,
        hasTools: this.registry.size > 0,
        maxToolRounds: this.limits.maxToolRounds,
      });
      if (step.kind === 'error') return this.finish({ kind: 'model', message: step.error });
      if (step.kind === 'run-again') {
        await this.runTools(response.message, step.toolCalls);
        continue;
      }
      const after = this.accept(response, step);
      if (after.next === 'done') return this.finish(null);
      if (after.next === 'fail') return this.finish(after.failure);
    }
  }

  /** One model call; a failure comes back typed, never thrown. */
  private async ask(forced: boolean): Promise<ChatResponse | AgentFailure> {
    const spec = this.spec;
    const shared = this.context.shared;
    const request: Omit<ChatRequest, 'signal'> = {
      model: spec.model,
      // A copy: the conversation keeps growing, the request must show what was sent.
      messages: [...this.messages],
      ...this.toolsOf(forced),
      ...(this.responseFormat ? { responseFormat: this.responseFormat, fullSchema: this.fullSchema } : {}),
      // A re-ask of a slip: a local engine gets another seed (src/llm/openai-model.ts).
      ...(this.slips > 0 ? { reask: this.slips } : {}),
      ...(spec.temperature !== undefined ? { temperature: spec.temperature } : {}),
      ...(spec.maxTokens !== undefined ? { maxTokens: spec.maxTokens } : {}),
      ...(spec.seed !== undefined ? { seed: spec.seed } : {}),
      agent: spec.id,
      ...(shared ? { cache: cacheHintOf(shared) } : {}),
      ...(this.context.serviceTier === 'flex' ? { serviceTier: 'flex' as const } : {}),
    };
    // A replayed (or very fast) model answers without the event loop ever turning, so a
    // Ctrl-C would wait for the whole run: each call first lets a pending signal land.
    await new Promise<void>((resolve) => setImmediate(resolve));
    const stopped = stoppedFailure(this.stops);
    if (stopped) return stopped;
    this.calls += 1;
    const callStarted = performance.now();
    let response: ChatResponse;
    try {
      response = await this.context.model.complete(this.signal ? { ...request, signal: this.signal } : request);
    } catch (error) {
      return failureOf(error, this.stops);
    }
    this.emit({
      type: 'model-call',
      agent: spec.id,
      call: this.nextCallNumber(),
      request,
      response,
      durationMs: performance.now() - callStarted,
    });
    this.emit({ type: 'usage', agent: spec.id, model: response.model, usage: response.usage });
    this.usage = addUsage(this.usage, response.usage);
    this.answeredBy = response.model;
    return response;
  }

  /**
   * The tools and tool_choice of a call. With a shared head every call sends the same
   * list: an agent with no tools of its own may call none, a structured answer is the
   * forced submit tool; otherwise the agent's own tools, as before.
   */
  private toolsOf(forced: boolean): Pick<ChatRequest, 'tools' | 'toolChoice'> {
    const head = this.context.shared?.head;
    if (head) {
      if (this.outputTool) return { tools: head, toolChoice: forcedTool(this.outputTool) };
      return { tools: head, toolChoice: this.registry.size > 0 && !forced ? 'auto' : 'none' };
    }
    if (this.registry.size === 0) return {};
    return { tools: this.registry.definitions(), toolChoice: forced ? 'none' : 'auto' };
  }

  /**
   * A structured answer submitted through the forced tool, read as the answer's text (the
   * tool's arguments); the call itself is kept for the conversation's next turns.
   */
  private submission(response: ChatResponse): ChatResponse {
    this.submitted = undefined;
    if (!this.outputTool) return response;
    const call = response.message.tool_calls?.find((candidate) => candidate.function.name === this.outputTool);
    if (!call) return response;
    this.submitted = { message: response.message, callId: call.id };
    const { tool_calls: _calls, ...message } = response.message;
    return { ...response, message: { ...message, content: call.function.arguments } };
  }

  /**
   * What follows an answer in the conversation: the answer as sent, and — for a submitted
   * tool call — the tool message every call needs, carrying `reply` (then no user turn).
   */
  private answerTurns(response: ChatResponse, reply: string): ChatMessage[] {
    if (!this.submitted) return [response.message, { role: 'user', content: reply }];
    const { message, callId } = this.submitted;
    return [message, { role: 'tool', tool_call_id: callId, content: reply }];
  }

  /** Runs the requested calls and appends the assistant message and one tool message per call, in call order. */
  private async runTools(message: AssistantMessage, calls: ToolCall[]): Promise<void> {
    this.messages.push(message);
    const outcomes = await executeToolCalls(calls, {
      agent: this.spec.id,
      registry: this.registry,
      asOf: this.context.asOf,
      historical: this.context.historical === true,
      ...(this.signal ? { signal: this.signal } : {}),
      timeoutMs: this.limits.toolTimeoutMs,
      maxResultChars: this.limits.maxToolResultChars,
      emit: this.emit,
    });
    calls.forEach((call, index) => {
      const outcome = outcomes[index]!;
      this.messages.push({ role: 'tool', tool_call_id: call.id, content: outcome.content });
      this.toolCalls.push(outcome.record);
    });
    this.toolRounds += 1;
  }

  /** A final answer: validated against the output schema when there is one, then reviewed while passes remain. */
  private accept(response: ChatResponse, step: Extract<NextStep, { kind: 'final' }>): AfterAnswer {
    const output = this.spec.output;
    if (output) {
      if (response.finishReason === 'length') {
        // Asking again under the same limit would be cut off again.
        const limit = this.spec.maxTokens ?? 'server';
        return {
          next: 'fail',
          failure: {
            kind: 'model',
            message: `${this.spec.id}: the model's ${output.name} was cut off at the ${limit}-token limit before the JSON was complete`,
          },
        };
      }
      const parsed = parseAnswer(output, response.message.content);
      if (!parsed.ok) return this.slip(response, parsed.error);
      this.slips = 0;
      this.output = { value: parsed.value };
    } else if (step.warning) {
      this.emit({ type: 'warning', message: step.warning });
    }
    this.text = step.text;
    return this.review(response);
  }

  /** An answer that broke the schema is sent back once with the errors; a second slip fails the run. */
  private slip(response: ChatResponse, error: string): AfterAnswer {
    this.slips += 1;
    if (this.slips >= 2) {
      return {
        next: 'fail',
        failure: {
          kind: 'schema',
          message: `${this.spec.id}: the model's ${this.spec.output?.name ?? 'answer'} broke the schema twice (${error})`,
        },
      };
    }
    if (this.submitted) this.messages.push(...this.answerTurns(response, schemaSlipPrompt(error)));
    else
      this.messages.push(
        { role: 'assistant', content: response.message.content ?? '' },
        { role: 'user', content: schemaSlipPrompt(error) },
      );
    return { next: 'again' };
  }

  private review(response: ChatResponse): AfterAnswer {
    if (this.passes >= this.limits.reviewPasses) return { next: 'done' };
    const review = this.context.review;
    const prompt = review
      ? review(this.output ? this.output.value : (this.text as Output), this.passes + 1)
      : reviewPrompt;
    if (prompt === null) return { next: 'done' };
    this.messages.push(...this.answerTurns(response, prompt));
    this.passes += 1;
    this.toolRounds = 0;
    return { next: 'again' };
  }

  private finish(failure: AgentFailure | null): AgentReport<Output> {
    const durationMs = performance.now() - this.started;
    const status = failure === null ? 'ok' : 'failed';
    const error = failure?.message ?? null;
    if (this.context.announce !== false)
      this.emit({ type: 'agent-end', agent: this.spec.id, status, durationMs, error });
    return {
      agent: this.spec.id,
      status,
      text: this.text,
      toolCalls: this.toolCalls,
      usage: this.usage,
      model: this.answeredBy,
      durationMs,
      error,
      failure,
      ...(this.output ? { output: this.output.value } : {}),
    };
  }
}

function resolveLimits(spec: AgentSpec<unknown>): Limits {
  const limits: Limits = {
    maxToolRounds: spec.maxToolRounds ?? defaultMaxToolRounds,
    reviewPasses: spec.reviewPasses ?? defaultReviewPasses,
    toolTimeoutMs: spec.toolTimeoutMs ?? defaultToolTimeoutMs,
    maxToolResultChars: spec.maxToolResultChars ?? defaultMaxToolResultChars,
  };
  const minimums: Record<keyof Limits, number> = {
    maxToolRounds: 0,
    reviewPasses: 0,
    toolTimeoutMs: 1,
    maxToolResultChars: 1,
  };
  for (const key of Object.keys(minimums) as Array<keyof Limits>) {
    if (!Number.isInteger(limits[key]) || limits[key] < minimums[key]) {
      throw new ConfigError(
        `agent ${spec.id}: ${key} must be an integer of at least ${minimums[key]}, got ${String(limits[key])}`,
      );
    }
  }
  if (spec.timeoutMs !== undefined && !(spec.timeoutMs > 0)) {
    throw new ConfigError(`agent ${spec.id}: timeoutMs must be greater than 0, got ${String(spec.timeoutMs)}`);
  }
  return limits;
}
