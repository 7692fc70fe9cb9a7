import { request } from 'node:http';
import { expect } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import type { CapturedIo } from '../support/cli.js';

/** `autohedge view` started in-process on a free port, and raw HTTP requests to it (paths sent as written). */

export interface Served {
  url: string;
  io: CapturedIo;
  stop(): Promise<number>;
}

export async function serve(io: CapturedIo, flags: string[] = []): Promise<Served> {
  const controller = new AbortController();
  const captured: CapturedIo = { ...io, signal: controller.signal };
  const done = runCli(['view', '--port', '0', ...flags], captured);
  const started = Date.now();
  while (!/^http:\/\/\S+\n/.test(captured.out())) {
    if (Date.now() - started > 20_000) throw new Error(`view did not start: ${captured.err()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const url = captured.out().trim();
  return {
    url,
    io: captured,
    stop: async () => {
      controller.abort();
      return done;
    },
  };
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export function fetchRaw(base: string, path: string, method = 'GET'): Promise<Answer> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const outgoing = request({ hostname, port, path, method }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

export function expectPage(answer: Answer, path: string): void {
  expect(answer.status, `${path}: ${answer.body.slice(0, 200)}`).toBe(200);
}
