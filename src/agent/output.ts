import { z } from 'zod';
import { errorMessage } from '../errors.js';
import type { JsonSchemaFormat } from '../llm/types.js';
import { sanitizeDeep } from '../sanitize.js';
import { toStrictJsonSchema } from '../tools/strict-schema.js';
import type { AgentOutput } from './types.js';
import { describeViolations } from './violations.js';

/** The json_schema response format derived from the same zod schema that validates the reply. */
export function responseFormatFor(output: AgentOutput<unknown>): JsonSchemaFormat {
  return {
    type: 'json_schema',
    json_schema: {
      name: output.name,
      schema: toStrictJsonSchema(fullSchemaFor(output), `response ${output.name}`),
      strict: true,
    },
  };
}

/** zod's whole JSON schema of the answer, bounds and minLength included: what a grammar engine enforces. */
export function fullSchemaFor(output: AgentOutput<unknown>): Record<string, unknown> {
  return z.toJSONSchema(output.schema, { io: 'input' }) as Record<string, unknown>;
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
  const clean = sanitizeDeep(raw);
  const result = output.schema.safeParse(clean);
  if (result.success) return { ok: true, value: result.data };
  return { ok: false, error: describeViolations(result.error, clean) };
}

/** Sent back once when the answer broke its schema. */
export function schemaSlipPrompt(error: string): string {
  return `Your reply did not match the required JSON schema: ${error}. Reply again with only the corrected JSON object.`;
}
