import { agentIds } from '../../agents/index.js';
import type { ChalkInstance } from 'chalk';
import type { EventSink, RunEvent } from '../events.js';
import type { ChatMessage, ChatRequest, ChatResponse } from '../llm/types.js';
import { formatDuration, formatNumber, formatTokens, oneLine } from './format.js';
import { sanitizeDeep } from '../sanitize.js';
import { createPalette } from './palette.js';

/**
 * `--trace`: the tool-calling protocol as it happens, per agent — each request's
 * new messages, each assistant message with its tool_calls (id, function.name,
 * function.arguments), each role:"tool" message with its tool_call_id, each
 * finish_reason and the usage. Every event is written in one piece, so concurrent
 * agents interleave by whole blocks, each line tagged with its agent.
 */
export interface TraceOptions {
  write: (text: string) => void;
  color: boolean;
  /** Message and tool-result content is cut here, with a marker. Default 300. */
  maxContentChars?: number;
  /** Put before every agent tag, e.g. the ticker when several run side by side. */
  label?: string;
}

export const defaultTraceContentChars = 300;

interface AgentState {
  /** The conversation already shown: the last request's messages plus its answer. */
  shown: ChatMessage[];
  /** tool_call_ids whose role:"tool" message was printed when the tool finished. */
  toolMessagesShown: Set<string>;
}

export function createTraceSink(options: TraceOptions): EventSink {
  const paint = createPalette(options.color);
  const max = options.maxContentChars ?? defaultTraceContentChars;
  // Per sink, never module-level: two runs never share what was shown.
  const agents = new Map<string, AgentState>();
  const stateOf = (agent: string): AgentState => {
    let state = agents.get(agent);
    if (!state) {
      state = { shown: [], toolMessagesShown: new Set() };
      agents.set(agent, state);
    }
    return state;
  };

  return (unsafe: RunEvent) => {
    // Tool arguments and results, names and errors are untrusted; the colours added below are ours.
    const event = sanitizeDeep(unsafe);
    const lines = describe(event, { paint, max, stateOf });
    if (lines.length === 0) return;
    const who = event.type === 'warning' ? 'warning' : event.agent;
    const tag =
      event.type === 'warning'
        ? paint.yellow(`[${options.label ? `${options.label} ` : ''}warning]`)
        : agentTag(who, options.label, paint);
    options.write(lines.map((line) => `${tag} ${line}\n`).join(''));
  };
}

interface Context {
  paint: ChalkInstance;
  max: number;
  stateOf: (agent: string) => AgentState;
}

function describe(event: RunEvent, context: Context): string[] {
  const { paint } = context;
  switch (event.type) {
    case 'agent-start': {
      const state = context.stateOf(event.agent);
      state.shown = [];
      state.toolMessagesShown.clear();
      return [paint.bold(`▶ start (model ${event.model})`)];
    }
    case 'model-call':
      return modelCall(event, context);
    case 'tool-call':
      // The assistant message above already listed the call; this is where it starts running.
      return [paint.dim(`⚙ running ${cut(event.name, nameMax)} (id ${cut(event.id, nameMax)})`)];
    case 'tool-result': {
      context.stateOf(event.agent).toolMessagesShown.add(event.id);
      const head = `← role:"tool" tool_call_id ${cut(event.id, nameMax)} (${cut(event.name, nameMax)}, ${formatDuration(event.durationMs)})`;
      const lines = [
        event.error ? paint.red(`${head} error: ${content(event.error, context.max)}`) : paint.magenta(head),
      ];
      lines.push(`  content: ${content(event.content, context.max)}`);
      return lines;
    }
    case 'agent-end': {
      const took = formatDuration(event.durationMs);
      if (event.status === 'ok') return [paint.bold.green(`■ end ok (${took})`)];
      return [paint.bold.red(`■ end failed (${took}): ${content(event.error ?? 'unknown error', context.max)}`)];
    }
    case 'usage':
      // Already shown with the response it belongs to.
      return [];
    case 'search-usage': {
      const tokens = event.usage
        ? `, ${event.usage.promptTokens} prompt + ${event.usage.completionTokens} completion tokens`
        : '';
      return [paint.dim(`⌕ search via ${event.provider}${event.model ? ` (${event.model}${tokens})` : ''}`)];
    }
    case 'warning':
      return [paint.yellow(content(event.message, context.max))];
  }
}

