import type { EventSink } from '../events.js';
import type { ChatModel, Usage } from '../llm/types.js';
import type { Tool } from '../tools/types.js';

export interface AgentSpec {
  id: string;
  name: string;
  description: string;
  model: string;
  /** The system prompt text (already loaded from prompts/). */
  instructions: string;
  tools: Tool[];
  /** Tool rounds before one forced final answer with tool_choice "none". Default 5. */
  maxToolRounds?: number;
  /** Self-review passes; tool rounds never consume one. Default 1 (answer once). */
  maxLoops?: number;
  /** Per tool call timeout. Default 30 s. */
  toolTimeoutMs?: number;
  /** Cap on one tool result's characters before it reaches the model. Default 12,000. */
  maxToolResultChars?: number;
  temperature?: number;
  maxTokens?: number;
}

export interface AgentContext {
  model: ChatModel;
  asOf: Date;
  /** A run as of a past close (`--as-of`): handed to every tool as ToolContext.historical. */
  historical?: boolean;
  signal?: AbortSignal;
  events?: EventSink;
}

export interface ToolCallRecord {
  id: string;
  name: string;
  arguments: string;
  result: string | null;
  error: string | null;
  durationMs: number;
}

export interface AgentReport {
  agent: string;
  status: 'ok' | 'failed';
  text: string;
  toolCalls: ToolCallRecord[];
  usage: Usage;
  model: string;
  durationMs: number;
  error: string | null;
}
