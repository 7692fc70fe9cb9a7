import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sitePaths } from './links.js';
import type { Site, SiteResponse } from './site.js';

/**
 * `autohedge view`'s server: Node's `http` and nothing else. GET and HEAD only (405
 * otherwise); a path is split into segments, each decoded once and refused when it is
 * empty, `.`/`..`, or holds a slash, a backslash or a NUL after decoding, before the
 * site sees it; every answer carries the reports' Content-Security-Policy, so a page
 * can load nothing and run no script. It serves what the site reads and writes nothing.
 */

export const contentSecurityPolicy = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";

const securityHeaders = {
  'Content-Security-Policy': contentSecurityPolicy,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
};

export const loopbackHosts = new Set(['127.0.0.1', 'localhost', '::1']);

/** The site path of a request's path, or null when it is malformed or tries to leave the site. */
export function sitePathOf(rawPath: string): string | null {
  if (!rawPath.startsWith('/')) return null;
  const raw = rawPath.slice(1);
  if (raw === '') return sitePaths.home;
  const segments: string[] = [];
  for (const encoded of raw.split('/')) {
    let segment: string;
    try {
      segment = decodeURIComponent(encoded);
    } catch {
      return null;
    }
    if (segment === '' || segment === '.' || segment === '..' || /[/\\\0]/.test(segment)) {
      // Only a trailing slash may leave an empty segment: a folder's index.
      if (segment === '' && segments.length === raw.split('/').length - 1) break;
      return null;
    }
    segments.push(segment);
  }
  const path = segments.join('/');
  return raw.endsWith('/') ? `${path}/index.html` : path;
}

function send(response: ServerResponse, head: boolean, answer: SiteResponse, extra: Record<string, string> = {}): void {
  const body = typeof answer.body === 'string' ? Buffer.from(answer.body, 'utf8') : answer.body;
  response.writeHead(answer.status, {
    ...securityHeaders,
    ...extra,
    'Content-Type': answer.type,
    'Content-Length': String(body.length),
  });
  response.end(head ? undefined : body);
}

const plain = 'text/plain; charset=utf-8';

async function handle(site: Site, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const method = request.method ?? '';
  if (method !== 'GET' && method !== 'HEAD') {
    send(
      response,
      false,
      { status: 405, type: plain, body: 'method not allowed: this view is read-only\n' },
      { Allow: 'GET, HEAD' },
    );
    return;
  }
  const head = method === 'HEAD';
  const target = request.url ?? '/';
  const queryAt = target.indexOf('?');
  const path = sitePathOf(queryAt === -1 ? target : target.slice(0, queryAt));
  if (path === null) {
    send(response, head, { status: 400, type: plain, body: 'bad path\n' });
    return;
  }
  const query = new URLSearchParams(queryAt === -1 ? '' : target.slice(queryAt + 1));
  try {
    send(response, head, await site.get(path, query));
  } catch {
    send(response, head, { status: 500, type: plain, body: 'this page could not be read\n' });
  }
}

export interface RunningServer {
  url: string;
  server: Server;
  close(): Promise<void>;
}

/** Listens on host:port (port 0: any free one) and resolves once it is bound. */
export async function startServer(site: Site, host: string, port: number): Promise<RunningServer> {
  const server = createServer((request, response) => {
    void handle(site, request, response);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shown}:${address.port}/`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
