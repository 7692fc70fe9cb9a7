import type {
  AssistantMessage,
  ChatModel,
  ChatRequest,
  ChatResponse,
  FinishReason,
  ToolCall,
  Usage,
} from '../llm/types.js';

/**
 * A ChatModel whose answers are a script: a queue of turns consumed in order.
 * Every request is recorded. assertComplete() fails a test whose workflow drifted
 * (fewer calls than scripted). A turn may be a function of the request, so
 * concurrent agents can be answered by who is asking rather than by arrival order.
 */
export type ScriptedTurn =
  | { text: string; finishReason?: FinishReason; usage?: Partial<Usage>; delayMs?: number }
  | {
      toolCalls: Array<{ id?: string; name: string; arguments: string | Record<string, unknown> }>;
      text?: string;
      usage?: Partial<Usage>;
      delayMs?: number;
    }
  | { refusal: string; usage?: Partial<Usage> }
  | { error: Error; delayMs?: number };

export type ScriptedStep = ScriptedTurn | ((request: ChatRequest) => ScriptedTurn);

export interface RecordedRequest extends Omit<ChatRequest, 'signal'> {
  startedAt: number;
  endedAt?: number;
}

export class ScriptedModel implements ChatModel {
  readonly requests: RecordedRequest[] = [];
  private readonly queues: Map<string, ScriptedStep[]> = new Map();
  private nextToolCallId = 1;

  /** A single queue shared by every caller, or one queue per agent id. */
  constructor(script: ScriptedStep[] | Record<string, ScriptedStep[]>) {
    if (Array.isArray(script)) this.queues.set('*', [...script]);
    else for (const [agent, steps] of Object.entries(script)) this.queues.set(agent, [...steps]);
  }

  async complete(request: ChatRequest): Promise<ChatResponse> {
    const { signal, ...rest } = request;
    const recorded: RecordedRequest = { ...structuredClone(rest), startedAt: Date.now() };
    this.requests.push(recorded);
    const queue = this.queues.get(request.agent ?? '*') ?? this.queues.get('*');
    const step = queue?.shift();
    if (!step) {
      throw new Error(
        `ScriptedModel: no scripted turn left for agent '${request.agent ?? '*'}' (call ${this.requests.length})`,
      );
    }
    const turn = typeof step === 'function' ? step(request) : step;
    if ('delayMs' in turn && turn.delayMs) await sleep(turn.delayMs, signal);
    signal?.throwIfAborted();
    recorded.endedAt = Date.now();
    if ('error' in turn) throw turn.error;
    const usage: Usage = { promptTokens: 100, completionTokens: 20, cachedPromptTokens: 0, ...turn.usage };
    if ('refusal' in turn) {
      return {
        message: { role: 'assistant', content: null, refusal: turn.refusal },
        finishReason: 'stop',
        usage,
        model: request.model,
      };
    }
    if ('toolCalls' in turn) {
      const toolCalls: ToolCall[] = turn.toolCalls.map((call) => ({
        id: call.id ?? `call_${this.nextToolCallId++}`,
        type: 'function',
        function: {
          name: call.name,
          arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
        },
      }));
      const message: AssistantMessage = { role: 'assistant', content: turn.text ?? null, tool_calls: toolCalls };
      return { message, finishReason: 'tool_calls', usage, model: request.model };
    }
    return {
      message: { role: 'assistant', content: turn.text },
      finishReason: turn.finishReason ?? 'stop',
      usage,
      model: request.model,
    };
  }

  /** Requests sent by one agent, in order. */
  requestsOf(agent: string): RecordedRequest[] {
    return this.requests.filter((request) => request.agent === agent);
  }

  remaining(): number {
    let count = 0;
    for (const queue of this.queues.values()) count += queue.length;
    return count;
  }

  assertComplete(): void {
    const left = [...this.queues.entries()].filter(([, queue]) => queue.length > 0);
    if (left.length > 0) {
      const detail = left.map(([agent, queue]) => `${agent}: ${queue.length}`).join(', ');
      throw new Error(`ScriptedModel: script not fully consumed (${detail})`);
    }
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
      return;
    }
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
      },
      { once: true },
    );
  });
}
