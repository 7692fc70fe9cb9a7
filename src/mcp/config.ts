import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { z } from 'zod';
import { ConfigError, errorMessage } from '../errors.js';
import { workerIds, type WorkerId } from '../pipeline/types.js';

/**
 * The `{"mcpServers": {...}}` file users already write for their editors and desktop
 * assistants, plus autohedge's own per-server `"autohedge"` block (other tools ignore
 * it). Unknown keys are kept out of the way, not refused: the same file serves other
 * hosts with their own extensions. No file is ever read implicitly.
 */

const stringMap = z.record(z.string(), z.string());

const allowList = z
  .object({
    agents: z.partialRecord(z.enum(workerIds), z.array(z.string().min(1)).min(1)),
  })
  .strict();

const common = { autohedge: allowList.optional() };

const stdioServer = z.looseObject({
  type: z.literal('stdio').optional(),
  command: z.string().min(1),
  args: z.array(z.string()).default([]),
  env: stringMap.default({}),
  cwd: z.string().min(1).optional(),
  ...common,
});

const httpServer = z.looseObject({
  type: z.enum(['http', 'streamable-http', 'streamableHttp']).optional(),
  url: z.url({ protocol: /^https?$/, message: 'url must be an http(s) URL' }),
  headers: stringMap.default({}),
  ...common,
});

const fileSchema = z.looseObject({
  mcpServers: z.record(
    z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, 'a server name is 1–64 letters, digits, "_", "-" or "."'),
    z.union([stdioServer, httpServer], { error: 'a server needs either "command" (stdio) or "url" (Streamable HTTP)' }),
  ),
});

export interface StdioServerConfig {
  kind: 'stdio';
  name: string;
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
  /** Agent id → the server's own tool names it may call. */
  allow: Partial<Record<WorkerId, string[]>>;
}

export interface HttpServerConfig {
  kind: 'http';
  name: string;
  url: string;
  headers: Record<string, string>;
  allow: Partial<Record<WorkerId, string[]>>;
}

export type McpServerConfig = StdioServerConfig | HttpServerConfig;

export interface McpConfig {
  path: string;
  servers: McpServerConfig[];
}

/** Reads and validates the file; every problem is a ConfigError (exit 2) naming the file. */
export async function loadMcpConfig(file: string, cwd: string, env: NodeJS.ProcessEnv): Promise<McpConfig> {
  const path = resolve(cwd, file);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new ConfigError(`--mcp-config ${path}: cannot read the file: ${errorMessage(error)}`, { cause: error });
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`--mcp-config ${path}: not valid JSON: ${errorMessage(error)}`, { cause: error });
  }
  return parseMcpConfig(raw, path, env);
}

export function parseMcpConfig(raw: unknown, path: string, env: NodeJS.ProcessEnv): McpConfig {
  const parsed = fileSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? `${issue.path.map(String).join('.')}: ` : '';
    throw new ConfigError(`--mcp-config ${path}: ${where}${issue?.message ?? 'invalid configuration'}`);
  }
  const servers = Object.entries(parsed.data.mcpServers).map(([name, server]): McpServerConfig => {
    const expand = (values: Record<string, string>, field: string) => expandAll(values, env, `${path}: mcpServers.${name}.${field}`);
    const allow = (server.autohedge?.agents ?? {}) as Partial<Record<WorkerId, string[]>>;
    if (typeof server.command === 'string') {
      const stdio = server as z.infer<typeof stdioServer>;
      return { kind: 'stdio', name, command: stdio.command, args: stdio.args, env: expand(stdio.env, 'env'), cwd: stdio.cwd, allow };
    }
    const http = server as z.infer<typeof httpServer>;
    return { kind: 'http', name, url: http.url, headers: expand(http.headers, 'headers'), allow };
  });
  return { path, servers };
}

/** `${env:NAME}` in a value is replaced by that variable; an unset one is a configuration error, not an empty string. */
function expandAll(values: Record<string, string>, env: NodeJS.ProcessEnv, where: string): Record<string, string> {
  const expanded: Record<string, string> = {};
  for (const [key, value] of Object.entries(values)) {
    expanded[key] = value.replace(/\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}/g, (_match, variable: string) => {
      const found = env[variable];
      if (found === undefined) throw new ConfigError(`--mcp-config ${where}.${key}: \${env:${variable}} is not set in the environment`);
      return found;
    });
  }
  return expanded;
}

/** Values the user put into a server's env and headers: scrubbed from everything written. */
export function configSecrets(config: McpConfig): string[] {
  return config.servers.flatMap((server) => Object.values(server.kind === 'stdio' ? server.env : server.headers));
}
