/**
 * A scripted OpenAI-compatible server on 127.0.0.1 (port 0) for tests that drive the
 * real `openai` SDK over real HTTP: `POST /v1/chat/completions` (and `/chat/completions`).
 *
 * The script is a queue of replies consumed in arrival order, or a handler that picks
 * the reply from the request (so concurrent agents can be answered by who is asking).
 * Every request is recorded with its headers, parsed body, and arrival / answer times.
 *
 *   const server = await startOpenAIServer([textAnswer('hello')]);
 *   createOpenAIModel({ baseURL: server.url, apiKey: 'sk-test' });
 *   ...
 *   await server.close();
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  cached_tokens?: number;
}

/** A model answer described once; the server sends it streamed or whole, as the request asks. */
export interface Answer {
  text?: string | null;
  toolCalls?: Array<{ id?: string; name: string; arguments: string | Record<string, unknown> }>;
  refusal?: string;
  /** Sent as `reasoning_content` deltas, the way DeepSeek and vLLM do. */
  reasoning?: string;
  finishReason?: 'stop' | 'tool_calls' | 'length' | 'content_filter';
  usage?: Usage;
  /** The model the server claims answered; defaults to the requested model. */
  model?: string;
  /** How many pieces text and each tool call's arguments are split into when streamed. */
  pieces?: number;
  /** The completion id; defaults to `chatcmpl-test`. */
  id?: string;
}

interface Timing {
  /** Wait this long before sending the status line. */
  delayMs?: number;
}

export type Reply =
  | ({ answer: Answer; chunkDelayMs?: number; headers?: Record<string, string> } & Timing)
  | ({ json: unknown; status?: number; headers?: Record<string, string>; destroyAfterBytes?: number } & Timing)
  | ({ text: string; status: number; headers?: Record<string, string> } & Timing)
  | ({ sse: string; status?: number; headers?: Record<string, string>; destroyAfterBytes?: number } & Timing)
  | ({
      chunks: object[];
      /** Leave out the final `data: [DONE]`. */
      omitDone?: boolean;
      /** Destroy the socket after sending this many chunks (a connection dropped mid-stream). */
      cutAfterChunks?: number;
      /** Stop sending, but keep the connection open, after this many chunks. */
      stallAfterChunks?: number;
      chunkDelayMs?: number;
      headers?: Record<string, string>;
    } & Timing)
  /** Never answer: no status line, no body, until the client gives up or the server closes. */
  | { hang: true };

export interface RecordedRequest {
  index: number;
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body, or the raw text when it is not JSON. */
  body: any;
  rawBody: string;
  /** Date.now() when the body had fully arrived. */
  receivedAt: number;
  /** Date.now() when the reply ended (sent in full, cut, or abandoned by the client). */
  answeredAt?: number;
}

export type ReplyHandler = (body: any, index: number, request: RecordedRequest) => Reply | Promise<Reply>;

export interface OpenAIServer {
  /** Base URL including `/v1`, ready for `baseURL`. */
  readonly url: string;
  readonly origin: string;
  readonly requests: RecordedRequest[];
  /**
   * GETs of a local engine's sign routes (`/props`, `/api/version`, `/version`, `/api/v0/models`,
   * `/api/ps`): autohedge's engine detection, kept apart from the conversation in `requests`.
   */
  readonly signRequests: RecordedRequest[];
  /** TCP connections accepted so far (a replay must open none). */
  readonly connections: number;
  /** Replies still queued (always 0 for a handler script). */
  remaining(): number;
  close(): Promise<void>;
}

/** The routes autohedge's engine detection asks (src/llm/engine.ts). */
const engineSignPaths = new Set(['/props', '/api/version', '/version', '/api/v0/models', '/api/ps']);

const noReplyLeft = (index: number) => ({
  status: 400,
  headers: { 'x-should-retry': 'false' },
  json: {
    error: {
      message: `openai-server: no scripted reply left for request ${index + 1}`,
      type: 'test_script_error',
      code: null,
      param: null,
    },
  },
});

export interface OpenAIServerOptions {
  /** Serve `GET /v1/models` listing these ids; without it the route is a 404, as on servers that have none. */
  models?: string[];
  /** Answer `GET /v1/models` with this status and an OpenAI error body instead (e.g. 401). */
  modelsStatus?: number;
  /** Other GET routes answered with this JSON (a local engine's signs: `/props`, `/api/version`, ...). */
  routes?: Record<string, unknown>;
}

