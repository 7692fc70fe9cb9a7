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
import {
  hasRateLimitInfo,
  parseRateLimitHeaders,
  type HeaderSource,
  type RateLimitInfo,
} from './rate-limit-headers.js';

type ErrorClass<Shape> = abstract new (...args: never[]) => Shape;

interface ApiErrorShape extends Error {
  readonly status: number | undefined;
  readonly error: unknown;
  readonly code: string | null | undefined;
  readonly type: string | undefined;
  readonly headers: HeaderSource | undefined;
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
  // The SDK's connection errors are APIErrors too: they are told apart first.
  const clientSide = clientSideError(error, context);
  if (clientSide) return clientSide;
  if (error instanceof context.sdk.APIError) return apiModelError(error, context);
  return otherError(error, context);
}

/** Builds the ModelError; the message quotes the server's error body and the base URL: both untrusted. */
function modelError(
  context: ModelErrorContext,
  message: string,
  kind: ModelErrorKind,
  status: number | null = null,
  extra: { cause?: unknown; rateLimit?: RateLimitInfo } = {},
): ModelError {
  return new ModelError(sanitizeText(scrubText(message, context.secrets)), kind, status, extra);
}

/** An abort, a timeout or a failed connection: the call never had an answer. */
function clientSideError(error: unknown, context: ModelErrorContext): ModelError | undefined {
  const { sdk } = context;
  const host = hostOf(context.baseURL);
  if (error instanceof sdk.APIUserAbortError || isAbortError(error)) {
    return modelError(context, 'model call aborted', 'aborted');
  }
  if (error instanceof sdk.APIConnectionTimeoutError) {
    const attempts = context.maxRetries + 1;
    const tries = attempts > 1 ? `, ${attempts} attempts` : '';
    return modelError(
      context,
      `model call timed out after ${formatSeconds(context.timeoutMs)} (model '${context.model}' at ${host}${tries})`,
      'timeout',
    );
  }
  if (error instanceof sdk.APIConnectionError) {
    const code = errorCode(error);
    return modelError(
      context,
      `could not connect to ${context.baseURL}${code ? ` (${code})` : ''}`,
      'connection',
      null,
      {
        cause: error.cause,
      },
    );
  }
  return undefined;
}

/** The server answered with an error status (or an error event mid-stream). */
function apiModelError(error: ApiErrorShape, context: ModelErrorContext): ModelError {
  const status = error.status ?? null;
  const { message, kind } = describeStatus(error, status, context);
  // The raw SDK error is not kept as the cause: its message is the server's, unscrubbed.
  const cause = new Error(sanitizeText(scrubText(error.message, context.secrets)));
  const rateLimit = parseRateLimitHeaders(error.headers, Date.now());
  return modelError(context, message, kind, status, { cause, ...(hasRateLimitInfo(rateLimit) ? { rateLimit } : {}) });
}

function describeStatus(
  error: ApiErrorShape,
  status: number | null,
  context: ModelErrorContext,
): { message: string; kind: ModelErrorKind } {
  const host = hostOf(context.baseURL);
  const provider = host === 'api.openai.com' ? 'OpenAI' : host;
  const detail = serverDetail(error);
  const suffix = detail ? `: ${detail}` : '';
  const model = `model '${context.model}'`;
  const retries = context.maxRetries;
  const afterRetries = retries > 0 ? ` after ${retries} ${retries === 1 ? 'retry' : 'retries'}` : '';
  if (status === null)
    return { message: `${provider} reported an error mid-stream for ${model}${suffix}`, kind: 'server' };
  if (status === 401)
    return { message: `${provider} rejected the API key (401): check OPENAI_API_KEY`, kind: 'authentication' };
  if (status === 403)
    return { message: `${provider} denied access (403) for ${model}${suffix}`, kind: 'authentication' };
  if (status === 404) return notFound(error, detail, context, provider);
  if (status === 429) {
    if (error.code === 'insufficient_quota' || error.type === 'insufficient_quota')
      return {
        message: `${provider} quota exceeded (429 insufficient_quota): check your plan and billing`,
        kind: 'quota',
      };
    return { message: `${provider} rate limit hit (429) for ${model}${afterRetries}${suffix}`, kind: 'rate-limited' };
  }
  if (status >= 500)
    return { message: `${provider} server error (${status}) for ${model}${afterRetries}${suffix}`, kind: 'server' };
  return { message: `${provider} rejected the request for ${model} (${status})${suffix}`, kind: 'bad-request' };
}

function notFound(
  error: ApiErrorShape,
  detail: string,
  context: ModelErrorContext,
  provider: string,
): { message: string; kind: ModelErrorKind } {
  if (error.code === 'model_not_found' || /\bmodel\b/i.test(detail)) {
    const where = provider === 'OpenAI' ? '' : ` on ${hostOf(context.baseURL)}`;
    return {
      message: `model '${context.model}' was not found${where} (404) — check --model / AUTOHEDGE_MODEL`,
      kind: 'model-not-found',
    };
  }
  return {
    message: `no chat completions endpoint at ${context.baseURL} (404): check the base URL`,
    kind: 'bad-request',
  };
}

/** A malformed answer, a dropped socket, or anything else the SDK or fetch threw. */
function otherError(error: unknown, context: ModelErrorContext): Error {
  const host = hostOf(context.baseURL);
  const model = `model '${context.model}'`;
  if (error instanceof SyntaxError)
    return modelError(context, `the answer from ${host} is not valid JSON (${model})`, 'invalid-response', null, {
      cause: error,
    });
  if (isConnectionDrop(error))
    return modelError(
      context,
      `the connection to ${host} dropped before the answer was complete (${model})`,
      'invalid-response',
      null,
      { cause: error },
    );
  if (error instanceof context.sdk.OpenAIError)
    return modelError(context, `the model client failed: ${error.message}`, 'invalid-response', null, { cause: error });
  if (error instanceof Error) return error;
  return modelError(context, `the model call failed: ${String(error)}`, 'invalid-response');
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
