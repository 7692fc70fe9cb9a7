/**
 * The model server's checks, each a call or two of a handful of tokens: is it there,
 * does it list the model, does a streamed tool call round trip work, which structured
 * mode works, does it send reasoning and usage.
 */
import { z } from 'zod';
import { errorMessage, ModelError } from '../errors.js';
import type { EngineFacts } from '../llm/engine.js';
import type { OpenAIModelOptions } from '../llm/openai-model.js';
import { hostedModes, nextMode, refusesResponseFormat, type StructuredMode } from '../llm/structured-mode.js';
import type { ChatMessage, ChatModel, ChatRequest, ChatResponse, ToolDefinition } from '../llm/types.js';
import { check, type Check } from './types.js';

export interface ModelProbe {
  model: string;
  /** A chat client on the user's server, as analyze would build it, with these overrides. */
  chat(options: Partial<OpenAIModelOptions>): ChatModel;
  listModels(): Promise<string[] | null>;
  /** The local engine behind the server, told by its own signs (src/llm/engine.ts). */
  engine(): Promise<EngineFacts>;
  /** The quota the server announced in its rate-limit headers during the checks (per minute), if any. */
  rateLimits?(): Promise<{ requestsPerMinute?: number; tokensPerMinute?: number }>;
}

/** An upper bound, not a cost: room for a reasoning model to think briefly and still answer. */
const maxTokens = 1024;

export async function serverChecks(probe: ModelProbe, where: string): Promise<{ checks: Check[]; reachable: boolean }> {
  try {
    const models = await probe.listModels();
    const reachable = check('server', 'server', 'ok', `reachable at ${where}`);
    if (models === null)
      return {
        reachable: true,
        checks: [
          reachable,
          check(
            'model-listed',
            'model listed',
            'warn',
            'the server has no GET /models list; the round trip below tells',
          ),
        ],
      };
    const listed = models.includes(probe.model);
    const sample = models.slice(0, 5).join(', ');
    return {
      reachable: true,
      checks: [
        reachable,
        listed
          ? check(
              'model-listed',
              'model listed',
              'ok',
              `'${probe.model}' is among the ${models.length} models the server lists`,
            )
          : check(
              'model-listed',
              'model listed',
              'warn',
              `'${probe.model}' is not among the ${models.length} listed models${sample ? ` (${sample}${models.length > 5 ? ', …' : ''})` : ''}`,
            ),
      ],
    };
  } catch (error) {
    const configuration = isConfigurationFailure(error);
    // A rejected key still proves the server is there.
    const reachable = error instanceof ModelError && error.status !== null;
    return { reachable, checks: [check('server', 'server', 'fail', errorMessage(error), configuration)] };
  }
}

const addTool: ToolDefinition = {
  type: 'function',
  function: {
    name: 'add',
    description: 'Adds two integers.',
    parameters: {
      type: 'object',
      properties: { a: { type: 'integer' }, b: { type: 'integer' } },
      required: ['a', 'b'],
      additionalProperties: false,
    },
    strict: true,
  },
};

/** How a tool check is run and reported. */
export interface ToolCheckOptions {
  /** Streamed (the deltas assembled by autohedge) or whole. Default streamed. */
  stream?: boolean;
  /** False when no agent of the configuration has tools: a failure is then only a warning. */
  toolsNeeded?: boolean;
  id?: string;
  label?: string;
}