export async function startOpenAIServer(
  script: Reply[] | ReplyHandler,
  options: OpenAIServerOptions = {},
): Promise<OpenAIServer> {
  const queue = Array.isArray(script) ? [...script] : null;
  const requests: RecordedRequest[] = [];
  const signRequests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const pendingTimers = new Set<NodeJS.Timeout>();
  let closing = false;
  let connections = 0;

  const wait = (ms: number) =>
    new Promise<void>((resolve) => {
      if (ms <= 0) return resolve();
      const timer = setTimeout(() => {
        pendingTimers.delete(timer);
        resolve();
      }, ms);
      pendingTimers.add(timer);
    });

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) {
        response.writeHead(500, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: { message: `openai-server: ${String(error)}` } }));
      } else {
        response.destroy();
      }
    });
  });
  server.on('connection', (socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const rawBody = await readBody(request);
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    const recorded: RecordedRequest = {
      index: requests.length,
      method: request.method ?? 'GET',
      path,
      headers: request.headers,
      body: parseJson(rawBody),
      rawBody,
      receivedAt: Date.now(),
    };
    const sign = request.method === 'GET' && engineSignPaths.has(path);
    if (sign) signRequests.push({ ...recorded, index: signRequests.length });
    else requests.push(recorded);
    response.on('close', () => {
      recorded.answeredAt = Date.now();
    });

    if (
      request.method === 'GET' &&
      (path === '/v1/models' || path === '/models') &&
      (options.models || options.modelsStatus)
    ) {
      if (options.modelsStatus) {
        sendJson(
          response,
          options.modelsStatus,
          {
            error: {
              message: `openai-server: models answered ${options.modelsStatus}`,
              type: 'invalid_request_error',
              code: null,
              param: null,
            },
          },
          {},
        );
        return;
      }
      sendJson(
        response,
        200,
        {
          object: 'list',
          data: (options.models ?? []).map((id) => ({ id, object: 'model', created, owned_by: 'test' })),
        },
        {},
      );
      return;
    }
    if (request.method === 'GET' && options.routes && Object.hasOwn(options.routes, path)) {
      sendJson(response, 200, options.routes[path], {});
      return;
    }
    if (request.method !== 'POST' || (path !== '/v1/chat/completions' && path !== '/chat/completions')) {
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          error: { message: `openai-server: no route ${request.method} ${path}`, type: 'invalid_request_error' },
        }),
      );
      return;
    }

    let reply: Reply;
    if (queue) reply = queue.shift() ?? noReplyLeft(recorded.index);
    else reply = await (script as ReplyHandler)(recorded.body, recorded.index, recorded);

    if ('hang' in reply) return;
    if (reply.delayMs) await wait(reply.delayMs);
    if (closing || response.destroyed) return;

    if ('answer' in reply) {
      const streamed = recorded.body?.stream === true;
      const model = reply.answer.model ?? recorded.body?.model ?? 'gpt-test';
      if (streamed) {
        await sendChunks(response, answerChunks({ ...reply.answer, model }), {
          chunkDelayMs: reply.chunkDelayMs,
          headers: reply.headers,
        });
      } else {
        sendJson(response, 200, answerCompletion({ ...reply.answer, model }), reply.headers ?? {});
      }
      return;
    }
    if ('json' in reply) {
      const text = JSON.stringify(reply.json);
      if (reply.destroyAfterBytes !== undefined)
        return sendCut(response, reply.status ?? 200, 'application/json', text, reply.destroyAfterBytes, reply.headers);
      sendJson(response, reply.status ?? 200, reply.json, reply.headers ?? {});
      return;
    }
    if ('text' in reply) {
      response.writeHead(reply.status, { 'content-type': 'text/plain', ...reply.headers });
      response.end(reply.text);
      return;
    }
    if ('sse' in reply) {
      if (reply.destroyAfterBytes !== undefined)
        return sendCut(
          response,
          reply.status ?? 200,
          'text/event-stream',
          reply.sse,
          reply.destroyAfterBytes,
          reply.headers,
        );
      response.writeHead(reply.status ?? 200, { ...sseHeaders, ...reply.headers });
      response.end(reply.sse);
      return;
    }
    await sendChunks(response, reply.chunks, reply);
  }

  async function sendChunks(
    response: ServerResponse,
    chunks: object[],
    options: {
      omitDone?: boolean;
      cutAfterChunks?: number;
      stallAfterChunks?: number;
      chunkDelayMs?: number | undefined;
      headers?: Record<string, string>;
    },
  ): Promise<void> {
    response.writeHead(200, { ...sseHeaders, ...options.headers });
    response.flushHeaders();
    for (const [index, chunk] of chunks.entries()) {
      if (options.cutAfterChunks === index) {
        response.socket?.destroy();
        return;
      }
      if (options.stallAfterChunks === index) return;
      if (index > 0 && options.chunkDelayMs) await wait(options.chunkDelayMs);
      if (closing || response.destroyed) return;
      await write(response, `data: ${JSON.stringify(chunk)}\n\n`);
    }
    if (options.cutAfterChunks !== undefined && options.cutAfterChunks >= chunks.length) {
      response.socket?.destroy();
      return;
    }
    if (options.stallAfterChunks !== undefined && options.stallAfterChunks >= chunks.length) return;
    response.end(options.omitDone ? '' : 'data: [DONE]\n\n');
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;

  return {
    url: `${origin}/v1`,
    origin,
    requests,
    signRequests,
    get connections() {
      return connections;
    },
    remaining: () => queue?.length ?? 0,
    async close() {
      closing = true;
      for (const timer of pendingTimers) clearTimeout(timer);
      pendingTimers.clear();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}

const sseHeaders = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  connection: 'keep-alive',
};

function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string>): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}

