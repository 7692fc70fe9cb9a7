/**
 * Maps whatever a model call throws (the `openai` SDK's error classes, fetch and socket
 * failures) to one ModelError with one line a user understands. The SDK's classes are
 * handed in by the caller so that only src/llm/openai-model.ts imports `openai`.
 *
 * Every message is scrubbed: OpenAI's 401 quotes a masked key (`sk-proj-****abcd`) and
 * its 429 names the organisation; neither, nor the configured key, may reach a log.
 */
import { formatSeconds } from '../clock.js';
import { sanitizeText } from '../sanitize.js';
import { scrubText } from '../scrub.js';
import { AutohedgeError, errorCode, findCause, ModelError, type ModelErrorKind } from '../errors.js';

type ErrorClass<Shape> = abstract new (...args: never[]) => Shape;

interface ApiErrorShape extends Error {
  readonly status: number | undefined;
  readonly error: unknown;
  readonly code: string | null | undefined;
  readonly type: string | undefined;
}

/** The SDK classes toModelError distinguishes; pass the `openai` module itself. */
export interface SdkErrorClasses {
  APIError: ErrorClass<ApiErrorShape>;
  APIUserAbortError: ErrorClass<Error>;
  APIConnectionError: ErrorClass<Error>;
  APIConnectionTimeoutError: ErrorClass<Error>;
  OpenAIError: ErrorClass<Error>;
}

export interface ModelErrorContext {
  model: string;
  baseURL: string;
  timeoutMs: number;
  maxRetries: number;
  /** Values that must never appear in a message: the configured API key. */
  secrets: readonly string[];
  sdk: SdkErrorClasses;
}

const maximumDetailLength = 300;

export function toModelError(error: unknown, context: ModelErrorContext): Error {
  if (error instanceof AutohedgeError) return error;
  // An injected fetch (replay, tests) may throw a typed error; the SDK wraps it as a
  // connection error, but the typed one is what the user needs to see.
  const typed = findCause(error, (cause): cause is AutohedgeError => cause instanceof AutohedgeError);
  if (typed) return typed;

  const { sdk } = context;
  const host = hostOf(context.baseURL);
  const provider = host === 'api.openai.com' ? 'OpenAI' : host;
  const make = (message: string, kind: ModelErrorKind, status: number | null = null, cause?: unknown) =>
    // The message quotes the server's error body and the base URL: both untrusted.
    new ModelError(
      sanitizeText(scrubText(message, context.secrets)),
      kind,
      status,
      cause === undefined ? undefined : { cause },
    );
  const attempts = context.maxRetries + 1;

  if (error instanceof sdk.APIUserAbortError || isAbortError(error)) {
    return make('model call aborted', 'aborted');
  }
  if (error instanceof sdk.APIConnectionTimeoutError) {
    const tries = attempts > 1 ? `, ${attempts} attempts` : '';
    return make(
      `model call timed out after ${formatSeconds(context.timeoutMs)} (model '${context.model}' at ${host}${tries})`,
      'timeout',
    );
  }
  if (error instanceof sdk.APIConnectionError) {
    const code = errorCode(error);
    return make(`could not connect to ${context.baseURL}${code ? ` (${code})` : ''}`, 'connection', null, error.cause);
  }
  if (error instanceof sdk.APIError) {
    const status = error.status ?? null;
    const detail = serverDetail(error);
    // The raw SDK error is not kept as the cause: its message is the server's, unscrubbed.
    const cause = new Error(sanitizeText(scrubText(error.message, context.secrets)));
    const suffix = detail ? `: ${detail}` : '';
    const afterRetries =
      context.maxRetries > 0 ? ` after ${context.maxRetries} ${context.maxRetries === 1 ? 'retry' : 'retries'}` : '';
    if (status === null) {
      return make(
        `${provider} reported an error mid-stream for model '${context.model}'${suffix}`,
        'server',
        null,
        cause,
      );
    }
    if (status === 401) {
      return make(`${provider} rejected the API key (401): check OPENAI_API_KEY`, 'authentication', status, cause);
    }
    if (status === 403) {
      return make(
        `${provider} denied access (403) for model '${context.model}'${suffix}`,
        'authentication',
        status,
        cause,
      );
    }
    if (status === 404) {
      if (error.code === 'model_not_found' || /\bmodel\b/i.test(detail)) {
        const where = provider === 'OpenAI' ? '' : ` on ${host}`;
        return make(
          `model '${context.model}' was not found${where} (404) — check --model / AUTOHEDGE_MODEL`,
          'model-not-found',
          status,
          cause,
        );
      }
      return make(
        `no chat completions endpoint at ${context.baseURL} (404): check the base URL`,
        'bad-request',
        status,
        cause,
      );
    }
    if (status === 429) {
      if (error.code === 'insufficient_quota' || error.type === 'insufficient_quota') {
        return make(
          `${provider} quota exceeded (429 insufficient_quota): check your plan and billing`,
          'quota',
          status,
          cause,
        );
      }
      return make(
        `${provider} rate limit hit (429) for model '${context.model}'${afterRetries}${suffix}`,
        'rate-limited',
        status,
        cause,
      );
    }
    if (status >= 500) {
      return make(
        `${provider} server error (${status}) for model '${context.model}'${afterRetries}${suffix}`,
        'server',
        status,
        cause,
      );
    }
    return make(
      `${provider} rejected the request for model '${context.model}' (${status})${suffix}`,
      'bad-request',
      status,
      cause,
    );
  }
  if (error instanceof SyntaxError) {
    return make(
      `the answer from ${host} is not valid JSON (model '${context.model}')`,
      'invalid-response',
      null,
      error,
    );
  }
  if (isConnectionDrop(error)) {
    return make(
      `the connection to ${host} dropped before the answer was complete (model '${context.model}')`,
      'invalid-response',
      null,
      error,
    );
  }
  if (error instanceof sdk.OpenAIError) {
    return make(`the model client failed: ${error.message}`, 'invalid-response', null, error);
  }
  if (error instanceof Error) return error;
  return make(`the model call failed: ${String(error)}`, 'invalid-response');
}

/** True when a socket closed under a response that was still arriving (undici: "terminated"). */
export function isConnectionDrop(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === 'TypeError' && error.message === 'terminated') return true;
  const code = errorCode(error);
  return code === 'UND_ERR_SOCKET' || code === 'ECONNRESET' || code === 'EPIPE';
}

export function hostOf(baseURL: string): string {
  try {
    return new URL(baseURL).host;
  } catch {
    return baseURL;
  }
}

function serverDetail(error: ApiErrorShape): string {
  const body = error.error as { message?: unknown } | undefined;
  const raw = typeof body?.message === 'string' ? body.message : error.message.replace(/^\d{3} /, '');
  const oneLine = raw.replace(/\s+/g, ' ').trim();
  if (/^\d{3} status code \(no body\)$/.test(error.message)) return '';
  return oneLine.length > maximumDetailLength ? `${oneLine.slice(0, maximumDetailLength - 1)}…` : oneLine;
}

function isAbortError(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}
