/**
 * A streamed answer assembled into one ChatResponse: content, refusal, reasoning, tool
 * calls (src/llm/tool-calls.ts) and usage from the final `choices: []` chunk. Split by
 * concern: the silence watchdog, the accumulation of chunks, and the failures a stream
 * can end in.
 */
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { formatSeconds } from '../clock.js';
import { ModelError } from '../errors.js';
import { sanitizeText } from '../sanitize.js';
import {
  assistantMessage,
  noChoices,
  reasoningOf,
  usageOf,
  type AnswerContext,
  type WireReasoning,
} from './openai-answer.js';
import { hostOf, isConnectionDrop } from './errors.js';
import { StreamEndedWithoutDone } from './stream-guard.js';
import { idsInConversation, ToolCallAssembler } from './tool-calls.js';
import type { ChatRequest, ChatResponse, FinishReason, Usage } from './types.js';

type ChunkStream = AsyncIterable<ChatCompletionChunk> & { controller: AbortController };

export async function assembleStream(
  stream: ChunkStream,
  request: ChatRequest,
  context: AnswerContext,
): Promise<ChatResponse> {
  const answer = new StreamedAnswer();
  // The SDK's timeout ends when the response starts; a stream that then goes silent
  // would hang the run, so silence longer than the timeout ends it here.
  const watchdog = silenceWatchdog(context.timeoutMs, () => stream.controller.abort());
  try {
    watchdog.restart();
    for await (const chunk of stream) {
      watchdog.restart();
      answer.add(chunk);
    }
  } catch (error) {
    throw streamFailure(error, answer, request, context);
  } finally {
    watchdog.stop();
  }
  // The SDK ends the iteration quietly when its request is aborted.
  if (request.signal?.aborted) throw new ModelError('model call aborted', 'aborted');
  if (watchdog.fired()) throw silenceTimeout(context);
  if (!answer.sawChoices) throw noChoices(context);
  return answer.response(request);
}

/** The pieces of one answer as its chunks arrive. */
class StreamedAnswer {
  content: string | null = null;
  refusal: string | null = null;
  reasoning = '';
  finishReason: FinishReason | null = null;
  usage: Usage = { promptTokens: 0, completionTokens: 0, cachedPromptTokens: 0 };
  model = '';
  sawChoices = false;
  readonly calls = new ToolCallAssembler();

  /** The tier the server says served the call (`service_tier` on its chunks). */
  serviceTier: unknown = undefined;

  add(chunk: ChatCompletionChunk): void {
    if (chunk.model) this.model = chunk.model;
    if (chunk.service_tier) this.serviceTier = chunk.service_tier;
    if (chunk.usage) this.usage = usageOf(chunk.usage, this.serviceTier);
    // Usage-only chunks come as `choices: []`; a few servers leave `choices` out.
    const choices = Array.isArray(chunk.choices) ? chunk.choices : [];
    if (choices.length > 0) this.sawChoices = true;
    const choice = choices.find((candidate) => (candidate.index ?? 0) === 0);
    if (!choice) return;
    const delta = (choice.delta ?? {}) as ChatCompletionChunk.Choice.Delta & WireReasoning;
    if (typeof delta.content === 'string') this.content = (this.content ?? '') + delta.content;
    if (typeof delta.refusal === 'string') this.refusal = (this.refusal ?? '') + delta.refusal;
    this.reasoning += reasoningOf(delta);
    for (const fragment of delta.tool_calls ?? []) this.calls.add(fragment);
    if (choice.finish_reason) this.finishReason = choice.finish_reason;
  }

  response(request: ChatRequest): ChatResponse {
    return {
      message: assistantMessage({
        content: this.content,
        refusal: this.refusal,
        reasoning: this.reasoning,
        toolCalls: this.calls.finish(idsInConversation(request.messages)),
      }),
      finishReason: this.finishReason,
      // The tier may come on a chunk after the usage.
      usage: this.serviceTier === 'flex' ? { ...this.usage, serviceTier: 'flex' } : this.usage,
      model: this.model || request.model,
    };
  }
}

function silenceWatchdog(timeoutMs: number, onSilence: () => void) {
  let fired = false;
  let timer: NodeJS.Timeout | undefined;
  return {
    restart() {
      clearTimeout(timer);
      timer = setTimeout(() => {
        fired = true;
        onSilence();
      }, timeoutMs);
    },
    stop: () => clearTimeout(timer),
    fired: () => fired,
  };
}

/** What a stream that threw mid-way becomes: aborted, cut short, or the error itself. */
function streamFailure(error: unknown, answer: StreamedAnswer, request: ChatRequest, context: AnswerContext): unknown {
  if (request.signal?.aborted) return new ModelError('model call aborted', 'aborted');
  const host = hostOf(context.baseURL);
  const problem = (what: string) => {
    const inProgress = answer.finishReason === null ? answer.calls.current() : undefined;
    const during = inProgress
      ? ` during tool call '${sanitizeText(inProgress.name)}' (${inProgress.arguments.length} argument characters received)`
      : '';
    return new ModelError(`${what}${during} (model '${request.model}')`, 'invalid-response', null, { cause: error });
  };
  if (error instanceof StreamEndedWithoutDone) return problem(`the stream from ${host} ended without [DONE]`);
  if (isConnectionDrop(error)) return problem(`the connection to ${host} dropped mid-stream`);
  return error;
}

function silenceTimeout(context: AnswerContext): ModelError {
  return new ModelError(
    `model call timed out after ${formatSeconds(context.timeoutMs)} of silence mid-stream (model '${context.model}' at ${hostOf(context.baseURL)})`,
    'timeout',
  );
}