/** A call that must call `add(2, 3)`, then the follow-up with its result, which must answer. */
export async function toolRoundTrip(
  probe: ModelProbe,
  options: ToolCheckOptions = {},
): Promise<{ check: Check; responses: ChatResponse[] }> {
  const { stream = true, toolsNeeded = true, id = 'tool-calls', label = 'tool calls' } = options;
  const chat = probe.chat({ stream });
  const request: ChatRequest = {
    model: probe.model,
    messages: [
      { role: 'system', content: 'You are a connectivity check. Use the tool when asked.' },
      { role: 'user', content: 'Call the tool add with a = 2 and b = 3. Do not answer in text before calling it.' },
    ],
    tools: [addTool],
    toolChoice: 'auto',
    maxTokens,
    agent: 'doctor',
  };
  const responses: ChatResponse[] = [];
  const unneeded = ' (no agent in this configuration has tools: analyze does not need them)';
  const fail = (detail: string, configuration = false) => ({
    check: toolsNeeded
      ? check(id, label, 'fail', detail, configuration)
      : check(id, label, 'warn', `${detail}${unneeded}`, configuration),
    responses,
  });
  const how = stream ? 'streamed' : 'whole';
  try {
    const first = await chat.complete(request);
    responses.push(first);
    const call = first.message.tool_calls?.[0];
    if (!call && first.finishReason === 'length')
      return fail(`the answer hit the ${maxTokens}-token limit before any tool call`);
    if (!call)
      return fail(
        `the model answered without calling the tool (finish_reason ${String(first.finishReason)}): agents with tools will not work`,
      );
    const args = parseArguments(call.function.arguments);
    if (call.function.name !== 'add' || !args)
      return fail(
        `the model called ${call.function.name} with arguments that are not the JSON asked for: ${call.function.arguments.slice(0, 80)}`,
      );
    const result: ChatMessage = { role: 'tool', tool_call_id: call.id, content: String(args.a + args.b) };
    const second = await chat.complete({ ...request, messages: [...request.messages, first.message, result] });
    responses.push(second);
    if (!second.message.content?.trim()) return fail('the model did not answer after the tool result');
    const notes = [
      call.id.startsWith('call_autohedge_') ? 'the server sent no call id (autohedge made one)' : `id ${call.id}`,
      first.finishReason === 'tool_calls'
        ? 'finish_reason tool_calls'
        : `finish_reason ${String(first.finishReason)} with a call (handled)`,
    ];
    const status = call.id.startsWith('call_autohedge_') || first.finishReason !== 'tool_calls' ? 'warn' : 'ok';
    return {
      check: check(
        id,
        label,
        status,
        `${how} add(${args.a}, ${args.b}), ${notes.join(', ')}; answered after the result`,
      ),
      responses,
    };
  } catch (error) {
    return fail(errorMessage(error), isConfigurationFailure(error));
  }
}

const sumSchema = z.object({ sum: z.number() });
const sumFormat = {
  type: 'json_schema' as const,
  json_schema: {
    name: 'sum',
    schema: {
      type: 'object',
      properties: { sum: { type: 'integer' } },
      required: ['sum'],
      additionalProperties: false,
    },
    strict: true as const,
  },
};

/** The modes to try in order: from AUTOHEDGE_STRUCTURED, else grammar for a local engine, else json_schema. */
export function modesToTry(start: StructuredMode | undefined, facts: EngineFacts): StructuredMode[] {
  const modes: StructuredMode[] = [];
  for (
    let mode: StructuredMode | undefined = start ?? (facts.engine ? 'grammar' : hostedModes[0]);
    mode;
    mode = nextMode(mode, facts.engine)
  )
    modes.push(mode);
  return modes;
}

