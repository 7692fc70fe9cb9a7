/**
 * fetch wrappers that fix what a streamed answer looks like before the SDK reads it:
 * a stream cut off mid-answer must fail (the SDK treats any end as complete), and a
 * whole `application/json` completion sent when a stream was asked (some proxies ignore
 * `stream: true`) is turned into the equivalent event stream instead of being lost.
 */

/** Raised inside the response body when an event stream closes before its answer ended. */
export class StreamEndedWithoutDone extends Error {
  constructor() {
    super('the event stream ended without data: [DONE]');
  }
}

/** SSE lines end in CRLF, LF or a lone CR (the spec allows all three). */
const lineBreak = /\r\n|\r|\n/;
const doneLine = /^data: ?\[DONE\]\s*$/;
/** A chunk that finishes a choice: the answer is complete even if [DONE] never comes. */
const finishedChoice = /"finish_reason"\s*:\s*"/;

/**
 * An event stream must end with `data: [DONE]`, or at least after a chunk with a
 * `finish_reason` (Cerebras, and routers in front of it, end without [DONE]); a stream
 * that closes before either is an answer cut short by a proxy or a crashed server.
 */
export function requireStreamEnd(inner: typeof fetch): typeof fetch {
  return async (input, init) => {
    const response = await inner(input, init);
    if (!response.body || !isEventStream(response)) return response;
    const decoder = new TextDecoder();
    let pending = '';
    let complete = false;
    const scan = (lines: string[]) => {
      for (const line of lines)
        if (doneLine.test(line) || (line.startsWith('data:') && finishedChoice.test(line))) complete = true;
    };
    const guarded = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(bytes, controller) {
          if (!complete) {
            const lines = (pending + decoder.decode(bytes, { stream: true })).split(lineBreak);
            pending = lines.pop() ?? '';
            scan(lines);
          }
          controller.enqueue(bytes);
        },
        flush(controller) {
          if (!complete) scan((pending + decoder.decode()).split(lineBreak));
          if (!complete) controller.error(new StreamEndedWithoutDone());
        },
      }),
    );
    return new Response(guarded, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

/**
 * When a stream was asked and the server answered 200 with one JSON completion, the
 * completion is re-sent as a single chunk plus [DONE], so the one assembly path reads it.
 */
export function acceptWholeCompletion(inner: typeof fetch): typeof fetch {
  return async (input, init) => {
    const response = await inner(input, init);
    if (!response.ok || isEventStream(response) || !isJson(response) || !askedForStream(init)) return response;
    const text = await response.text();
    const chunk = completionAsChunk(parseOrUndefined(text));
    const headers = new Headers(response.headers);
    headers.delete('content-length');
    if (!chunk) return new Response(text, { status: response.status, statusText: response.statusText, headers });
    headers.set('content-type', 'text/event-stream');
    const body = `data: ${JSON.stringify(chunk)}\n\ndata: [DONE]\n\n`;
    return new Response(body, { status: response.status, statusText: response.statusText, headers });
  };
}

interface WireCompletion {
  id?: unknown;
  created?: unknown;
  model?: unknown;
  usage?: unknown;
  choices?: Array<{ index?: unknown; finish_reason?: unknown; message?: Record<string, unknown> }>;
}

function completionAsChunk(value: unknown): object | undefined {
  const completion = value as WireCompletion | undefined;
  if (!completion || !Array.isArray(completion.choices) || completion.choices.length === 0) return undefined;
  const choices = completion.choices.map((choice, position) => {
    const message = choice.message ?? {};
    const calls = Array.isArray(message['tool_calls']) ? (message['tool_calls'] as object[]) : undefined;
    const delta = { ...message, ...(calls ? { tool_calls: calls.map((call, index) => ({ index, ...call })) } : {}) };
    return {
      index: typeof choice.index === 'number' ? choice.index : position,
      delta,
      finish_reason: choice.finish_reason ?? null,
    };
  });
  return {
    id: completion.id,
    object: 'chat.completion.chunk',
    created: completion.created,
    model: completion.model,
    choices,
    ...(completion.usage ? { usage: completion.usage } : {}),
  };
}

function isEventStream(response: Response): boolean {
  return (response.headers.get('content-type') ?? '').includes('text/event-stream');
}

function isJson(response: Response): boolean {
  return (response.headers.get('content-type') ?? '').includes('application/json');
}

function askedForStream(init: RequestInit | undefined): boolean {
  const body = init?.body;
  if (typeof body !== 'string') return false;
  const parsed = parseOrUndefined(body) as { stream?: unknown } | undefined;
  return parsed?.stream === true;
}

function parseOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
