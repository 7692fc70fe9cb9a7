/**
 * Structured output on servers that do not all speak strict `json_schema`. The agent
 * asks with a json_schema `responseFormat`; the ChatModel sends it in the best mode the
 * server takes and returns the JSON text as the message content:
 *
 *   grammar      json_schema with the FULL schema (minLength, bounds, integer types) and the
 *                fields' meanings in the prompt: a local engine (llama.cpp, Ollama, vLLM, LM
 *                Studio) turns the schema into a grammar and never shows it to the model
 *   json_schema  the request as asked (OpenAI, Azure, Groq, ...): the strict subset
 *   json_object  `response_format: {type: "json_object"}`, the schema in the system prompt (DeepSeek);
 *                to llama.cpp also `schema` inside it, the form that engine enforces
 *   prompt       no response_format, the schema in the prompt, the JSON taken out of the text
 *
 * Validation against the zod schema and the one re-ask stay with the agent loop.
 */
import { z } from 'zod';
import { ConfigError, ModelError } from '../errors.js';
import type { EngineName } from './engine.js';
import { fieldMeanings, grammarSchemaOf } from './grammar-schema.js';
import type { ChatMessage, ChatRequest } from './types.js';

export const structuredModes = ['grammar', 'json_schema', 'json_object', 'prompt'] as const;
export type StructuredMode = (typeof structuredModes)[number];

/** The modes a hosted-style server is tried in, in order (doctor's detection, the fallback). */
export const hostedModes: readonly StructuredMode[] = ['json_schema', 'json_object', 'prompt'];

/** The mode a structured request starts in: AUTOHEDGE_STRUCTURED, else grammar for a local engine. */
export function startingMode(configured: StructuredMode | undefined, engine: EngineName | null): StructuredMode {
  return configured ?? (engine ? 'grammar' : 'json_schema');
}

const modeSchema = z.enum(structuredModes);

/** AUTOHEDGE_STRUCTURED, validated: undefined when unset (grammar for a detected local engine, else json_schema). */
export function structuredModeFromEnv(env: NodeJS.ProcessEnv): StructuredMode | undefined {
  const raw = env.AUTOHEDGE_STRUCTURED?.trim();
  if (!raw) return undefined;
  const parsed = modeSchema.safeParse(raw);
  if (!parsed.success) {
    throw new ConfigError(
      `AUTOHEDGE_STRUCTURED must be one of ${structuredModes.join(', ')} (got '${raw.slice(0, 40)}')`,
    );
  }
  return parsed.data;
}

/**
 * The next mode to try after a server refused `mode`, or undefined after the last one.
 * Grammar is json_schema already, so its refusal goes to json_object; LM Studio takes
 * json_schema only and refuses json_object, so it goes straight to the prompt.
 */
export function nextMode(mode: StructuredMode, engine: EngineName | null = null): StructuredMode | undefined {
  const order: readonly StructuredMode[] = mode === 'grammar' ? ['grammar', ...hostedModes.slice(1)] : hostedModes;
  const next = order[order.indexOf(mode) + 1];
  return next === 'json_object' && engine === 'lmstudio' ? 'prompt' : next;
}

/**
 * True for a 400 (or 422) that names the response format: DeepSeek's "This
 * response_format type is unavailable now", LM Studio's "'response_format.type' must be
 * 'json_schema'", vLLM's and llama.cpp's json_schema errors — but not a rejected schema.
 */
export function refusesResponseFormat(error: unknown): boolean {
  if (!(error instanceof ModelError) || error.kind !== 'bad-request') return false;
  if (error.status !== 400 && error.status !== 422) return false;
  // OpenAI's "Invalid schema for response_format 'plan': ..." is our bug, not a missing mode.
  if (/invalid schema|invalid_json_schema/i.test(error.message)) return false;
  return /response_format|json_schema|json_object|structured output/i.test(error.message);
}

/** The request as it goes to the server in `mode` (unchanged for json_schema). */
export function requestInMode(
  request: ChatRequest,
  mode: StructuredMode,
  engine: EngineName | null = null,
): { body: ChatRequest; responseFormat: object | undefined } {
  const format = request.responseFormat;
  if (!format || mode === 'json_schema') return { body: request, responseFormat: format };
  const { responseFormat: _unused, fullSchema, ...rest } = request;
  const name = format.json_schema.name;
  if (mode === 'grammar') {
    const schema = grammarSchemaOf(fullSchema ?? format.json_schema.schema);
    return {
      body: { ...rest, messages: withInstruction(request.messages, fieldMeanings(name, schema)) },
      responseFormat: { type: 'json_schema', json_schema: { name, schema, strict: true } },
    };
  }
  // The prompt carries the schema a grammar engine would enforce, bounds included: the model reads them.
  const schema = engine ? grammarSchemaOf(fullSchema ?? format.json_schema.schema) : format.json_schema.schema;
  const instruction = schemaInstruction(name, schema, mode);
  return {
    body: { ...rest, messages: withInstruction(request.messages, instruction) },
    responseFormat: mode === 'json_object' ? jsonObjectFormat(schema, engine) : undefined,
  };
}

/** llama.cpp's server enforces `{"type":"json_object","schema":...}` even where it refuses json_schema. */
function jsonObjectFormat(schema: Record<string, unknown>, engine: EngineName | null): object {
  return engine === 'llama.cpp' ? { type: 'json_object', schema } : { type: 'json_object' };
}

function schemaInstruction(name: string, schema: Record<string, unknown>, mode: StructuredMode): string {
  const form = mode === 'prompt' ? 'one JSON object and nothing else (no prose before or after it)' : 'one JSON object';
  return `Reply with ${form}: the ${name}, matching this JSON schema exactly (every property required, no others):\n${JSON.stringify(schema)}`;
}

/** The instruction goes at the end of the system prompt, or first when there is none. */
function withInstruction(messages: ChatMessage[], instruction: string): ChatMessage[] {
  const systemAt = messages.findIndex((message) => message.role === 'system');
  if (systemAt === -1) return [{ role: 'system', content: instruction }, ...messages];
  return messages.map((message, index) =>
    index === systemAt && message.role === 'system'
      ? { role: 'system', content: `${message.content}\n\n${instruction}` }
      : message,
  );
}

/**
 * The JSON object in a plain-text answer: the text itself, a ```json fence, or the span
 * from the first `{` to the last `}` — after any <think> block a local reasoning model
 * writes into its content. Text with no parseable object is returned as it came, so the
 * validation names the problem and the agent re-asks.
 */
export function extractJson(text: string | null): string | null {
  if (text === null) return null;
  const visible = text.replace(/<think>[\s\S]*?<\/think>/g, '').trim();
  const candidates = [visible];
  const fence = /```(?:json)?\s*\n?([\s\S]*?)```/i.exec(visible);
  if (fence?.[1]) candidates.push(fence[1].trim());
  const start = visible.indexOf('{');
  const end = visible.lastIndexOf('}');
  if (start !== -1 && end > start) candidates.push(visible.slice(start, end + 1));
  return candidates.find(parsesAsObject) ?? text;
}

function parsesAsObject(candidate: string): boolean {
  try {
    const value = JSON.parse(candidate) as unknown;
    return value !== null && typeof value === 'object' && !Array.isArray(value);
  } catch {
    return false;
  }
}