/** Each mode from `start` on, one small call each, until one returns the JSON asked for. */
export async function structuredCheck(
  probe: ModelProbe,
  start: StructuredMode | undefined,
  facts: EngineFacts = { engine: null },
): Promise<{ check: Check; responses: ChatResponse[]; mode?: StructuredMode }> {
  const responses: ChatResponse[] = [];
  const tried: string[] = [];
  for (const mode of modesToTry(start, facts)) {
    const chat = probe.chat({ structuredMode: mode, fallback: false, stream: true, engine: facts });
    try {
      const response = await chat.complete({
        model: probe.model,
        messages: [{ role: 'user', content: 'What is 2 + 3? Answer with the JSON object {"sum": <the number>}.' }],
        responseFormat: sumFormat,
        maxTokens,
        agent: 'doctor',
      });
      responses.push(response);
      if (sumSchema.safeParse(parseJson(response.message.content)).success) {
        const hint =
          mode === 'json_schema' || (mode === 'grammar' && !start)
            ? ''
            : mode === start
              ? ' (as AUTOHEDGE_STRUCTURED says)'
              : `; set AUTOHEDGE_STRUCTURED=${mode} to skip the detection`;
        const before = tried.length > 0 ? ` (${tried.join(', ')})` : '';
        return {
          check: check('structured', 'structured output', 'ok', `${mode} works${before}${hint}`),
          responses,
          mode,
        };
      }
      tried.push(`${mode} (answer not the JSON asked for)`);
    } catch (error) {
      if (isConfigurationFailure(error))
        return { check: check('structured', 'structured output', 'fail', errorMessage(error), true), responses };
      // A refusal of the mode is expected on many servers; anything else is worth its message.
      tried.push(
        refusesResponseFormat(error)
          ? `${mode} refused (${(error as ModelError).status})`
          : `${mode} failed: ${oneLine(errorMessage(error))}`,
      );
    }
  }
  return { check: check('structured', 'structured output', 'fail', `no mode works: ${tried.join('; ')}`), responses };
}

export function reasoningCheck(responses: ChatResponse[]): Check {
  const reasoning = responses.find((response) => response.message.reasoning_content);
  return reasoning
    ? check(
        'reasoning',
        'reasoning',
        'ok',
        `the server sends the model's reasoning (${reasoning.message.reasoning_content?.length ?? 0} characters); kept between tool rounds`,
      )
    : check('reasoning', 'reasoning', 'ok', 'no reasoning field (expected for a model that does not reason aloud)');
}

export function usageCheck(responses: ChatResponse[]): Check {
  if (responses.length === 0) return check('usage', 'usage', 'skip', 'no answer to read usage from');
  const prompt = responses.reduce((sum, response) => sum + response.usage.promptTokens, 0);
  const completion = responses.reduce((sum, response) => sum + response.usage.completionTokens, 0);
  if (prompt + completion === 0)
    return check('usage', 'usage', 'warn', 'the server reports no token usage: costs and --max-cost will see 0');
  return check('usage', 'usage', 'ok', `reported: ${prompt} prompt + ${completion} completion tokens for these checks`);
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 160 ? `${line.slice(0, 159)}…` : line;
}

function isConfigurationFailure(error: unknown): boolean {
  return error instanceof ModelError && (error.kind === 'authentication' || error.kind === 'model-not-found');
}

function parseArguments(text: string): { a: number; b: number } | undefined {
  const parsed = z.object({ a: z.number(), b: z.number() }).safeParse(parseJson(text));
  return parsed.success ? parsed.data : undefined;
}

function parseJson(text: string | null): unknown {
  try {
    return JSON.parse(text ?? '') as unknown;
  } catch {
    return undefined;
  }
}

/** What the server's x-ratelimit-* headers announced: the quota autohedge paces to (docs/rate-limits.md). */
export async function rateLimitCheck(probe: ModelProbe): Promise<Check> {
  const limits = (await probe.rateLimits?.()) ?? {};
  const parts = [
    limits.requestsPerMinute !== undefined
      ? `${Math.round(limits.requestsPerMinute).toLocaleString('en-US')} requests`
      : '',
    limits.tokensPerMinute !== undefined ? `${Math.round(limits.tokensPerMinute).toLocaleString('en-US')} tokens` : '',
  ].filter(Boolean);
  if (parts.length === 0)
    return check(
      'rate-limits',
      'rate limits',
      'ok',
      'the server announced no rate limits: requests are paced only with --rpm / --tpm',
    );
  return check(
    'rate-limits',
    'rate limits',
    'ok',
    `the server announces ${parts.join(' and ')} per minute; analyze paces to them`,
  );
}