function modelCall(event: Extract<RunEvent, { type: 'model-call' }>, context: Context): string[] {
  const { paint } = context;
  const state = context.stateOf(event.agent);
  const lines = [paint.bold.cyan(`→ request #${event.call} (${requestSummary(event.request)})`)];

  const messages = event.request.messages;
  // Only what this request adds to the conversation already shown; a new conversation
  // (the Director's second structured call, say) is shown whole.
  const start = extendsConversation(messages, state.shown) ? state.shown.length : 0;
  for (const message of messages.slice(start)) {
    if (message.role === 'tool' && state.toolMessagesShown.has(message.tool_call_id)) continue;
    lines.push(...messageLines(message, context));
  }
  lines.push(...responseLines(event.response, event.durationMs, context));
  state.shown = [...messages, event.response.message];
  return lines;
}

function extendsConversation(messages: ChatMessage[], shown: ChatMessage[]): boolean {
  if (shown.length === 0 || messages.length < shown.length) return false;
  return shown.every((message, index) => sameMessage(message, messages[index]!));
}

/** Same role, text and tool call ids: an answer echoed back may drop fields such as refusal. */
function sameMessage(a: ChatMessage, b: ChatMessage): boolean {
  if (a.role !== b.role) return false;
  if ((a.content ?? '') !== (b.content ?? '')) return false;
  if (a.role === 'tool' && b.role === 'tool') return a.tool_call_id === b.tool_call_id;
  if (a.role === 'assistant' && b.role === 'assistant') {
    const ids = (message: typeof a) => (message.tool_calls ?? []).map((call) => call.id).join(',');
    return ids(a) === ids(b);
  }
  return true;
}

function requestSummary(request: Omit<ChatRequest, 'signal'>): string {
  const parts = [`model ${request.model}`];
  if (request.tools && request.tools.length > 0) {
    parts.push(`tools: ${request.tools.map((tool) => tool.function.name).join(', ')}`);
    parts.push(`tool_choice ${request.toolChoice ?? 'auto'}`);
  } else if (request.toolChoice) {
    parts.push(`tool_choice ${request.toolChoice}`);
  }
  if (request.responseFormat) parts.push(`response_format json_schema ${request.responseFormat.json_schema.name}`);
  return parts.join(', ');
}

function messageLines(message: ChatMessage, context: Context): string[] {
  const { paint } = context;
  switch (message.role) {
    case 'system':
    case 'user':
      return [paint.dim(`  ${message.role}: ${content(message.content, context.max)}`)];
    case 'tool':
      return [paint.dim(`  tool (tool_call_id ${message.tool_call_id}): ${content(message.content, context.max)}`)];
    case 'assistant':
      return [
        paint.dim('  assistant (earlier answer):'),
        ...assistantLines(message, context).map((line) => `  ${line}`),
      ];
  }
}

function responseLines(response: ChatResponse, durationMs: number, context: Context): string[] {
  const { paint } = context;
  const usage = response.usage;
  const cached = usage.cachedPromptTokens > 0 ? ` (${formatTokens(usage.cachedPromptTokens)} cached)` : '';
  const finish = response.finishReason ?? 'null';
  const head = `← assistant (finish_reason ${finish}, ${formatDuration(durationMs)}, model ${response.model})`;
  return [
    paint.bold.green(head),
    ...assistantLines(response.message, context),
    paint.dim(`  usage: ${formatTokens(usage.promptTokens)} in${cached} / ${formatTokens(usage.completionTokens)} out`),
  ];
}

function assistantLines(message: Extract<ChatMessage, { role: 'assistant' }>, context: Context): string[] {
  const { paint } = context;
  const lines: string[] = [];
  if (message.content !== null && message.content !== '')
    lines.push(`  content: ${content(message.content, context.max)}`);
  if (message.refusal) lines.push(paint.red(`  refusal: ${content(message.refusal, context.max)}`));
  for (const call of message.tool_calls ?? []) {
    lines.push(
      `  tool_call id ${paint.bold(cut(call.id, nameMax))} function.name ${paint.bold(cut(call.function.name, nameMax))} function.arguments ${content(call.function.arguments, context.max)}`,
    );
  }
  if (lines.length === 0) lines.push(paint.dim('  content: (empty)'));
  return lines;
}

/** Ids and names come from the model too; a real one is far shorter. */
const nameMax = 100;

function content(text: string, max: number): string {
  return cut(oneLine(text), max);
}

/**
 * At most `max` characters, then a marker giving the full size, so a 10 MB argument or
 * result is one readable line that still says how big it was. Never splits a surrogate pair.
 */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max);
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}… [cut: ${formatNumber(text.length, 0)} characters in all]`;
}

const agentColors = ['cyan', 'magenta', 'blue', 'green', 'yellow'] as const;
const knownAgents: readonly string[] = agentIds;

function agentTag(agent: string, label: string | undefined, paint: ChalkInstance): string {
  const index = knownAgents.indexOf(agent);
  const color = agentColors[(index >= 0 ? index : agent.length) % agentColors.length]!;
  return paint[color](`[${label ? `${label} ` : ''}${agent}]`);
}
