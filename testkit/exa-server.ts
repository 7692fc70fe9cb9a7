import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A loopback stand-in for api.exa.ai: records every request exactly as it arrived
 * and answers with whatever the test told it to. Real HTTP on 127.0.0.1, so the
 * real exa-js client (and its captured global fetch) is exercised end to end.
 */

export interface ExaStubRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The raw body text as sent. */
  rawBody: string;
  /** The body parsed as JSON, or undefined when it was not JSON. */
  body: unknown;
}

export type ExaStubReply =
  /** Answer with this status and body; an object body is sent as JSON. */
  | { status?: number; body: string | object; contentType?: string; headers?: Record<string, string> }
  /** Accept the request and never answer (until the stub closes). */
  | { hang: true };

export type ExaStubResponder = ExaStubReply | ((request: ExaStubRequest) => ExaStubReply);

export interface ExaStub {
  /** Pass to `new Exa(key, baseURL)` / `createExaProvider({ baseURL })`. */
  baseURL: string;
  requests: ExaStubRequest[];
  /** TCP connections accepted so far (a replay must open none). */
  readonly connections: number;
  /** Set how every following request is answered. Default: 200 with no results. */
  respond(responder: ExaStubResponder): void;
  /** Resolves once `count` requests have fully arrived. */
  waitForRequests(count: number): Promise<void>;
  /** Closes the listener and destroys open connections (so hanging requests end). */
  close(): Promise<void>;
}

export const emptySearchResponse = { requestId: 'stub', resolvedSearchType: 'neural', results: [] };

/** One result whose title names the query ("About NVDA news"), so each search has its own recognisable answer. */
export const resultNamingTheQuery: ExaStubResponder = (request) => {
  const query = (request.body as { query?: unknown } | undefined)?.query;
  return {
    body: {
      requestId: 'b5947044c4b78efa9552a7c89b306d95',
      resolvedSearchType: 'neural',
      results: [
        {
          id: 'https://example.com/a',
          url: 'https://example.com/a',
          title: `About ${String(query)}`,
          publishedDate: '2026-01-02T00:00:00.000Z',
          author: null,
          text: 'Synthetic page.',
        },
      ],
      costDollars: { total: 0.005 },
    },
  };
};

export async function startExaStub(initial: ExaStubResponder = { body: emptySearchResponse }): Promise<ExaStub> {
  let responder: ExaStubResponder = initial;
  const requests: ExaStubRequest[] = [];
  const sockets = new Set<Socket>();
  let connections = 0;
  const waiters: Array<{ count: number; resolve: () => void }> = [];

  const server: Server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      const request: ExaStubRequest = {
        method: incoming.method ?? '',
        path: incoming.url ?? '',
        headers: incoming.headers,
        rawBody,
        body: parseJson(rawBody),
      };
      requests.push(request);
      for (const waiter of waiters.filter((candidate) => requests.length >= candidate.count)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
      const reply = typeof responder === 'function' ? responder(request) : responder;
      send(response, reply);
    });
  });
  server.on('connection', (socket: Socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseURL: `http://127.0.0.1:${port}`,
    requests,
    get connections() {
      return connections;
    },
    respond(next) {
      responder = next;
    },
    waitForRequests(count) {
      if (requests.length >= count) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ count, resolve }));
    },
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}

function send(response: ServerResponse, reply: ExaStubReply): void {
  if ('hang' in reply) return;
  const body = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
  const contentType = reply.contentType ?? (typeof reply.body === 'string' ? 'text/plain' : 'application/json');
  response.writeHead(reply.status ?? 200, { 'content-type': contentType, ...reply.headers });
  response.end(body);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
