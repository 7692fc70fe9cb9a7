/**
 * Strict mode makes every property required, so a model sends `null` for an optional
 * property it means to leave out, and a validator (zod, or an MCP server) rejects the
 * null. One rule for every tool, driven by the tool's JSON schema as emitted before the
 * strict pass (where optionality is still written down): a null for a property that is
 * not required and does not accept null is removed, at every depth, `$ref`s followed.
 */
export function stripNulls(value: unknown, schema: unknown, root: unknown = schema): unknown {
  const node = resolve(schema, root);
  if (!isRecord(node)) return value;
  if (Array.isArray(value))
    return node.items === undefined ? value : value.map((item) => stripNulls(item, node.items, root));
  if (!isRecord(value) || !isRecord(node.properties)) return value;
  const required = new Set(Array.isArray(node.required) ? (node.required as string[]) : []);
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const property = node.properties[key];
    if (item === null && !required.has(key) && property !== undefined && !acceptsNull(property, root)) continue;
    copy[key] = stripNulls(item, property, root);
  }
  return copy;
}

/** A local `$ref` (`#/$defs/Name`, `#/definitions/Name`, `#`) to the schema it names. */
function resolve(schema: unknown, root: unknown, seen = 0): unknown {
  if (!isRecord(schema) || typeof schema.$ref !== 'string' || seen > 32) return schema;
  const path = schema.$ref.replace(/^#\/?/, '');
  let target: unknown = root;
  for (const segment of path === '' ? [] : path.split('/')) {
    target = isRecord(target) ? target[decodeURIComponent(segment.replace(/~1/g, '/').replace(/~0/g, '~'))] : undefined;
  }
  return resolve(target, root, seen + 1);
}

function acceptsNull(schema: unknown, root: unknown): boolean {
  const node = resolve(schema, root);
  if (!isRecord(node)) return node === true || node === undefined;
  const type = node.type;
  if (type === 'null' || (Array.isArray(type) && type.includes('null'))) return true;
  const branches = [node.anyOf, node.oneOf].filter(Array.isArray).flat() as unknown[];
  if (branches.some((branch) => acceptsNull(branch, root))) return true;
  if (Array.isArray(node.enum) && node.enum.includes(null)) return true;
  if (node.const === null) return true;
  // A schema with no shape at all (`{}`) accepts null.
  return (
    type === undefined &&
    branches.length === 0 &&
    node.enum === undefined &&
    node.const === undefined &&
    node.$ref === undefined
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
