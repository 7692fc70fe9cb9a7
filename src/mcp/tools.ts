import { createHash } from 'node:crypto';
import { ConfigError, errorMessage } from '../errors.js';
import type { WorkerId } from '../result/types.js';
import { sanitizeText } from '../sanitize.js';
import { defineJsonTool } from '../tools/define-tool.js';
import type { Tool } from '../tools/types.js';
import type { McpServerConfig } from './config.js';
import { formatMcpResult, mcpErrorText } from './results.js';
import type { McpServerHandle, McpToolInfo } from './types.js';

/** OpenAI's limit on a function name. */
const maxNameLength = 64;
const maxDescriptionLength = 1_000;

/** A function tool backed by an MCP server's tool: a Tool like any other, its origin naming the server. */
export type McpTool = Tool<Record<string, unknown>>;

/** `<server>__<tool>` in `[A-Za-z0-9_-]`, at most 64 characters; a short hash keeps a cut name unique. */
export function functionName(server: string, tool: string, taken: ReadonlySet<string> = new Set()): string {
  const raw = `${server}__${tool}`;
  const clean = raw.replace(/[^A-Za-z0-9_-]/g, '_');
  if (clean.length <= maxNameLength && !taken.has(clean)) return clean;
  const hash = createHash('sha256').update(raw).digest('hex').slice(0, 8);
  return `${clean.slice(0, maxNameLength - hash.length - 1)}_${hash}`;
}

/**
 * The MCP tools each desk may call: only those its allow-list names. A name the
 * server does not offer is a warning (the server may have changed); a server that
 * failed to start still gets its allowed names bound, answering every call with the
 * reason, so the model learns why rather than seeing the tool vanish.
 */
export function bindMcpTools(
  servers: ReadonlyArray<{ config: McpServerConfig; handle: McpServerHandle }>,
  builtInNames: readonly string[],
  options: { warn: (message: string) => void },
): Partial<Record<WorkerId, McpTool[]>> {
  const byAgent: Partial<Record<WorkerId, McpTool[]>> = {};
  const taken = new Set(builtInNames);
  const built = new Map<string, McpTool>();
  for (const { config, handle } of servers) {
    for (const [agent, names] of Object.entries(config.allow) as Array<[WorkerId, string[]]>) {
      for (const remoteName of names) {
        const key = `${config.name}\u0000${remoteName}`;
        let tool = built.get(key);
        if (!tool) {
          const info =
            handle.tools === null
              ? placeholderInfo(remoteName)
              : handle.tools.find((candidate) => candidate.name === remoteName);
          if (!info) {
            options.warn(
              `MCP server '${config.name}' has no tool '${remoteName}' (allowed for ${agent}); it offers ${handle.tools?.map((candidate) => candidate.name).join(', ') || 'none'}`,
            );
            continue;
          }
          const name = uniqueName(config.name, remoteName, taken, builtInNames);
          tool = createMcpTool(handle, info, name);
          taken.add(name);
          built.set(key, tool);
        }
        (byAgent[agent] ??= []).push(tool);
      }
    }
  }
  return byAgent;
}

function uniqueName(
  server: string,
  remoteName: string,
  taken: ReadonlySet<string>,
  builtInNames: readonly string[],
): string {
  const plain = functionName(server, remoteName);
  if (builtInNames.includes(plain)) {
    throw new ConfigError(
      `MCP tool '${remoteName}' of server '${server}' would be called '${plain}', the name of a built-in tool: rename the server in the config`,
    );
  }
  return functionName(server, remoteName, taken);
}

/** A failed server's tool: any arguments, answered with the failure. */
function placeholderInfo(name: string): McpToolInfo {
  return {
    name,
    description: 'This MCP server is not available in this run.',
    inputSchema: { type: 'object', properties: {} },
  };
}

export function createMcpTool(handle: McpServerHandle, info: McpToolInfo, name: string): McpTool {
  const description = capDescription(
    sanitizeText(info.description || `Tool '${info.name}' of the MCP server '${handle.name}'.`),
  );
  const { $schema: _schema, ...schema } = info.inputSchema;
  return defineJsonTool({
    name,
    description,
    parameters: { type: 'object', properties: {}, ...schema },
    outputs: `the MCP server '${handle.name}' tool result, as untrusted data`,
    origin: { kind: 'mcp', server: handle.name, remoteName: info.name },
    // The strict conversion our own tools get; where it cannot express the server's schema, that schema, non-strict.
    strict: 'when-possible',
    async run(args, context) {
      // The runtime's tool time limit aborts context.signal, which cancels the request on the
      // server's side too; the SDK's own limit is only a backstop.
      let result;
      try {
        result = await handle.call(info.name, args, context.signal, backstopTimeoutMs);
      } catch (error) {
        // A protocol error (unknown tool, closed connection): the server's words are untrusted too.
        throw new Error(
          `MCP server '${handle.name}': ${mcpErrorText({ content: [{ type: 'text', text: errorMessage(error) }], isError: true })}`,
          { cause: error },
        );
      }
      if (result.isError)
        throw new Error(`MCP tool '${info.name}' of server '${handle.name}' failed: ${mcpErrorText(result)}`);
      return formatMcpResult(handle.name, info.name, result);
    },
  });
}

const backstopTimeoutMs = 600_000;

function capDescription(text: string): string {
  return text.length <= maxDescriptionLength ? text : `${text.slice(0, maxDescriptionLength - 1)}…`;
}