/** Declares the full length, sends only the first bytes, then drops the connection. */
function sendCut(
  response: ServerResponse,
  status: number,
  contentType: string,
  text: string,
  bytes: number,
  headers: Record<string, string> = {},
): void {
  const body = Buffer.from(text);
  response.writeHead(status, { 'content-type': contentType, 'content-length': String(body.length), ...headers });
  response.write(body.subarray(0, bytes), () => response.socket?.destroy());
}

/** Resolves once the bytes are handed to the socket, so a cut that follows does not swallow them. */
function write(response: ServerResponse, text: string): Promise<void> {
  return new Promise((resolve) => {
    response.write(text, () => resolve());
  });
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    request.on('data', (part: Buffer) => parts.push(part));
    request.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    request.on('error', reject);
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

// ---- answers ---------------------------------------------------------------------------

const created = 1_767_225_600; // 2026-01-01T00:00:00Z, fixed so bodies are stable

/** How a helper-built reply is paced: before the status line, and between streamed chunks. */
export interface Pacing {
  delayMs?: number;
  chunkDelayMs?: number;
}

/** A text answer, streamed or whole as the request asks. */
export function textAnswer(text: string, options: Omit<Answer, 'text'> & Pacing = {}): Reply {
  const { delayMs, chunkDelayMs, ...answer } = options;
  return { answer: { text, ...answer }, ...paced({ delayMs, chunkDelayMs }) };
}

/** A tool-call answer (finish_reason tool_calls), streamed or whole as the request asks. */
export function toolCallAnswer(
  calls: NonNullable<Answer['toolCalls']>,
  options: Omit<Answer, 'toolCalls'> & Pacing = {},
): Reply {
  const { delayMs, chunkDelayMs, ...answer } = options;
  return { answer: { toolCalls: calls, ...answer }, ...paced({ delayMs, chunkDelayMs }) };
}

function paced(pacing: Pacing): Pacing {
  return {
    ...(pacing.delayMs !== undefined ? { delayMs: pacing.delayMs } : {}),
    ...(pacing.chunkDelayMs !== undefined ? { chunkDelayMs: pacing.chunkDelayMs } : {}),
  };
}

function resolvedCalls(answer: Answer) {
  return (answer.toolCalls ?? []).map((call, index) => ({
    id: call.id ?? `call_${index + 1}`,
    name: call.name,
    arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
  }));
}

function finishReasonOf(answer: Answer): string {
  return answer.finishReason ?? (answer.toolCalls?.length ? 'tool_calls' : 'stop');
}

function wireUsage(usage: Usage = { prompt_tokens: 100, completion_tokens: 20 }) {
  return {
    prompt_tokens: usage.prompt_tokens,
    completion_tokens: usage.completion_tokens,
    total_tokens: usage.prompt_tokens + usage.completion_tokens,
    prompt_tokens_details: { cached_tokens: usage.cached_tokens ?? 0, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: 0,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

/** Splits text into `count` roughly equal pieces (never empty pieces, at least one). */
export function splitInto(text: string, count: number): string[] {
  if (text.length === 0) return [''];
  const size = Math.max(1, Math.ceil(text.length / Math.max(1, count)));
  const pieces: string[] = [];
  for (let start = 0; start < text.length; start += size) pieces.push(text.slice(start, start + size));
  return pieces;
}

/** The non-streamed `chat.completion` body for an answer. */
export function answerCompletion(answer: Answer & { model: string }): object {
  const calls = resolvedCalls(answer);
  return {
    id: answer.id ?? 'chatcmpl-test',
    object: 'chat.completion',
    created,
    model: answer.model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: answer.text ?? null,
          refusal: answer.refusal ?? null,
          ...(answer.reasoning !== undefined ? { reasoning_content: answer.reasoning } : {}),
          ...(calls.length
            ? {
                tool_calls: calls.map((call) => ({
                  id: call.id,
                  type: 'function',
                  function: { name: call.name, arguments: call.arguments },
                })),
              }
            : {}),
          annotations: [],
        },
        logprobs: null,
        finish_reason: finishReasonOf(answer),
      },
    ],
    usage: wireUsage(answer.usage),
    service_tier: 'default',
    system_fingerprint: 'fp_test',
  };
}

/**
 * The `chat.completion.chunk` sequence OpenAI streams for an answer, shaped like the
 * recorded traffic: a role chunk, content / reasoning / tool-call deltas (the first
 * delta of a call carries id, type, name and empty arguments; later ones carry only
 * index + argument fragments), a finish chunk, and the `choices: []` usage chunk.
 */
export function answerChunks(answer: Answer & { model: string }): object[] {
  const pieces = answer.pieces ?? 3;
  const base = {
    id: answer.id ?? 'chatcmpl-test',
    object: 'chat.completion.chunk',
    created,
    model: answer.model,
    service_tier: 'default',
    system_fingerprint: 'fp_test',
  };
  const chunk = (delta: object, finishReason: string | null = null) => ({
    ...base,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    usage: null,
  });
  const chunks: object[] = [
    chunk({ role: 'assistant', content: answer.toolCalls?.length && !answer.text ? null : '', refusal: null }),
  ];
  if (answer.reasoning)
    for (const piece of splitInto(answer.reasoning, pieces)) chunks.push(chunk({ reasoning_content: piece }));
  if (answer.text) for (const piece of splitInto(answer.text, pieces)) chunks.push(chunk({ content: piece }));
  if (answer.refusal) for (const piece of splitInto(answer.refusal, pieces)) chunks.push(chunk({ refusal: piece }));
  for (const [index, call] of resolvedCalls(answer).entries()) {
    chunks.push(
      chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] }),
    );
    for (const piece of splitInto(call.arguments, pieces))
      chunks.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
  }
  chunks.push(chunk({}, finishReasonOf(answer)));
  chunks.push({ ...base, choices: [], usage: wireUsage(answer.usage) });
  return chunks;
}

