import { createHash } from 'node:crypto';
import { z } from 'zod';
import { ConfigError, errorMessage } from '../errors.js';
import type { ToolDefinition } from '../llm/types.js';
import type { WorkerId } from '../result/types.js';
import { sanitizeText } from '../sanitize.js';
import { toStrictJsonSchema } from '../tools/strict-schema.js';
import type { Tool } from '../tools/types.js';
import type { McpServerConfig } from './config.js';
import { formatMcpResult, mcpErrorText } from './results.js';
import type { McpServerHandle, McpToolInfo } from './types.js';

/** OpenAI's limit on a function name. */
const maxNameLength = 64;
const maxDescriptionLength = 1_000;

/** A function tool backed by an MCP server's tool, with what `autohedge tools` shows about it. */
export interface McpTool extends Tool {
  server: string;
  /** The server's own tool name. */
  remoteName: string;
  /** Why strict mode was turned off, when it was. */
  nonStrictReason: string | null;
  /** The server's own input schema. */
  inputSchema: Record<string, unknown>;
}

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
  const { parameters, strict, reason } = modelSchema(info.inputSchema, name);
  const definition: ToolDefinition = { type: 'function', function: { name, description, parameters, strict } };
  return {
    name,
    description,
    parameters: z.looseObject({}),
    outputs: `the MCP server '${handle.name}' tool result, as untrusted data`,
    server: handle.name,
    remoteName: info.name,
    nonStrictReason: reason,
    inputSchema: info.inputSchema,
    definition,
    parse: (argumentsJson) => parseArguments(name, argumentsJson, info.inputSchema),
    describe: () =>
      `Tool Name: ${name}, Description: ${description}, Arguments: ${Object.keys((parameters.properties as object | undefined) ?? {}).join(', ') || 'none'}, Outputs: MCP result (${handle.name})${strict ? '' : ', non-strict schema'}`,
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
  };
}

const backstopTimeoutMs = 600_000;

function capDescription(text: string): string {
  return text.length <= maxDescriptionLength ? text : `${text.slice(0, maxDescriptionLength - 1)}…`;
}

/** The strict conversion our own tools get; where it cannot express the schema, the server's own schema, non-strict. */
function modelSchema(
  inputSchema: Record<string, unknown>,
  name: string,
): { parameters: Record<string, unknown>; strict: boolean; reason: string | null } {
  const { $schema: _schema, ...schema } = inputSchema;
  const withObject = { type: 'object', properties: {}, ...schema };
  try {
    return {
      parameters: toStrictJsonSchema(structuredClone(withObject), `MCP tool ${name}`),
      strict: true,
      reason: null,
    };
  } catch (error) {
    return { parameters: withObject, strict: false, reason: errorMessage(error) };
  }
}

function parseArguments(name: string, argumentsJson: string, schema: Record<string, unknown>) {
  let raw: unknown;
  try {
    raw = argumentsJson.trim() === '' ? {} : JSON.parse(argumentsJson);
  } catch (error) {
    return { ok: false as const, error: `Invalid arguments for ${name}: not valid JSON (${errorMessage(error)})` };
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return { ok: false as const, error: `Invalid arguments for ${name}: expected a JSON object` };
  }
  // The server validates the rest against its own schema and says what is wrong.
  return { ok: true as const, value: stripNulls(raw, schema) as Record<string, unknown> };
}

/**
 * Strict mode makes the model send `null` for an optional property it means to leave
 * out, and real servers reject the null. Driven by the tool's own schema: a null for a
 * property that is not required and does not accept null is removed, at every depth.
 */
export function stripNulls(value: unknown, schema: unknown): unknown {
  if (!isRecord(schema)) return value;
  if (Array.isArray(value)) return isRecord(schema.items) ? value.map((item) => stripNulls(item, schema.items)) : value;
  if (!isRecord(value) || !isRecord(schema.properties)) return value;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const property = schema.properties[key];
    if (item === null && !required.has(key) && !acceptsNull(property)) continue;
    copy[key] = stripNulls(item, property);
  }
  return copy;
}

function acceptsNull(schema: unknown): boolean {
  if (!isRecord(schema)) return schema === true || schema === undefined;
  const type = schema.type;
  if (type === 'null' || (Array.isArray(type) && type.includes('null'))) return true;
  const branches = [schema.anyOf, schema.oneOf].filter(Array.isArray).flat() as unknown[];
  if (branches.some(acceptsNull)) return true;
  if (Array.isArray(schema.enum) && schema.enum.includes(null)) return true;
  return type === undefined && branches.length === 0 && schema.enum === undefined && schema.const === undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
