import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { captureIo } from '../support/cli.js';
import { longBeforeTheHangEnds, neverEndsMs } from '../support/hang.js';

// A server that accepts every connection and never answers.
let server: Server;
let baseUrl: string;
beforeAll(async () => {
  server = createServer(() => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('autohedge doctor interrupted', () => {
  it('ends at once on Ctrl-C while a server hangs: exit 130, one line', async () => {
    const controller = new AbortController();
    const io = captureIo({ signal: controller.signal });
    io.env.OPENAI_API_KEY = 'sk-doctor-interrupt-0000';
    const started = Date.now();
    setTimeout(() => controller.abort(), 300);
    const code = await runCli(['doctor', '--base-url', baseUrl], io);
    expect(code).toBe(130);
    // The server never answers (and doctor would give a loopback server minutes): only Ctrl-C ends this.
    expect(Date.now() - started).toBeLessThan(longBeforeTheHangEnds(neverEndsMs));
    expect(io.err()).toContain('autohedge: doctor interrupted\n');
  }, 90_000);
});
