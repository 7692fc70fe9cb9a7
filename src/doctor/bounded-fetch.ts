/**
 * A fetch with a total deadline and a size bound, for doctor's checks of a server the user
 * is not sure of. The SDK's own timeout ends when the headers arrive: a `/models` body sent
 * a byte at a time, an endless one, or a chat stream of keep-alive comments would hold
 * doctor (and its memory) for as long as the server likes. Here the deadline covers the
 * whole exchange, body included, and the body stops at `maxBytes`.
 */

export interface FetchBounds {
  /** The whole exchange, from the request to the body's last byte. */
  deadlineMs: number;
  maxBytes: number;
}

/** The answer was cut: too slow or too large. Its message is the check's line. */
export class BoundExceededError extends Error {
  override name = 'BoundExceededError';
}

export function boundedFetch(bounds: FetchBounds, base?: typeof fetch): typeof fetch {
  // Late-bound: a recorder or replay installed after this point still sees the call.
  const inner: typeof fetch = base ?? ((input, init) => globalThis.fetch(input, init));
  return async (input, init) => {
    const deadline = new AbortController();
    const reason = new BoundExceededError(`no complete answer within ${seconds(bounds.deadlineMs)}`);
    const timer = setTimeout(() => deadline.abort(reason), bounds.deadlineMs);
    timer.unref?.();
    const signal = init?.signal ? AbortSignal.any([init.signal, deadline.signal]) : deadline.signal;
    try {
      const response = await inner(input, { ...init, signal });
      if (!response.body) {
        clearTimeout(timer);
        return response;
      }
      const body = response.body.pipeThrough(limitBytes(bounds.maxBytes, () => clearTimeout(timer)));
      return new Response(body, {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
    } catch (error) {
      clearTimeout(timer);
      throw deadline.signal.aborted ? reason : error;
    }
  };
}

function limitBytes(maxBytes: number, onEnd: () => void): TransformStream<Uint8Array, Uint8Array> {
  let received = 0;
  return new TransformStream({
    transform(chunk, controller) {
      received += chunk.byteLength;
      if (received > maxBytes) {
        onEnd();
        controller.error(new BoundExceededError(`the answer passed ${megabytes(maxBytes)} and was cut off`));
        return;
      }
      controller.enqueue(chunk);
    },
    flush: onEnd,
  });
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}

function megabytes(bytes: number): string {
  return bytes >= 1_000_000 ? `${Math.round(bytes / 1_000_000)} MB` : `${bytes} bytes`;
}