/** A streamed answer's full SSE text, as `{ sse }` would send it. */
export function answerSse(answer: Answer & { model: string }): string {
  return (
    answerChunks(answer)
      .map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`)
      .join('') + 'data: [DONE]\n\n'
  );
}

/** An OpenAI error reply: `{ error: { message, type, code, param } }` with a status. */
export function errorReply(
  status: number,
  error: { message: string; type?: string; code?: string | null },
  headers: Record<string, string> = {},
): Reply {
  return {
    status,
    headers,
    json: {
      error: {
        message: error.message,
        type: error.type ?? 'invalid_request_error',
        param: null,
        code: error.code ?? null,
      },
    },
  };
}

// ---- an echo model ---------------------------------------------------------------------

type EchoBody = { model: string; stream?: boolean; messages: Array<{ role: string; content: string }> };

/** The echo model's answer: the last message, so each request has its own recognisable answer. */
export function echoText(body: EchoBody): string {
  return `echo: ${body.messages.at(-1)?.content ?? ''}`;
}

/**
 * A model that echoes, for the cassette tests: every answer has its own id (chatcmpl-1, -2, …
 * in arrival order) and x-request-id; streamed 20 ms apart when asked (with an
 * openai-organization header a cassette must scrub), else pretty-printed JSON, as OpenAI
 * sends it, so a cassette must keep the exact bytes. `delayFor` makes some answers slower.
 */
export function startEchoServer(options: { delayFor?: (body: EchoBody) => number } = {}): Promise<OpenAIServer> {
  return startOpenAIServer((body: EchoBody, index) => {
    const answer = {
      text: echoText(body),
      id: `chatcmpl-${index + 1}`,
      model: body.model,
      usage: { prompt_tokens: 7, completion_tokens: 3 },
    };
    const delayMs = options.delayFor?.(body) ?? 0;
    const headers = { 'x-request-id': `req_${index + 1}` };
    if (body.stream)
      return {
        answer,
        delayMs,
        chunkDelayMs: 20,
        headers: { ...headers, 'openai-organization': 'org-canaryorganisation' },
      };
    return {
      text: JSON.stringify(answerCompletion(answer), null, 2),
      status: 200,
      delayMs,
      headers: { ...headers, 'content-type': 'application/json' },
    };
  });
}
