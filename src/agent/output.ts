import { z } from 'zod';
import { errorMessage } from '../errors.js';
import type { JsonSchemaFormat } from '../llm/types.js';
import { sanitizeDeep } from '../sanitize.js';
import { toStrictJsonSchema } from '../tools/strict-schema.js';
import { formatZodIssues } from '../zod-issues.js';
import type { AgentOutput } from './types.js';

/** The json_schema response format derived from the same zod schema that validates the reply. */
export function responseFormatFor(output: AgentOutput<unknown>): JsonSchemaFormat {
  const emitted = z.toJSONSchema(output.schema, { io: 'input' }) as Record<string, unknown>;
  return {
    type: 'json_schema',
    json_schema: { name: output.name, schema: toStrictJsonSchema(emitted, `response ${output.name}`), strict: true },
  };
}

export type ParsedAnswer<Output> = { ok: true; value: Output } | { ok: false; error: string };

/** The model's text as the output schema's value, or why it is not one. */
export function parseAnswer<Output>(output: AgentOutput<Output>, content: string | null): ParsedAnswer<Output> {
  if (!content || content.trim() === '') return { ok: false, error: 'the reply was empty' };
  let raw: unknown;
  try {
    raw = JSON.parse(content);
  } catch (error) {
    return { ok: false, error: `not valid JSON (${errorMessage(error)})` };
  }
  // JSON escapes (`\u001b`) decode to control characters the content's own sanitising could not see.
  const result = output.schema.safeParse(sanitizeDeep(raw));
  if (result.success) return { ok: true, value: result.data };
  return { ok: false, error: formatZodIssues(result.error) };
}

/** Sent back once when the answer broke its schema. */
export function schemaSlipPrompt(error: string): string {
  return `Your reply did not match the required JSON schema: ${error}. Reply again with only the corrected JSON object.`;
}
