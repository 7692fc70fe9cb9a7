import { z } from 'zod';
import { ConfigError, errorMessage } from '../errors.js';
import type { ToolDefinition } from '../llm/types.js';
import { formatZodIssues } from '../zod-issues.js';
import { toStrictJsonSchema } from './strict-schema.js';
import type { Tool, ToolSpec } from './types.js';

const toolNamePattern = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * One zod object schema gives a tool its strict function definition, its argument
 * parser and its TypeScript argument type, so the three cannot drift apart.
 * Throws a ConfigError at definition time for a bad name or a schema strict mode
 * cannot express, so a broken tool never reaches a model.
 */
export function defineTool<Parameters extends z.ZodObject>(spec: ToolSpec<Parameters>): Tool<Parameters> {
  if (!toolNamePattern.test(spec.name)) {
    throw new ConfigError(`tool name '${spec.name}' must match ${toolNamePattern.source}`);
  }
  const owner = `tool ${spec.name}`;
  let emitted: Record<string, unknown>;
  try {
    // "input": optional and defaulted fields are what the model may leave out.
    emitted = z.toJSONSchema(spec.parameters, { io: 'input' }) as Record<string, unknown>;
  } catch (error) {
    throw new ConfigError(`${owner}: parameters cannot be written as JSON schema: ${errorMessage(error)}`, {
      cause: error,
    });
  }
  const parameters = toStrictJsonSchema(emitted, owner);
  const definition: ToolDefinition = {
    type: 'function',
    function: { name: spec.name, description: spec.description, parameters, strict: true },
  };
  const describeLine = `Tool Name: ${spec.name}, Description: ${spec.description}, Arguments: ${describeArguments(parameters)}, Outputs: ${spec.outputs}`;

  return {
    ...spec,
    definition,
    parse: (argumentsJson) => parseArguments(spec.name, spec.parameters, argumentsJson),
    describe: () => describeLine,
  };
}

function parseArguments<Parameters extends z.ZodObject>(
  name: string,
  parameters: Parameters,
  argumentsJson: string,
): { ok: true; value: z.infer<Parameters> } | { ok: false; error: string } {
  let raw: unknown;
  try {
    // A tool without parameters sometimes gets "" rather than "{}".
    raw = argumentsJson.trim() === '' ? {} : JSON.parse(argumentsJson);
  } catch (error) {
    return { ok: false, error: `Invalid arguments for ${name}: not valid JSON (${errorMessage(error)})` };
  }
  const result = parameters.safeParse(nullsToAbsent(parameters, raw));
  if (result.success) return { ok: true, value: result.data };
  // Every issue: the model needs all of them to correct its call in one go.
  return { ok: false, error: `Invalid arguments for ${name}: ${formatZodIssues(result.error, { limit: Infinity })}` };
}

/** The slice of zod's internals needed to walk a schema alongside a value. */
interface ZodNode {
  _zod: {
    optin?: 'optional' | 'defaulted';
    def: {
      type: string;
      shape?: Record<string, ZodNode>;
      innerType?: ZodNode;
      in?: ZodNode;
      element?: ZodNode;
      options?: ZodNode[];
      getter?: () => ZodNode;
    };
  };
}

/**
 * Strict mode makes every field required, so the model sends `null` for a field it
 * means to leave out. For a field zod treats as optional (or defaulted) and that does
 * not itself accept null, null means "absent": drop it, so the default applies.
 */
function nullsToAbsent(schema: z.ZodType, value: unknown): unknown {
  return walk(schema as unknown as ZodNode, value);
}

function walk(node: ZodNode, value: unknown): unknown {
  const definition = node._zod.def;
  switch (definition.type) {
    case 'object': {
      if (typeof value !== 'object' || value === null || Array.isArray(value) || !definition.shape) return value;
      const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
      for (const [key, field] of Object.entries(definition.shape)) {
        if (!(key in copy)) continue;
        if (copy[key] === null && field._zod.optin !== undefined && !nullAllowed(field)) delete copy[key];
        else copy[key] = walk(field, copy[key]);
      }
      return copy;
    }
    case 'array':
      return Array.isArray(value) && definition.element
        ? value.map((item) => walk(definition.element as ZodNode, item))
        : value;
    case 'lazy':
      return definition.getter ? walk(definition.getter(), value) : value;
    case 'pipe':
      return definition.in ? walk(definition.in, value) : value;
    default: {
      const inner = definition.innerType;
      return inner ? walk(inner, value) : value;
    }
  }
}

function nullAllowed(node: ZodNode): boolean {
  const definition = node._zod.def;
  switch (definition.type) {
    case 'nullable':
    case 'null':
    case 'any':
    case 'unknown':
      return true;
    case 'union':
      return (definition.options ?? []).some(nullAllowed);
    case 'lazy':
      return definition.getter ? nullAllowed(definition.getter()) : false;
    case 'pipe':
      return definition.in ? nullAllowed(definition.in) : false;
    default:
      return definition.innerType ? nullAllowed(definition.innerType) : false;
  }
}

/** `query: string, numResults: number | null`, the seeds' one-line argument summary. */
function describeArguments(parameters: Record<string, unknown>): string {
  const properties = parameters.properties as Record<string, Record<string, unknown>> | undefined;
  const entries = Object.entries(properties ?? {});
  if (entries.length === 0) return 'none';
  return entries.map(([key, schema]) => `${key}: ${typeLabel(schema)}`).join(', ');
}

function typeLabel(schema: Record<string, unknown>): string {
  if (Array.isArray(schema.anyOf)) {
    return unique(schema.anyOf.map((branch) => typeLabel(branch as Record<string, unknown>))).join(' | ');
  }
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) {
    return unique(schema.enum.map((value) => (value === null ? 'null' : JSON.stringify(value)))).join(' | ');
  }
  if (schema.$ref !== undefined) return 'object';
  const types =
    typeof schema.type === 'string' ? [schema.type] : Array.isArray(schema.type) ? (schema.type as string[]) : [];
  return unique(
    types.map((type) => {
      if (type === 'integer') return 'number';
      if (type === 'array') {
        const items = typeLabel((schema.items ?? {}) as Record<string, unknown>);
        return items.includes(' | ') ? `(${items})[]` : `${items}[]`;
      }
      return type;
    }),
  ).join(' | ');
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}
