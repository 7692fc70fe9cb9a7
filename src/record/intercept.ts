/**
 * The one importer of @mswjs/interceptors, loaded lazily so a normal run never pays
 * for it.
 *
 * Why @mswjs/interceptors' FetchInterceptor and not nock 14 (which wraps the same
 * library): tried against a loopback server, nock's recorder
 * - keeps only the LAST `set-cookie` of a response (its rawHeaders become an
 *   object), which drops the market vendor's A3 cookie and breaks the crumb handshake on replay;
 * - buffers a streamed (SSE) response completely before the caller sees its first
 *   byte, so progress stalls while recording;
 * - re-serialises JSON bodies (not byte-exact);
 * and on a miss nock throws a multi-line dump of the request including its
 * headers, i.e. the API key. Here the matching, the one-line miss error and the
 * scrubbing are ours, and the interceptor only patches fetch.
 *
 * All three SDKs (openai, exa-js, yahoo-finance2) call the global fetch (undici);
 * none uses node:http, so only fetch is intercepted.
 */
import type { HttpRequestEventMap } from '@mswjs/interceptors';
import { CassetteError } from '../errors.js';

export type RequestListener = (...args: HttpRequestEventMap['request']) => void | Promise<void>;
export type ResponseListener = (...args: HttpRequestEventMap['response']) => void | Promise<void>;

export type FetchInterception = { dispose(): void };

/** FetchInterceptor keeps its running instance under this global symbol. */
const RUNNING_INSTANCE = Symbol.for('fetch-interceptor');

type Interceptor = import('@mswjs/interceptors/fetch').FetchInterceptor;

/**
 * One interceptor per process, applied on first use and never restored. exa-js keeps
 * the global fetch it found when it was first imported; had each recording or replay
 * patched fetch anew and restored it after, a second run in the same process (the MCP
 * server, a queue worker, tests) would send Exa's requests through a dead patch. With
 * no listener attached, the patched fetch passes every request through untouched.
 */
let shared: Promise<Interceptor> | undefined;
let active = false;

async function sharedInterceptor(): Promise<Interceptor> {
  const { FetchInterceptor } = await import('@mswjs/interceptors/fetch');
  const interceptor = new FetchInterceptor();
  interceptor.apply();
  return interceptor;
}

export async function interceptFetch(listeners: {
  request?: RequestListener;
  response?: ResponseListener;
}): Promise<FetchInterception> {
  // Two recordings or replays at once would both answer every request.
  const foreign = shared === undefined && (globalThis as Record<symbol, unknown>)[RUNNING_INSTANCE] !== undefined;
  if (active || foreign) {
    throw new CassetteError('cannot start recording or replay: another recording or replay is already active');
  }
  active = true;
  let interceptor: Interceptor;
  try {
    interceptor = await (shared ??= sharedInterceptor());
  } catch (error) {
    active = false;
    shared = undefined;
    throw error;
  }
  if (listeners.request) interceptor.on('request', listeners.request);
  if (listeners.response) interceptor.on('response', listeners.response);
  let disposed = false;
  return {
    dispose: () => {
      if (disposed) return;
      disposed = true;
      if (listeners.request) interceptor.off('request', listeners.request);
      if (listeners.response) interceptor.off('response', listeners.response);
      active = false;
    },
  };
}
