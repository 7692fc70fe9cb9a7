import { errorMessage } from '../errors.js';
import { sanitizeText } from '../sanitize.js';
import type { EventSink } from '../events.js';
import type { ToolCall } from '../llm/types.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { Tool } from '../tools/types.js';
import type { ToolCallRecord } from './types.js';

export interface ToolExecutionOptions {
  agent: string;
  registry: ToolRegistry;
  asOf: Date;
  historical?: boolean;
  signal?: AbortSignal;
  timeoutMs: number;
  maxResultChars: number;
  emit: EventSink;
}

export interface ToolCallOutcome {
  /** Exactly the content of the role:"tool" message for this call. */
  content: string;
  record: ToolCallRecord;
}

/**
 * At most this many calls of one model response run; the rest get a model-visible
 * error instead, so one response cannot fan out into dozens of searches.
 */
export const maxToolCallsPerResponse = 8;

/**
 * Runs the calls of one response concurrently (up to maxToolCallsPerResponse) and
 * returns one outcome per call, in call order, whatever order the tools finished in.
 */
export async function executeToolCalls(
  calls: readonly ToolCall[],
  options: ToolExecutionOptions,
): Promise<ToolCallOutcome[]> {
  return Promise.all(
    calls.map(async (call, index) =>
      index < maxToolCallsPerResponse ? executeToolCall(call, options) : refuseToolCall(call, calls.length, options),
    ),
  );
}

/** A call past the per-response cap: not run, answered with an error the model can read. */
function refuseToolCall(call: ToolCall, requested: number, options: ToolExecutionOptions): ToolCallOutcome {
  const { name, arguments: argumentsJson } = call.function;
  const error = `not run: at most ${maxToolCallsPerResponse} tool calls run per response and this one asked for ${requested}; ask again for what is still needed`;
  const content = `${errorPrefix}${error}`;
  options.emit({ type: 'tool-call', agent: options.agent, id: call.id, name, arguments: argumentsJson });
  options.emit({ type: 'tool-result', agent: options.agent, id: call.id, name, content, error, durationMs: 0 });
  return { content, record: { id: call.id, name, arguments: argumentsJson, result: null, error, durationMs: 0 } };
}

/**
 * Runs one requested call and never rejects: every way a call can go wrong becomes
 * text the model reads in the tool message, so it can correct itself or carry on.
 */
export async function executeToolCall(call: ToolCall, options: ToolExecutionOptions): Promise<ToolCallOutcome> {
  const { name, arguments: argumentsJson } = call.function;
  options.emit({ type: 'tool-call', agent: options.agent, id: call.id, name, arguments: argumentsJson });
  const started = performance.now();
  const outcome = await attempt(call, options);
  const durationMs = performance.now() - started;
  // A tool's output (web pages, MCP servers, error texts) is untrusted: sanitised where it enters the run.
  const content = truncateToolResult(
    sanitizeText(outcome.ok ? outcome.value : `${errorPrefix}${outcome.error}`),
    options.maxResultChars,
  );
  const error = outcome.ok ? null : sanitizeText(outcome.error);
  options.emit({ type: 'tool-result', agent: options.agent, id: call.id, name, content, error, durationMs });
  return {
    content,
    record: { id: call.id, name, arguments: argumentsJson, result: outcome.ok ? content : null, error, durationMs },
  };
}

/** Keeps one oversized result from crowding the rest of the conversation out of the context window. */
export function truncateToolResult(content: string, maxChars: number): string {
  if (content.length <= maxChars) return content;
  return `${content.slice(0, maxChars)}\n[truncated: ${content.length - maxChars} more characters]`;
}

/** How every failed call reads to the model. */
const errorPrefix = 'Error: ';

type Attempt = { ok: true; value: string } | { ok: false; error: string };

async function attempt(call: ToolCall, options: ToolExecutionOptions): Promise<Attempt> {
  const name = call.function.name;
  const tool = options.registry.get(name);
  if (!tool) {
    const available = options.registry.names();
    return {
      ok: false,
      error: `unknown tool '${name}'. Available tools: ${available.length > 0 ? available.join(', ') : 'none'}`,
    };
  }
  const parsed = tool.parse(call.function.arguments);
  if (!parsed.ok) return { ok: false, error: parsed.error };
  return runWithTimeout(tool, parsed.value, options);
}

/**
 * The tool gets a signal that fires on the run's abort or on this call's timeout.
 * The race means a tool that ignores its signal cannot hold the round past either.
 */
async function runWithTimeout(
  tool: Tool,
  args: Parameters<Tool['run']>[0],
  options: ToolExecutionOptions,
): Promise<Attempt> {
  const timeout = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, timeout.signal]) : timeout.signal;
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const timedOut = new Promise<'timed-out'>((resolve) => {
    timer = setTimeout(() => resolve('timed-out'), options.timeoutMs);
  });
  const aborted = new Promise<'aborted'>((resolve) => {
    onAbort = () => resolve('aborted');
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener('abort', onAbort, { once: true });
  });
  const running = (async (): Promise<Attempt> => {
    const value: unknown = await tool.run(args, {
      asOf: options.asOf,
      historical: options.historical === true,
      signal,
      agent: options.agent,
    });
    if (typeof value !== 'string')
      return { ok: false, error: `tool ${tool.name} failed: it returned ${typeof value}, not text` };
    // A tool signals failure by throwing: a returned string is a success, even one
    // that begins with "Error:" (a log line, a quoted message).
    return { ok: true, value };
  })().catch((error: unknown): Attempt => ({ ok: false, error: errorMessage(error) }));
  try {
    const winner = await Promise.race([running, timedOut, aborted]);
    if (winner === 'timed-out') {
      timeout.abort(new Error(`tool ${tool.name} timed out`));
      return { ok: false, error: `tool ${tool.name} timed out after ${options.timeoutMs} ms` };
    }
    if (winner === 'aborted') return { ok: false, error: `tool ${tool.name} was interrupted` };
    return winner;
  } finally {
    clearTimeout(timer);
    if (onAbort) options.signal?.removeEventListener('abort', onAbort);
  }
}
