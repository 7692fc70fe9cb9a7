import type { McpSection } from '../record/mcp-section.js';
import type { WorkerId } from '../result/types.js';
import { scrubSecrets } from '../scrub.js';
import { configSecrets, type McpConfig } from './config.js';
import { recordingHandles, replayHandles } from './recording.js';
import { bindMcpTools, type McpTool } from './tools.js';
import type { McpServerHandle } from './types.js';

export { loadMcpConfig, parseMcpConfig, configSecrets, type McpConfig, type McpServerConfig } from './config.js';
export type { McpTool } from './tools.js';
export type { McpServerHandle } from './types.js';

/** The MCP side of one command: tools per desk, and one close() for every connection. */
export interface McpToolSources {
  agentTools: Partial<Record<WorkerId, McpTool[]>>;
  servers: readonly McpServerHandle[];
  /** The MCP traffic so far, for a --record cassette. */
  section(): McpSection | undefined;
  /** Closes every connection and ends every child's process group; safe to call twice. */
  close(): Promise<void>;
}

export type McpMode =
  | { kind: 'live' }
  | { kind: 'record' }
  | { kind: 'replay'; section: McpSection | undefined; cassette: string; onMiss: (line: string) => void };

export interface OpenMcpOptions {
  mode: McpMode;
  /** Our own tools' names: an MCP tool may not take one. */
  builtInNames: readonly string[];
  warn: (message: string) => void;
  connectTimeoutMs?: number;
}

const defaultConnectTimeoutMs = 10_000;

/**
 * Connects to every configured server once, in parallel, each within the connect
 * time limit. A server that fails is a warning, not an abort: its allowed tools
 * answer the model with the reason. Under replay nothing is spawned or connected.
 */
export async function openMcpTools(config: McpConfig, options: OpenMcpOptions): Promise<McpToolSources> {
  const mode = options.mode;
  let handles: McpServerHandle[];
  let section: () => McpSection | undefined = () => undefined;
  if (mode.kind === 'replay') {
    handles = replayHandles(
      config.servers.map((server) => server.name),
      mode.section,
      mode.cassette,
      mode.onMiss,
    );
  } else {
    const { connectLive } = await import('./live.js');
    const live = await Promise.all(
      config.servers.map((server) => connectLive(server, options.connectTimeoutMs ?? defaultConnectTimeoutMs)),
    );
    if (mode.kind === 'record') {
      const recording = recordingHandles(live);
      handles = recording.handles;
      section = recording.section;
    } else {
      handles = live;
    }
  }
  let closed: Promise<void> | undefined;
  const close = () => (closed ??= Promise.all(handles.map((handle) => handle.close().catch(() => {}))).then(() => {}));
  // A failing server's stderr may echo the token its config gave it: scrubbed before it is shown.
  const secrets = configSecrets(config);
  const warn = (message: string) => options.warn(scrubSecrets(message, secrets));
  try {
    for (const handle of handles) {
      if (handle.error !== null) warn(`MCP server '${handle.name}' is unavailable: ${handle.error}`);
    }
    const pairs = config.servers.map((server, index) => ({
      config: server,
      handle: handles[index] as McpServerHandle,
    }));
    const agentTools = bindMcpTools(pairs, options.builtInNames, { warn });
    return { agentTools, servers: handles, section, close };
  } catch (error) {
    await close();
    throw error;
  }
}
