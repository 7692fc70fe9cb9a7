/**
 * The cassette's MCP section. stdio is not HTTP, so MCP traffic is recorded at the tool
 * boundary: each server's tool list (or why it was unavailable) and every call
 * (server, tool, arguments → result or protocol error). Optional in the file, so
 * cassettes written before it existed still load.
 */
import { z } from 'zod';

type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
const jsonValue: z.ZodType<JsonValue> = z.lazy(() =>
  z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(jsonValue), z.record(z.string(), jsonValue)]),
);

export const mcpSectionSchema = z.object({
  servers: z.array(
    z.object({
      name: z.string().min(1),
      error: z.string().nullable(),
      tools: z
        .array(
          z.object({ name: z.string().min(1), description: z.string(), inputSchema: z.record(z.string(), jsonValue) }),
        )
        .nullable(),
    }),
  ),
  calls: z.array(
    z.object({
      server: z.string().min(1),
      tool: z.string().min(1),
      arguments: z.record(z.string(), jsonValue),
      result: z
        .object({ content: z.array(jsonValue), structuredContent: jsonValue.optional(), isError: z.boolean() })
        .nullable(),
      /** A protocol error (unknown tool, timeout, closed connection) instead of a result. */
      error: z.string().nullable(),
    }),
  ),
});

export type McpSection = z.infer<typeof mcpSectionSchema>;

/** Marks autohedge's own Streamable HTTP MCP requests: a recording leaves them out of `interactions`. */
export const MCP_REQUEST_HEADER = 'x-autohedge-mcp';
