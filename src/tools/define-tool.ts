import { z } from 'zod';
import { ConfigError, errorMessage } from '../errors.js';
import type { ToolDefinition } from '../llm/types.js';
import { formatZodIssues } from '../zod-issues.js';
import { stripNulls } from './null-arguments.js';
import { toStrictJsonSchema } from './strict-schema.js';
import type { JsonToolSpec, ParsedArguments, Tool, ToolOrigin, ToolSpec } from './types.js';

const toolNamePattern = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * A tool from a zod object schema: its strict function definition, its argument parser
 * and its TypeScript argument type come from that one schema, so they cannot drift
 * apart. Throws a ConfigError at definition time for a bad name or a schema strict mode
 * cannot express, so a broken tool never reaches a model.
 */
export function defineTool<Parameters extends z.ZodObject>(spec: ToolSpec<Parameters>): Tool<z.infer<Parameters>> {
  let emitted: Record<string, unknown>;
  try {
    // "input": optional and defaulted fields are what the model may leave out.
    emitted = z.toJSONSchema(spec.parameters, { io: 'input' }) as Record<string, unknown>;
  } catch (error) {
    throw new ConfigError(`tool ${spec.name}: parameters cannot be written as JSON schema: ${errorMessage(error)}`, {
      cause: error,
    });
  }
  return assembleTool({
    ...spec,
    schema: emitted,
    strict: 'required',
    origin: { kind: 'builtin' },
    validate: (value) => {
      const result = spec.parameters.safeParse(value);
      // Every issue: the model needs all of them to correct its call in one go.
      return result.success
        ? { ok: true, value: result.data }
        : { ok: false, error: formatZodIssues(result.error, { limit: Infinity }) };
    },
  });
}

/**
 * A tool from a JSON schema (an MCP server's tool): the same contract as defineTool's.
 * Its arguments are checked to be an object with the nulls-for-absent removed; the
 * rest is the tool's own to validate (a server says what is wrong with them).
 */
export function defineJsonTool(spec: JsonToolSpec): Tool<Record<string, unknown>> {
  return assembleTool({
    ...spec,
    schema: spec.parameters,
    strict: spec.strict ?? 'required',
    origin: spec.origin ?? { kind: 'builtin' },
    validate: (value) =>
      typeof value === 'object' && value !== null && !Array.isArray(value)
        ? { ok: true, value: value as Record<string, unknown> }
        : { ok: false, error: 'expected a JSON object' },
  });
}

interface Assembly<Args> {
  name: string;
  description: string;
  outputs: string;
  /** The JSON schema as emitted, before the strict pass: the null-stripper reads optionality here. */
  schema: Record<string, unknown>;
  strict: 'required' | 'when-possible';
  origin: ToolOrigin;
  validate: (value: unknown) => ParsedArguments<Args>;
  run: Tool<Args>['run'];
}

/** The one place a Tool is put together: name check, strict definition, parser, describe line. */
function assembleTool<Args>(assembly: Assembly<Args>): Tool<Args> {
  const { name, description, outputs, schema, validate } = assembly;
  if (!toolNamePattern.test(name)) throw new ConfigError(`tool name '${name}' must match ${toolNamePattern.source}`);
  const { parameters, nonStrictReason } = strictParameters(assembly);
  const strict = nonStrictReason === undefined;
  const definition: ToolDefinition = { type: 'function', function: { name, description, parameters, strict } };
  const describeLine = `Tool Name: ${name}, Description: ${description}, Arguments: ${describeArguments(parameters)}, Outputs: ${outputs}${strict ? '' : ' (non-strict schema)'}`;
  return {
    name,
    description,
    definition,
    origin: assembly.origin,
    ...(strict ? {} : { nonStrictReason }),
    parse: (argumentsJson) => {
      let raw: unknown;
      try {
        // A tool without parameters sometimes gets "" rather than "{}".
        raw = argumentsJson.trim() === '' ? {} : JSON.parse(argumentsJson);
      } catch (error) {
        return { ok: false, error: `Invalid arguments for ${name}: not valid JSON (${errorMessage(error)})` };
      }
      const result = validate(stripNulls(raw, schema));
      return result.ok ? result : { ok: false, error: `Invalid arguments for ${name}: ${result.error}` };
    },
    run: assembly.run,
    describe: () => describeLine,
  };
}

function strictParameters(assembly: Assembly<unknown>): {
  parameters: Record<string, unknown>;
  nonStrictReason?: string;
} {
  const owner = assembly.origin.kind === 'mcp' ? `MCP tool ${assembly.name}` : `tool ${assembly.name}`;
  try {
    return { parameters: toStrictJsonSchema(structuredClone(assembly.schema), owner) };
  } catch (error) {
    if (assembly.strict === 'required') throw error;
    return { parameters: assembly.schema, nonStrictReason: errorMessage(error) };
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
