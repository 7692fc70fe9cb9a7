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

/** Where a tool comes from: autohedge's own, or an MCP server's (which `autohedge tools` names). */
export type ToolOrigin =
  | { kind: 'builtin' }
  | {
      kind: 'mcp';
      server: string;
      /** The server's own tool name. */
      remoteName: string;
    };

export type ParsedArguments<Args> = { ok: true; value: Args } | { ok: false; error: string };

/**
 * The one runtime tool contract, as openai-agents-js's FunctionTool: whatever built it
 * (`defineTool` from a zod schema, `defineJsonTool` from a JSON schema, as MCP tools
 * are), the loop, the registry and `autohedge tools` see only this.
 */
export interface Tool<Args = unknown> {
  name: string;
  description: string;
  /** The function-calling definition exactly as it goes into `tools`. */
  definition: ToolDefinition;
  /** The model's JSON-string arguments, nulls-for-absent removed, validated. */
  parse(argumentsJson: string): ParsedArguments<Args>;
  /**
   * Fails by throwing (any Error): its message becomes the model-visible `Error: <message>`
   * and a failed call in the report. A returned string is always a success.
   */
  run(args: Args, context: ToolContext): Promise<string>;
  /** `Tool Name: exa_search, Description: …, Arguments: query: string, …, Outputs: …` */
  describe(): string;
  origin: ToolOrigin;
  /** Why the definition is not strict, when strict mode could not express the schema (an MCP tool's). */
  nonStrictReason?: string;
}

/** A tool written in TypeScript: its zod parameters give its strict schema, its parser and its argument type. */
export interface ToolSpec<Parameters extends z.ZodObject> {
  name: string;
  description: string;
  parameters: Parameters;
  /** One line saying what the tool returns, for describe(). */
  outputs: string;
  run: (args: z.infer<Parameters>, context: ToolContext) => Promise<string>;
}

/** A tool whose parameters are a JSON schema (an MCP server's `inputSchema`). */
export interface JsonToolSpec {
  name: string;
  description: string;
  /** A JSON schema of an object. */
  parameters: Record<string, unknown>;
  outputs: string;
  run: (args: Record<string, unknown>, context: ToolContext) => Promise<string>;
  origin?: ToolOrigin;
  /**
   * `required` (the default) refuses a schema strict mode cannot express, as defineTool does;
   * `when-possible` sends such a schema as it is, non-strict, and says why (a server's schema is not ours to fix).
   */
  strict?: 'required' | 'when-possible';
}
