import type OpenAI from 'openai';
import type { ModelErrorContext } from './errors.js';

/**
 * How both of autohedge's OpenAI clients (chat and built-in search) are built, once.
 * The `openai` SDK itself is imported by the caller, lazily.
 */

export type Sdk = typeof import('openai');

export interface ClientSettings {
  apiKey?: string;
  baseURL?: string;
  timeoutMs: number;
  maxRetries: number;
  /** A caller's fetch; else the global one, looked up at call time. */
  fetch?: typeof fetch;
  /** Wraps the fetch the client uses (stream guards, retry rules). */
  wrapFetch?: (base: typeof fetch) => typeof fetch;
}

/** Sent for servers that want no key (Ollama, vLLM); the SDK insists on one. */
const placeholderKey = 'not-needed';

export function newOpenAIClient(sdk: Sdk, settings: ClientSettings): OpenAI {
  // The SDK keeps the fetch it is given; a late-bound one lets an interceptor installed
  // after this point (record / replay) still see every call.
  const base: typeof fetch = settings.fetch ?? ((input, init) => globalThis.fetch(input, init));
  return new sdk.OpenAI({
    apiKey: settings.apiKey ?? placeholderKey,
    ...(settings.baseURL !== undefined ? { baseURL: settings.baseURL } : {}),
    timeout: settings.timeoutMs,
    maxRetries: settings.maxRetries,
    fetch: settings.wrapFetch ? settings.wrapFetch(base) : base,
    // Failures reach the user as one typed line; the SDK's own dumps (raw chunks on a
    // parse error) stay off unless asked for with the SDK's OPENAI_LOG.
    ...(process.env['OPENAI_LOG'] ? {} : { logLevel: 'off' as const }),
  });
}

export interface Connection {
  client: OpenAI;
  sdk: Sdk;
}

/** The client built on first use and kept (a failed load included): the SDK is imported then, not at start-up. */
export function lazyOpenAIClient(settings: ClientSettings): () => Promise<Connection> {
  let connection: Promise<Connection> | undefined;
  return () => (connection ??= import('openai').then((sdk) => ({ client: newOpenAIClient(sdk, settings), sdk })));
}

/** What toModelError needs to word a failed call of `model` on this connection (and the key it must keep out). */
export function errorContextOf(
  model: string,
  { client, sdk }: Connection,
  settings: ClientSettings,
): ModelErrorContext {
  return {
    model,
    baseURL: client.baseURL,
    timeoutMs: settings.timeoutMs,
    maxRetries: settings.maxRetries,
    secrets: settings.apiKey ? [settings.apiKey] : [],
    sdk,
  };
}
