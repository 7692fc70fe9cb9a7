import { ConfigError } from '../errors.js';

/**
 * Turns the JSON schema zod emits (io: "input") into one OpenAI's strict mode accepts:
 * every property required, optional ones nullable instead, `additionalProperties: false`
 * on every object, and nothing the strict subset rejects. Keywords that only narrow
 * values and that strict mode does not accept are dropped: the same zod schema still
 * enforces them when the arguments are parsed, and its error reaches the model.
 * Shapes strict mode cannot express at all (records, tuples, "any", intersections
 * that did not merge, negation) throw a ConfigError at definition time.
 */

type JsonSchema = Record<string, unknown>;

/** Structure-bearing keywords strict mode has no equivalent for. */
const rejectedKeywords = [
  'allOf',
  'not',
  'prefixItems',
  'propertyNames',
  'patternProperties',
  'if',
  'then',
  'else',
  'dependentSchemas',
  'dependentRequired',
  'unevaluatedItems',
  'unevaluatedProperties',
  'contains',
  '$dynamicRef',
  '$dynamicAnchor',
] as const;

/**
 * Dropped without loss of safety: annotations strict mode does not list, `default`
 * (rejected by strict validators, so it is folded into the description instead) and
 * string length bounds (not in the strict subset; zod still checks them).
 */
const droppedKeywords = [
  '$schema',
  '$id',
  'id',
  '$comment',
  'title',
  'examples',
  'readOnly',
  'writeOnly',
  'deprecated',
  'default',
  'minLength',
  'maxLength',
  'uniqueItems',
  'contentEncoding',
  'contentMediaType',
  // The type a grammar engine gets instead (src/llm/grammar-schema.ts); strict mode keeps the field's own.
  'x-grammar-type',
] as const;

/** The string formats strict mode understands; others are dropped (zod still checks them). */
const supportedFormats = new Set([
  'date-time',
  'time',
  'date',
  'duration',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'uuid',
]);

/** Keywords that give a schema a shape; a schema with none of them accepts anything. */
const shapeKeywords = ['type', 'anyOf', 'oneOf', '$ref', 'enum', 'const'] as const;

export function toStrictJsonSchema(schema: JsonSchema, owner: string): JsonSchema {
  const root = strictNode(schema, [], false, owner);
  if (root.type !== 'object') {
    throw new ConfigError(`${owner}: parameters must be an object schema`);
  }
  if (isRecord(schema.$defs)) {
    const definitions: Record<string, JsonSchema> = {};
    for (const [name, definition] of Object.entries(schema.$defs)) {
      definitions[name] = strictNode(asSchema(definition, ['$defs', name], owner), ['$defs', name], false, owner);
    }
    root.$defs = definitions;
  }
  return root;
}

