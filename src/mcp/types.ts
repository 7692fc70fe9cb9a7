/**
 * The small interface between the pipeline's tools and an MCP server, whichever side
 * answers: the live SDK client, a recording of it, or a cassette's replay.
 */

export interface McpToolInfo {
  /** The server's own name for the tool (`get.quote`), as `tools/call` expects it. */
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

/** A `tools/call` result, reduced to what becomes the model's tool message. */
export interface McpCallResult {
  content: unknown[];
  structuredContent?: unknown;
  isError: boolean;
}

export interface McpServerHandle {
  name: string;
  /** null when the server could not be started, connected or listed; `error` says why. */
  tools: McpToolInfo[] | null;
  error: string | null;
  /** The stdio child's pid (its process group), for tests and diagnostics. */
  pid?: number;
  /** Rejects for protocol errors (unknown tool, timeout, connection closed). */
  call(tool: string, args: Record<string, unknown>, signal: AbortSignal, timeoutMs: number): Promise<McpCallResult>;
  close(): Promise<void>;
}

/** Marks autohedge's own Streamable HTTP MCP requests so a --record run leaves them out of the HTTP exchanges. */
export { MCP_REQUEST_HEADER as mcpRequestHeader } from '../record/mcp-section.js';
