import type { z } from 'zod';
import type { ModelErrorKind } from '../errors.js';
import type { EventSink } from '../events.js';
import type { ChatModel, ServiceTier, Usage } from '../llm/types.js';
import type { SharedPrefix } from './layout.js';
import type { Tool } from '../tools/types.js';

/** A structured final answer: sent as a strict json_schema response format, validated with the same zod schema. */
export interface AgentOutput<Output> {
  /** The response format's name, and how the answer is called in messages ("plan", "decision"). */
  name: string;
  schema: z.ZodType<Output>;
}

export interface AgentSpec<Output = string> {
  id: string;
  name: string;
  description: string;
  model: string;
  /** The system prompt text (already loaded from prompts/). */
  instructions: string;
  tools: Tool[];
  /** Tool rounds before one forced final answer with tool_choice "none". Default 5. */
  maxToolRounds?: number;
  /**
   * Review passes after the first answer — the original AutoHedge's `max_loops`
   * (there counted with the first answer). Tool rounds never consume a pass. Default 0.
   */
  reviewPasses?: number;
  /** Per tool call timeout. Default 30 s. */
  toolTimeoutMs?: number;
  /** Cap on one tool result's characters before it reaches the model. Default 12,000. */
  maxToolResultChars?: number;
  /** Wall-clock limit of the whole run; its failure is a `timeout`. Default: none. */
  timeoutMs?: number;
  temperature?: number;
  maxTokens?: number;
  /** Sent as the request's `seed` (`--samples`: each sample its own), for servers that accept one. */
  seed?: number;
  /** With a schema, the final answer is JSON checked against it (one re-ask on a slip) and returned as `output`. */
  output?: AgentOutput<Output>;
}

/**
 * What a review pass gets: the answer just given. Returns the review prompt to send,
 * or null when the answer needs no review (it stands).
 */
export type ReviewStep<Output> = (answer: Output, pass: number) => string | null;

export interface AgentContext<Output = string> {
  model: ChatModel;
  asOf: Date;
  /** A run as of a past close (`--as-of`): handed to every tool as ToolContext.historical. */
  historical?: boolean;
  signal?: AbortSignal;
  events?: EventSink;
  /**
   * Decides each review pass (default: the generic reviewPrompt every pass). Called
   * after every accepted answer while passes remain.
   */
  review?: ReviewStep<Output>;
  /** Numbers model calls across several runs of one agent (the Director's plan, then its decision). */
  nextCallNumber?: () => number;
  /** False when the caller announces the agent's start and end itself (one span over several runs). */
  announce?: boolean;
  /** The cacheable layout's shared block (src/agent/layout.ts); absent: the legacy layout. */
  shared?: SharedPrefix;
  /** `--service-tier`: sent with every model call. */
  serviceTier?: ServiceTier;
}

export interface ToolCallRecord {
  id: string;
  name: string;
  arguments: string;
  result: string | null;
  error: string | null;
  durationMs: number;
}

/**
 * Why an agent's run failed. Status rules read `kind`, never the message:
 * `model` (the server or its answer), `timeout` (the agent's own limit), `budget`
 * (--max-cost refused the call), `interrupted` (the caller aborted), `schema` (the
 * structured answer broke its schema twice), `replay-miss` (the cassette lacks the
 * exchange), `limit` (the call cap).
 */
export type FailureKind = 'model' | 'timeout' | 'budget' | 'interrupted' | 'schema' | 'replay-miss' | 'limit';

/** The model error behind a `model` failure: its kind, HTTP status and whether a retry may pass (ModelError.retryable). */
export interface ModelFailure {
  kind: ModelErrorKind;
  status: number | null;
  retryable: boolean;
  /** How long the server asked us to wait (a 429's retry-after), when it said. */
  retryAfterMs?: number;
}

export interface AgentFailure {
  kind: FailureKind;
  message: string;
  /** Set when a model error ended the run (absent in runs saved before it existed). */
  model?: ModelFailure;
}

export interface AgentReport<Output = string> {
  agent: string;
  status: 'ok' | 'failed';
  text: string;
  toolCalls: ToolCallRecord[];
  usage: Usage;
  model: string;
  durationMs: number;
  /** The failure's message, kept for readers of the JSON; null when ok. */
  error: string | null;
  failure: AgentFailure | null;
  /** With an output schema: the latest accepted answer (kept when a later review pass fails). */
  output?: Output;
}
