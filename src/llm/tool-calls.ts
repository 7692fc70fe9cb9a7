/**
 * Tool calls as OpenAI-compatible servers really send them, turned into the one shape
 * the loop needs: a list in call order, each with a unique id, a name and arguments as
 * a JSON string.
 *
 * Streamed calls arrive as fragments. OpenAI gives each call an `index` and its `id` on
 * the first fragment; other servers leave the index out (Mistral), put every parallel
 * call on index 0 with distinct ids, send `"id": ""` on later fragments (Qwen), send no
 * id at all (Gemini's endpoint, local servers), or an index of 4294967294. Calls are
 * therefore kept in a list and found through a Map, never stored in a sparse array.
 */
import type { ToolCall } from './types.js';

interface PendingCall {
  id: string;
  name: string;
  arguments: string;
}

/** A fragment as it comes off the wire: every field may be missing or of the wrong type. */
export interface WireToolCallFragment {
  index?: unknown;
  id?: unknown;
  type?: unknown;
  function?: { name?: unknown; arguments?: unknown } | null;
}

export class ToolCallAssembler {
  private readonly calls: PendingCall[] = [];
  /** The call currently streaming at each wire index. */
  private readonly byIndex = new Map<number, PendingCall>();
  private last: PendingCall | undefined;

  add(fragment: WireToolCallFragment): void {
    const index = typeof fragment.index === 'number' ? fragment.index : undefined;
    const id = nonEmpty(fragment.id);
    const name = nonEmpty(fragment.function?.name);
    let call = index !== undefined ? this.byIndex.get(index) : this.last;
    if (call && startsAnotherCall(call, id, name, fragment.function?.arguments)) call = undefined;
    if (!call) {
      call = { id: '', name: '', arguments: '' };
      this.calls.push(call);
    }
    if (index !== undefined) this.byIndex.set(index, call);
    this.last = call;
    if (id && !call.id) call.id = id;
    // Some servers repeat the name on every fragment; it is never split.
    if (name && !call.name) call.name = name;
    call.arguments += argumentsText(fragment.function?.arguments);
  }

  /** The call being streamed last, for a message naming where a stream broke. */
  current(): { name: string; arguments: string } | undefined {
    return this.last;
  }

  /** The calls in order, with ids made unique against each other and `taken`. */
  finish(taken: Iterable<string> = []): ToolCall[] {
    return withUniqueIds(this.calls, taken);
  }
}

/**
 * Whether a fragment where a call is already streaming (same index, or no index) begins
 * another call: it carries another id (parallel calls on one index, or no index at all),
 * or, without an id, a name and arguments after the current call's arguments are
 * already a whole JSON value (id-less servers that put every call on index 0).
 */
function startsAnotherCall(
  call: PendingCall,
  id: string | undefined,
  name: string | undefined,
  rawArguments: unknown,
): boolean {
  if (id) return call.id !== '' && call.id !== id;
  if (!name || !call.name) return false;
  if (name !== call.name) return true;
  return argumentsText(rawArguments) !== '' && isWholeJson(call.arguments);
}

function isWholeJson(text: string): boolean {
  if (text.trim() === '') return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** A non-streamed message's tool calls, whatever `type` says (Mistral sends none). */
export function toolCallsOfMessage(calls: unknown, taken: Iterable<string> = []): ToolCall[] {
  if (!Array.isArray(calls)) return [];
  const pending = calls.flatMap((raw: unknown): PendingCall[] => {
    const call = (raw ?? {}) as WireToolCallFragment;
    if (call.type !== undefined && call.type !== 'function') return [];
    const name = nonEmpty(call.function?.name);
    if (!name) return [];
    return [{ id: nonEmpty(call.id) ?? '', name, arguments: argumentsText(call.function?.arguments) }];
  });
  return withUniqueIds(pending, taken);
}

/** Every tool-call id already used in a conversation, so new ones cannot collide. */
export function idsInConversation(
  messages: ReadonlyArray<{ role: string; tool_calls?: ToolCall[]; tool_call_id?: string }>,
): Set<string> {
  const ids = new Set<string>();
  for (const message of messages) {
    for (const call of message.tool_calls ?? []) ids.add(call.id);
    if (message.tool_call_id) ids.add(message.tool_call_id);
  }
  return ids;
}

/**
 * A missing or repeated id is replaced by a synthesised one, deterministic (so a recorded
 * run replays byte for byte) and unused anywhere else, so every result pairs with its call.
 */
function withUniqueIds(calls: readonly PendingCall[], taken: Iterable<string>): ToolCall[] {
  // Ids earlier responses already used: a server that numbers ids per response repeats them.
  const earlier = new Set(taken);
  const used = new Set(earlier);
  for (const call of calls) if (call.id) used.add(call.id);
  const seen = new Set<string>();
  let counter = 0;
  const fresh = () => {
    let id: string;
    do id = `call_autohedge_${(counter += 1)}`;
    while (used.has(id));
    used.add(id);
    return id;
  };
  return calls.map((call) => {
    const id = call.id && !seen.has(call.id) && !earlier.has(call.id) ? call.id : fresh();
    seen.add(id);
    return { id, type: 'function', function: { name: call.name, arguments: call.arguments } };
  });
}

function nonEmpty(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** Arguments are a JSON string on the wire; a few servers send the object itself. */
function argumentsText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value !== null && typeof value === 'object') return JSON.stringify(value);
  return '';
}
