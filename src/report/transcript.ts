import type { EventSink, RunEvent } from '../events.js';
import { stringifyJsonSafely } from '../sanitize.js';
import { scrubDeep } from '../scrub.js';

/**
 * transcript.jsonl: every model request and response and every tool call and
 * result, in the order they happened, one JSON object a line. A model-call line
 * holds the full request (messages, tools, tool_choice) and the response message,
 * so the exact message sequence of a run can be rebuilt from the file alone.
 * Every string is scrubbed of the given secrets and of anything shaped like a key
 * before a line is made.
 */

export interface TranscriptOptions {
  /** Exact values to replace with REDACTED wherever they appear (API keys). */
  secrets?: readonly string[];
  /** Clock for the `at` stamp of each line; events carry durations, not instants. */
  now?: () => number;
}

export interface Transcript {
  sink: EventSink;
  /** The lines so far, each one JSON object (no trailing newline). */
  lines(): string[];
}

export type TranscriptLine = { type: RunEvent['type']; agent: string | null; at: string } & Record<string, unknown>;

export function createTranscript(options: TranscriptOptions = {}): Transcript {
  const secrets = options.secrets ?? [];
  const now = options.now ?? Date.now;
  const lines: string[] = [];

  const sink: EventSink = (event) => {
    const line = toLine(event, now);
    if (line) lines.push(stringifyJsonSafely(scrubDeep(line, secrets)));
  };
  return { sink, lines: () => [...lines] };
}

function toLine(event: RunEvent, now: () => number): TranscriptLine | null {
  // The same numbers are in the model-call line's response.
  if (event.type === 'usage') return null;
  const at = new Date(event.type === 'agent-start' ? event.at : now()).toISOString();
  const head = { type: event.type, agent: event.type === 'warning' ? null : event.agent, at };
  switch (event.type) {
    case 'agent-start':
      return { ...head, model: event.model };
    case 'model-call': {
      // The signal is not data, and a request built elsewhere might still carry one.
      const { signal: _signal, ...request } = event.request as typeof event.request & { signal?: unknown };
      return { ...head, call: event.call, durationMs: Math.round(event.durationMs), request, response: event.response };
    }
    case 'tool-call':
      return { ...head, id: event.id, name: event.name, arguments: event.arguments };
    case 'tool-result': {
      const { id, name, content, error } = event;
      return { ...head, id, name, content, error, durationMs: Math.round(event.durationMs) };
    }
    case 'agent-end':
      return { ...head, status: event.status, durationMs: Math.round(event.durationMs), error: event.error };
    case 'search-usage':
      return { ...head, provider: event.provider, model: event.model, usage: event.usage };
    case 'warning':
      return { ...head, message: event.message };
  }
}
