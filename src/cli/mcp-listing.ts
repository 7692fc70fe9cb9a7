import { agentDefinitions } from '../../agents/index.js';
import type { McpTool } from '../mcp/index.js';
import type { WorkerId } from '../result/types.js';
import { loadEnvFile } from './env-file.js';
import { warningWriter, type CliIo } from './io.js';

/**
 * `tools` and `agents` with --mcp-config (or AUTOHEDGE_MCP_CONFIG): connect to the
 * servers, list what each desk would be given, close every connection. Without a
 * config nothing MCP is loaded.
 */
export async function withMcpTools<T>(
  option: string | undefined,
  io: CliIo,
  use: (bound: Partial<Record<WorkerId, McpTool[]>>) => T,
): Promise<T> {
  const env = loadEnvFile(io.cwd, io.env);
  const path = option ?? (env.AUTOHEDGE_MCP_CONFIG?.trim() || undefined);
  if (path === undefined) return use({});
  const { loadMcpConfig, openMcpTools } = await import('../mcp/index.js');
  const { builtInToolNames } = await import('../tools/catalogue.js');
  const config = await loadMcpConfig(path, io.cwd, env);
  const sources = await openMcpTools(config, {
    mode: { kind: 'live' },
    builtInNames: builtInToolNames,
    warn: warningWriter(io),
  });
  try {
    return use(sources.agentTools);
  } finally {
    await sources.close();
  }
}

/** Each desk's own tool names followed by its MCP tools' function names. */
export function boundToolNames(bound: Partial<Record<WorkerId, McpTool[]>>): Map<string, string[]> {
  return new Map(
    agentDefinitions.map((definition) => [
      definition.id,
      [...definition.tools, ...(bound[definition.id as WorkerId] ?? []).map((tool) => tool.name)],
    ]),
  );
}
