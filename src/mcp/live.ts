import { Client, StreamableHTTPClientTransport, type Transport } from '@modelcontextprotocol/client';
import { errorMessage } from '../errors.js';
import { packageVersion } from '../paths.js';
import type { McpServerConfig } from './config.js';
import { failedHandle } from './failed.js';
import { GroupStdioTransport } from './stdio-transport.js';
import { mcpRequestHeader, type McpCallResult, type McpServerHandle, type McpToolInfo } from './types.js';

/**
 * The live side of an MCP server: the SDK's Client over our process-group stdio
 * transport or the SDK's Streamable HTTP transport. The only module that talks to a
 * real server; imported lazily, so runs without MCP load no SDK.
 */
export async function connectLive(config: McpServerConfig, connectTimeoutMs: number): Promise<McpServerHandle> {
  const transport = makeTransport(config);
  const client = new Client({ name: 'autohedge', version: packageVersion() });
  const closeAll = async () => {
    await client.close().catch(() => {});
    await transport.close().catch(() => {});
  };
  try {
    await withTimeout(
      client.connect(transport),
      connectTimeoutMs,
      `did not connect within ${connectTimeoutMs / 1000} s`,
    );
    // listTools() follows nextCursor itself and returns every page.
    const listed = await withTimeout(
      client.listTools(),
      connectTimeoutMs,
      `did not list its tools within ${connectTimeoutMs / 1000} s`,
    );
    const tools: McpToolInfo[] = listed.tools.map((tool) => ({
      name: tool.name,
      description: tool.description ?? '',
      inputSchema: tool.inputSchema as Record<string, unknown>,
    }));
    return {
      name: config.name,
      tools,
      error: null,
      pid: transport instanceof GroupStdioTransport ? transport.pid : undefined,
      call: (tool, args, signal, timeoutMs) => callTool(client, tool, args, signal, timeoutMs),
      close: closeAll,
    };
  } catch (error) {
    await closeAll();
    const stderr = transport instanceof GroupStdioTransport ? transport.lastStderr() : '';
    const reason = `${errorMessage(error)}${stderr ? ` (stderr: ${stderr.slice(0, 300)})` : ''}`;
    return failedHandle(config.name, reason);
  }
}

function makeTransport(config: McpServerConfig): Transport {
  if (config.kind === 'stdio')
    return new GroupStdioTransport({ command: config.command, args: config.args, env: config.env, cwd: config.cwd });
  // The marker header keeps a --record run from also capturing the MCP HTTP traffic as
  // HTTP exchanges: MCP is recorded at the tool boundary instead.
  return new StreamableHTTPClientTransport(new URL(config.url), {
    requestInit: { headers: { ...config.headers, [mcpRequestHeader]: '1' } },
  });
}

async function callTool(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  signal: AbortSignal,
  timeoutMs: number,
): Promise<McpCallResult> {
  // Unknown tools and timeouts are protocol errors (a throw); failures the tool itself
  // reports come back as isError results. Both become failed calls upstream.
  const result = await client.callTool({ name, arguments: args }, { signal, timeout: timeoutMs });
  return {
    content: Array.isArray(result.content) ? (result.content as unknown[]) : [],
    ...(result.structuredContent !== undefined ? { structuredContent: result.structuredContent } : {}),
    isError: result.isError === true,
  };
}

async function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
