/**
 * The schema a grammar engine gets, and the text that tells the model what it means.
 *
 * OpenAI's strict subset drops `minLength` and some bounds (zod checks them afterwards),
 * so a strict schema lets a grammar engine produce `""` for a brief that zod then rejects.
 * A grammar engine can enforce the whole schema: this is zod's own JSON schema with the
 * annotations an engine ignores removed, extra properties closed, and a field marked
 * `x-grammar-type` sent with that type (llama.cpp enforces bounds on integers only, so a
 * 0–100 conviction goes as a bounded integer). The engine turns the schema into a grammar
 * and never shows it to the model: the field meanings go into the prompt as text.
 */

type JsonSchema = Record<string, unknown>;

/** zod `.meta({ [grammarTypeKey]: 'integer' })`: the type a grammar engine should enforce for this field. */
export const grammarTypeKey = 'x-grammar-type';

const droppedAnnotations = ['$schema', '$id', 'title', 'examples', 'default'];

export function grammarSchemaOf(schema: JsonSchema): JsonSchema {
  return grammarNode(schema);
}

function grammarNode(input: JsonSchema): JsonSchema {
  const node: JsonSchema = {};
  for (const [key, value] of Object.entries(input)) {
    if (droppedAnnotations.includes(key) || key === grammarTypeKey) continue;
    node[key] = key === 'properties' || key === '$defs' ? mapValues(value, grammarNode) : grammarChild(key, value);
  }
  if (typeof input[grammarTypeKey] === 'string') node.type = input[grammarTypeKey];
  if (node.type === 'object' || node.properties !== undefined) node.additionalProperties = false;
  return node;
}

function grammarChild(key: string, value: unknown): unknown {
  if (key === 'items' && isRecord(value)) return grammarNode(value);
  if ((key === 'anyOf' || key === 'oneOf') && Array.isArray(value))
    return value.map((branch) => (isRecord(branch) ? grammarNode(branch) : branch));
  return value;
}

function mapValues(value: unknown, map: (schema: JsonSchema) => JsonSchema): unknown {
  if (!isRecord(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([key, child]) => [key, isRecord(child) ? map(child) : child]));
}

/**
 * One line per field: its name, its form (type, bounds, choices) and its description.
 * The engine's grammar decides the form; this text is how the model learns the meaning.
 */
export function fieldMeanings(name: string, schema: JsonSchema): string {
  const lines = fieldLines(schema, '');
  return [
    `Reply with one JSON object: the ${name}. Its fields, every one required, and what each means:`,
    ...lines,
  ].join('\n');
}

function fieldLines(schema: JsonSchema, prefix: string): string[] {
  if (!isRecord(schema.properties)) return [];
  return Object.entries(schema.properties).flatMap(([key, child]) => {
    if (!isRecord(child)) return [];
    const path = `${prefix}${key}`;
    const description = typeof child.description === 'string' ? `: ${child.description}` : '';
    const line = `- ${path} (${formOf(child)})${description}`;
    return [line, ...fieldLines(child, `${path}.`)];
  });
}

/** `number > 0 and <= 10000000, or null`, `one of "BUY", "SELL", "HOLD"`, `text, not empty`. */
function formOf(schema: JsonSchema): string {
  if (Array.isArray(schema.anyOf)) {
    const branches = schema.anyOf.filter(isRecord);
    const nullable = branches.some((branch) => branch.type === 'null');
    const forms = branches.filter((branch) => branch.type !== 'null').map(formOf);
    return `${forms.join(' or ')}${nullable ? ', or null' : ''}`;
  }
  if (Array.isArray(schema.enum)) return `one of ${schema.enum.map((value) => JSON.stringify(value)).join(', ')}`;
  const type = Array.isArray(schema.type) ? schema.type.join(' or ') : String(schema.type ?? 'value');
  const bounds = [
    typeof schema.exclusiveMinimum === 'number' ? `> ${schema.exclusiveMinimum}` : '',
    typeof schema.minimum === 'number' ? `>= ${schema.minimum}` : '',
    typeof schema.exclusiveMaximum === 'number' ? `< ${schema.exclusiveMaximum}` : '',
    typeof schema.maximum === 'number' ? `<= ${schema.maximum}` : '',
    schema.minLength === 1
      ? 'not empty'
      : typeof schema.minLength === 'number'
        ? `>= ${schema.minLength} characters`
        : '',
    typeof schema.maxLength === 'number' ? `<= ${schema.maxLength} characters` : '',
  ].filter(Boolean);
  const items = type === 'array' && isRecord(schema.items) ? ` of ${formOf(schema.items)}` : '';
  const named = type === 'string' ? 'text' : type === 'object' ? 'object' : type;
  return `${named}${items}${bounds.length > 0 ? ` ${bounds.join(' and ')}` : ''}`;
}

function isRecord(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
