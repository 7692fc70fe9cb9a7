import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { z } from 'zod';
import { ConfigError, errorMessage } from '../errors.js';
import { workerIds, type WorkerId } from '../result/types.js';
import { formatZodIssues } from '../zod-issues.js';

/**
 * The `{"mcpServers": {...}}` file users already write for their editors and desktop
 * assistants, plus autohedge's own per-server `"autohedge"` block (other tools ignore
 * it). Only servers with that block are started: the allow-list decides what runs at
 * all, not only what the desks see. Unknown keys are kept out of the way, not refused:
 * the same file serves other hosts with their own extensions. No file is ever read
 * implicitly.
 */

const stringMap = z.record(z.string(), z.string());

const allowList = z
  .object({
    agents: z.record(z.string(), z.array(z.string().min(1)).min(1)).superRefine((agents, context) => {
      for (const id of Object.keys(agents)) {
        if (!(workerIds as readonly string[]).includes(id)) {
          context.addIssue({
            code: 'custom',
            path: [id],
            message: `unknown agent '${id}' (choose from ${workerIds.join(', ')}; the Director takes no tools)`,
          });
        }
      }
    }),
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

/** A server is stdio when it names a command, else Streamable HTTP: the problem reported is that kind's. */
const serverSchema = z.looseObject({}).pipe(
  z.custom<z.infer<typeof stdioServer> | z.infer<typeof httpServer>>().superRefine((value, context) => {
    const record = value as Record<string, unknown>;
    // A server with no "autohedge" block is another host's business: never started, never checked.
    if (record.autohedge === undefined) return;
    if (record.type === 'sse') {
      context.addIssue({
        code: 'custom',
        path: ['type'],
        message: 'the SSE transport is not supported: use a Streamable HTTP url',
      });
      return;
    }
    if (record.command === undefined && record.url === undefined) {
      context.addIssue({
        code: 'custom',
        message: 'a server needs either "command" (stdio) or "url" (Streamable HTTP)',
      });
      return;
    }
    const parsed = (record.command !== undefined ? stdioServer : httpServer).safeParse(value);
    if (!parsed.success)
      for (const issue of parsed.error.issues)
        context.addIssue({ ...issue, code: 'custom', message: issue.message, path: issue.path });
  }),
);

const fileSchema = z.looseObject({
  mcpServers: z.record(
    z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, 'a server name is 1–64 letters, digits, "_", "-" or "."'),
    serverSchema,
    {
      error: (issue) =>
        issue.code === 'invalid_type' ? 'expected an object "mcpServers" of servers by name' : undefined,
    },
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
    throw new ConfigError(`--mcp-config ${path}: ${formatZodIssues(parsed.error, { limit: 1 })}`);
  }
  const used = Object.entries(parsed.data.mcpServers).filter(
    ([, raw]) => (raw as Record<string, unknown>).autohedge !== undefined,
  );
  const servers = used.map(([name, raw]): McpServerConfig => {
    // Validated above; parsed again for its defaults.
    const server = ((raw as Record<string, unknown>).command !== undefined ? stdioServer : httpServer).parse(
      raw,
    ) as Record<string, unknown> & {
      autohedge?: z.infer<typeof allowList>;
    };
    const expand = (values: Record<string, string>, field: string) =>
      expandAll(values, env, `${path}: mcpServers.${name}.${field}`);
    const allow = (server.autohedge?.agents ?? {}) as Partial<Record<WorkerId, string[]>>;
    if (typeof server.command === 'string') {
      const stdio = server as z.infer<typeof stdioServer>;
      return {
        kind: 'stdio',
        name,
        command: stdio.command,
        args: stdio.args,
        env: expand(stdio.env, 'env'),
        cwd: stdio.cwd,
        allow,
      };
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
      if (found === undefined)
        throw new ConfigError(`--mcp-config ${where}.${key}: \${env:${variable}} is not set in the environment`);
      return found;
    });
  }
  return expanded;
}

/** Values the user put into a server's env and headers: scrubbed from everything written. */
export function configSecrets(config: McpConfig): string[] {
  return config.servers.flatMap((server) => Object.values(server.kind === 'stdio' ? server.env : server.headers));
}
