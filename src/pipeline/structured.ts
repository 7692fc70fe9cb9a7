import { z } from 'zod';
import { sanitizeDeep } from '../sanitize.js';
import { ModelError, errorMessage } from '../errors.js';
import type { EventSink } from '../events.js';
import type { ChatMessage, ChatModel, ChatResponse, JsonSchemaFormat } from '../llm/types.js';
import { toStrictJsonSchema } from '../tools/strict-schema.js';

export interface StructuredCall<Schema extends z.ZodObject> {
  model: ChatModel;
  modelName: string;
  agent: string;
  schemaName: string;
  schema: Schema;
  messages: ChatMessage[];
  temperature?: number;
  maxTokens?: number;
  signal?: AbortSignal;
  events?: EventSink;
  /** Numbers this agent's calls across several structured calls (plan, then decision). */
  nextCallNumber?: () => number;
}

export interface StructuredResult<Value> {
  value: Value;
  /** Every model response, including a rejected first attempt. */
  responses: ChatResponse[];
}

/** The json_schema response format derived from the same zod schema that validates the reply. */
export function responseFormatFor(name: string, schema: z.ZodObject): JsonSchemaFormat {
  const emitted = z.toJSONSchema(schema, { io: 'input' }) as Record<string, unknown>;
  return { type: 'json_schema', json_schema: { name, schema: toStrictJsonSchema(emitted, `response ${name}`), strict: true } };
}

/**
 * One strict json_schema call. A reply that is not JSON or breaks the schema is
 * sent back once with the validation errors; a second failure is a ModelError —
 * never a made-up default value.
 */
export async function completeStructured<Schema extends z.ZodObject>(call: StructuredCall<Schema>): Promise<StructuredResult<z.infer<Schema>>> {
  const responseFormat = responseFormatFor(call.schemaName, call.schema);
  const messages = [...call.messages];
  const responses: ChatResponse[] = [];
  let localCalls = 0;
  const nextCallNumber = call.nextCallNumber ?? (() => (localCalls += 1));
  for (let attempt = 1; attempt <= 2; attempt += 1) {
    const request = {
      model: call.modelName,
      messages: [...messages],
      responseFormat,
      temperature: call.temperature,
      maxTokens: call.maxTokens,
      agent: call.agent,
    };
    const started = performance.now();
    const response = await call.model.complete({ ...request, signal: call.signal });
    responses.push(response);
    call.events?.({ type: 'model-call', agent: call.agent, call: nextCallNumber(), request, response, durationMs: performance.now() - started });
    call.events?.({ type: 'usage', agent: call.agent, model: response.model || call.modelName, usage: response.usage });
    const refusal = response.message.refusal;
    if (refusal) throw new ModelError(`the model refused: ${oneLine(refusal)}`, 'refusal');
    if (response.finishReason === 'length') {
      // Asking again under the same limit would be cut off again.
      throw new ModelError(
        `${call.agent}: the model's ${call.schemaName} was cut off at the ${call.maxTokens ?? 'server'}-token limit before the JSON was complete`,
        'invalid-response',
      );
    }
    const problem = validate(call.schema, response.message.content);
    if (problem.ok) return { value: problem.value, responses };
    if (attempt === 2) {
      throw new ModelError(`${call.agent}: the model's ${call.schemaName} broke the schema twice (${problem.error})`, 'invalid-response');
    }
    messages.push({ role: 'assistant', content: response.message.content ?? '' });
    messages.push({
      role: 'user',
      content: `Your reply did not match the required JSON schema: ${problem.error}. Reply again with only the corrected JSON object.`,
    });
  }
  throw new Error('unreachable');
}

function validate<Schema extends z.ZodObject>(
  schema: Schema,
  content: string | null,
): { ok: true; value: z.infer<Schema> } | { ok: false; error: string } {
  if (!content || content.trim() === '') return { ok: false, error: 'the reply was empty' };
  let raw: unknown;
  try {
    raw = JSON.parse(content);
  } catch (error) {
    return { ok: false, error: `not valid JSON (${errorMessage(error)})` };
  }
  // JSON escapes (`\u001b`) decode to control characters the content's own sanitising could not see.
  const result = schema.safeParse(sanitizeDeep(raw));
  if (result.success) return { ok: true, value: result.data };
  return {
    ok: false,
    error: result.error.issues
      .slice(0, 5)
      .map((issue) => (issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
      .join('; '),
  };
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}
