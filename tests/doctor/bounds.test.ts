// doctor against servers that never finish an answer: a /models body sent a byte at a time,
// an endless one, a chat stream of keep-alive comments only. Each check has a total deadline
// (body included) and a size bound, so doctor reports them and ends, instead of reading for
// as long as the server likes. The bounds are shortened through CliDeps to keep this quick.
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import type { DoctorReport } from '../../src/doctor/types.js';
import { captureIo } from '../support/cli.js';
import { longBeforeTheHangEnds, neverEndsMs } from '../support/hang.js';
import { startServer, type LocalServer } from '../support/local-server.js';
import { fakeMarket } from '../support/market.js';

const servers: LocalServer[] = [];
const timers: NodeJS.Timeout[] = [];
afterEach(async () => {
  for (const timer of timers.splice(0)) clearInterval(timer);
  for (const server of servers.splice(0)) await server.close();
});

const bounds = { deadlineMs: 600, maxBytes: 200_000 };

function forever(response: ServerResponse, chunk: string, everyMs: number) {
  const timer = setInterval(() => {
    if (!response.destroyed) response.write(chunk);
  }, everyMs);
  timers.push(timer);
  response.on('close', () => clearInterval(timer));
}

async function doctorAgainst(handler: Parameters<typeof startServer>[0]) {
  const server = await startServer(handler);
  servers.push(server);
  const io = captureIo();
  const env = { ...io.env, OPENAI_API_KEY: 'sk-bounds-test-1234', OPENAI_BASE_URL: `${server.url}/v1` };
  const started = Date.now();
  const code = await runCli(
    ['doctor', '--json', '--search', 'none'],
    { ...io, env },
    { market: fakeMarket(), search: null, now: () => new Date('2026-11-28T12:00:00Z'), doctorBounds: bounds },
  );
  const report = JSON.parse(io.out()) as DoctorReport;
  const check = (id: string) => report.checks.find((item) => item.id === id);
  return { code, check, elapsedMs: Date.now() - started };
}

describe('doctor gives up on a server that trickles', () => {
  it('a /models body sent a byte at a time: the server check fails at the deadline', async () => {
    const { code, check, elapsedMs } = await doctorAgainst((request, _body, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"object":"list","data":[');
      forever(response, ' ', 20);
    });
    expect(check('server')?.status).toBe('fail');
    expect(check('server')?.detail).toContain('no complete answer within 0.6 s');
    expect(code).not.toBe(0);
    // Every later model check is skipped or fails on its own deadline, not read for ever.
    expect(elapsedMs).toBeLessThan(longBeforeTheHangEnds(neverEndsMs));
  }, 90_000);

  it('an endless /models body: cut off at the size bound, not read into memory', async () => {
    const { check } = await doctorAgainst((_request, _body, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"object":"list","data":[');
      forever(response, `${'{"id":"m","object":"model"},'.repeat(2000)}`, 1);
    });
    expect(check('server')?.status).toBe('fail');
    expect(check('server')?.detail).toContain('passed 200000 bytes and was cut off');
  });

  it('a chat stream of keep-alive comments only: the tool-call check gives up at the deadline', async () => {
    const { check, elapsedMs } = await doctorAgainst((request, _body, response) => {
      if (request.url?.endsWith('/models')) {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ object: 'list', data: [{ id: 'gpt-4.1', object: 'model' }] }));
        return;
      }
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      forever(response, ': keep-alive\n\n', 20);
    });
    expect(check('server')?.status).toBe('ok');
    // --search none: no agent has tools, so a tool failure is a warning (issue 46); the canary fails on its own.
    expect(check('tool-calls')?.status).toBe('warn');
    expect(check('tool-calls')?.detail).toContain('no complete answer within 0.6 s');
    expect(check('tool-calls')?.detail).toContain('no agent in this configuration has tools');
    expect(check('context')?.status).toBe('fail');
    expect(elapsedMs).toBeLessThan(longBeforeTheHangEnds(neverEndsMs));
  }, 90_000);
});
