/**
 * A plain HTTP server on 127.0.0.1 (port 0) answering with the test's own handler, for
 * tests that need a server of no particular vendor (an echo, a stream held open). It
 * counts TCP connections, so a test can prove that a replay never touched it.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type LocalServer = {
  url: string;
  /** TCP connections accepted so far. */
  readonly connections: number;
  /** Requests served so far, as `METHOD /path?query`. */
  readonly requests: readonly string[];
  close(): Promise<void>;
};

type Handler = (request: IncomingMessage, body: string, response: ServerResponse) => void | Promise<void>;

export async function startServer(handler: Handler): Promise<LocalServer> {
  let connections = 0;
  const requests: string[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      requests.push(`${request.method} ${request.url}`);
      Promise.resolve(handler(request, Buffer.concat(chunks).toString('utf8'), response)).catch((error: unknown) => {
        response.writeHead(500, { 'content-type': 'text/plain' });
        response.end(String(error));
      });
    });
  });
  server.on('connection', () => {
    connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get connections() {
      return connections;
    },
    get requests() {
      return [...requests];
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/** A port on 127.0.0.1 that nothing listens on: a real "connection refused". */
export async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** The base URL of a closed port (see closedPort). */
export async function closedPortURL(): Promise<string> {
  return `http://127.0.0.1:${await closedPort()}`;
}