function strictNode(input: JsonSchema, path: string[], nullable: boolean, owner: string): JsonSchema {
  const where = path.length === 0 ? 'the root' : `'${path.join('.')}'`;
  const fail = (reason: string): never => {
    throw new ConfigError(`${owner}: the schema at ${where} ${reason}, which OpenAI strict mode cannot express`);
  };

  for (const keyword of rejectedKeywords) {
    if (input[keyword] !== undefined) fail(`uses '${keyword}'`);
  }
  if (!shapeKeywords.some((keyword) => input[keyword] !== undefined))
    fail('accepts any value (z.any, z.unknown, z.date or similar)');

  const node: JsonSchema = { ...input };
  delete node.$defs;
  const fallback = node.default;
  for (const keyword of droppedKeywords) delete node[keyword];
  if (typeof node.format === 'string' && !supportedFormats.has(node.format)) delete node.format;
  dropSafeIntegerBounds(node);
  if (fallback !== undefined && fallback !== null) {
    const note = `(default: ${JSON.stringify(fallback)})`;
    node.description =
      typeof node.description === 'string' && node.description !== '' ? `${node.description} ${note}` : note;
  }

  // Discriminated unions come out as oneOf; their branches exclude each other, so anyOf means the same.
  if (node.oneOf !== undefined) {
    if (node.anyOf !== undefined) fail("uses both 'oneOf' and 'anyOf'");
    node.anyOf = node.oneOf;
    delete node.oneOf;
  }
  if (node.anyOf !== undefined) {
    if (!Array.isArray(node.anyOf)) fail("has a malformed 'anyOf'");
    node.anyOf = (node.anyOf as unknown[]).map((branch, index) =>
      strictNode(asSchema(branch, [...path, `anyOf[${index}]`], owner), [...path, `anyOf[${index}]`], false, owner),
    );
  }

  const types = typeList(node.type);
  if (types.includes('object') || node.properties !== undefined) {
    if (node.additionalProperties !== undefined && node.additionalProperties !== false)
      fail('allows extra properties (a record or loose object)');
    const properties = node.properties === undefined ? {} : node.properties;
    if (!isRecord(properties)) fail("has malformed 'properties'");
    const required = new Set(Array.isArray(node.required) ? (node.required as string[]) : []);
    const strictProperties: Record<string, JsonSchema> = {};
    for (const [key, property] of Object.entries(properties as Record<string, unknown>)) {
      const childPath = [...path, key];
      strictProperties[key] = strictNode(asSchema(property, childPath, owner), childPath, !required.has(key), owner);
    }
    node.properties = strictProperties;
    node.required = Object.keys(strictProperties);
    node.additionalProperties = false;
  }
  if (types.includes('array')) {
    if (node.items === undefined || node.items === true) fail('is an array without an item schema');
    const itemsPath = [...path, '[]'];
    node.items = strictNode(asSchema(node.items, itemsPath, owner), itemsPath, false, owner);
  }

  return nullable ? makeNullable(node) : node;
}

/** An optional field becomes "present, but may be null", the only optionality strict mode has. */
function makeNullable(node: JsonSchema): JsonSchema {
  if (acceptsNull(node)) return node;
  if (Array.isArray(node.anyOf)) return { ...node, anyOf: [...node.anyOf, { type: 'null' }] };
  // A second type in `type` only for scalars: a union is the form strict mode documents for objects and arrays.
  const types = typeList(node.type);
  const scalar = types.length > 0 && !types.includes('object') && !types.includes('array');
  if (scalar && node.const === undefined && node.$ref === undefined) {
    const nullable: JsonSchema = { ...node, type: [...types, 'null'] };
    if (Array.isArray(node.enum)) nullable.enum = [...node.enum, null];
    return nullable;
  }
  const { description, ...inner } = node;
  const wrapped: JsonSchema = { anyOf: [inner, { type: 'null' }] };
  if (description !== undefined) wrapped.description = description;
  return wrapped;
}

function acceptsNull(node: JsonSchema): boolean {
  if (typeList(node.type).includes('null')) return true;
  if (Array.isArray(node.anyOf)) return node.anyOf.some((branch) => isRecord(branch) && acceptsNull(branch));
  return false;
}

/** zod's int() writes ±MAX_SAFE_INTEGER bounds: noise to the model, and no real limit. */
function dropSafeIntegerBounds(node: JsonSchema): void {
  if (node.minimum === Number.MIN_SAFE_INTEGER) delete node.minimum;
  if (node.maximum === Number.MAX_SAFE_INTEGER) delete node.maximum;
}

function typeList(type: unknown): string[] {
  if (typeof type === 'string') return [type];
  if (Array.isArray(type)) return type.filter((entry): entry is string => typeof entry === 'string');
  return [];
}

function asSchema(value: unknown, path: string[], owner: string): JsonSchema {
  if (!isRecord(value)) {
    throw new ConfigError(
      `${owner}: the schema at '${path.join('.')}' is not an object schema, which OpenAI strict mode cannot express`,
    );
  }
  return value;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
