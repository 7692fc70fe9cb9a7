import type { ChatRequest, ChatResponse, Usage } from './llm/types.js';

/**
 * Everything observable about a run, as it happens. Consumers: the progress UI,
 * --trace, and the transcript. Names are noun-action.
 */
export type RunEvent =
  | { type: 'agent-start'; agent: string; model: string; at: number }
  | {
      type: 'model-call';
      agent: string;
      /** 1-based index of this call within the agent's run. */
      call: number;
      request: Omit<ChatRequest, 'signal'>;
      response: ChatResponse;
      durationMs: number;
    }
  | { type: 'tool-call'; agent: string; id: string; name: string; arguments: string }
  | {
      type: 'tool-result';
      agent: string;
      id: string;
      name: string;
      /** Exactly the content of the role:"tool" message sent back to the model. */
      content: string;
      error: string | null;
      durationMs: number;
    }
  | { type: 'agent-end'; agent: string; status: 'ok' | 'failed'; durationMs: number; error: string | null }
  | { type: 'usage'; agent: string; model: string; usage: Usage }
  /** One search made for `agent`: `model` and `usage` when a model answered it (OpenAI's built-in search). */
  | { type: 'search-usage'; agent: string; provider: string; model: string | null; usage: Usage | null }
  | { type: 'warning'; message: string };

export type EventSink = (event: RunEvent) => void;

export const ignoreEvents: EventSink = () => {};
