import type { z } from 'zod';
import type { ToolDefinition } from '../llm/types.js';

/** What a running tool may use: the run's clock and cancellation, and who is calling. */
export interface ToolContext {
  /** The run's clock: every "now" a tool needs comes from here. */
  asOf: Date;
  /**
   * A run as of a past session's close (`--as-of`): a tool must return nothing dated
   * after asOf (and nothing undated it cannot place before it). Absent means live.
   */
  historical?: boolean;
  signal: AbortSignal;
  /** The calling agent's id, when the runtime knows it: a tool's requests carry it so a replay miss can name the agent. */
  agent?: string;
}

export interface ToolSpec<Parameters extends z.ZodObject> {
  name: string;
  description: string;
  parameters: Parameters;
  /** One line saying what the tool returns, for describe(). */
  outputs: string;
  /**
   * Fails by throwing (any Error): its message becomes the model-visible `Error: <message>`
   * and a failed call in the report. A returned string is always a success.
   */
  run: (args: z.infer<Parameters>, context: ToolContext) => Promise<string>;
}

export interface Tool<Parameters extends z.ZodObject = z.ZodObject> extends ToolSpec<Parameters> {
  /** The function-calling definition exactly as it goes into `tools`. */
  definition: ToolDefinition;
  /** Validate the model's JSON-string arguments with the same schema. */
  parse(argumentsJson: string): { ok: true; value: z.infer<Parameters> } | { ok: false; error: string };
  /** `Tool Name: exa_search, Description: …, Arguments: query: string, …, Outputs: …` */
  describe(): string;
}
