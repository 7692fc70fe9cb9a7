// Delivery of a cycle's delta to a webhook on a loopback server, and to a JSONL file.
import { readFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { WatchReport } from '../../src/watch/delta.js';
import { deliver } from '../../src/watch/notify.js';
import { renderWatchText } from '../../src/watch/render.js';
import { longBeforeTheHangEnds, neverEndsMs } from '../support/hang.js';
import { startServer, type LocalServer } from '../support/local-server.js';

const servers: LocalServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

const secret = 'sk-live-notify-secret-7Qw2';
const report: WatchReport = {
  cycle: '2026-11-20T21:00:00.000Z@2026-12-01T12:00:00.000Z',
  asOf: '2026-11-20T21:00:00.000Z',
  historical: true,
  analysed: [
    {
      ticker: 'STOP',
      triggers: [{ name: 'stop-touched', detail: 'stop 94 touched on 2026-11-12 (low 93)' }],
      runId: 'run-1',
      previous: null,
      current: null,
      changes: ['action BUY → HOLD', `a desk quoted ${secret}`],
    },
  ],
  carried: [{ ticker: 'QA', ageSessions: 3, runId: 'run-0', action: 'BUY' }],
  skipped: [],
  unavailable: [],
  spend: { monthUsd: 0.21, budgetUsd: 5, worstCasePerRunUsd: 0.25 },
};

async function hook(statuses: number[], hang = false) {
  const bodies: string[] = [];
  const server = await startServer((_request, body, response) => {
    bodies.push(body);
    if (hang) return; // never answers
    response.writeHead(statuses.shift() ?? 200).end();
  });
  servers.push(server);
  return { server, bodies };
}

describe('watch --notify', () => {
  it('POSTs the delta as JSON with a plain text field; a 500 is retried once, then 200 ends it', async () => {
    const { server, bodies } = await hook([500, 200]);
    const [delivery] = await deliver(report, renderWatchText(report), {
      url: `${server.url}/hook`,
      secrets: [secret],
      backoffMs: 10,
    });
    expect(delivery).toMatchObject({ channel: 'webhook', ok: true, attempts: 2 });
    expect(bodies).toHaveLength(2);
    const payload = JSON.parse(bodies[1]!) as WatchReport & { text: string };
    expect(payload.analysed[0]!.ticker).toBe('STOP');
    expect(payload.text).toContain('STOP [stop-touched]: action BUY → HOLD');
    // No secret the session knows travels, in the JSON or the text.
    expect(bodies.join('')).not.toContain(secret);
  });

  it('a hanging server: each attempt ends at its deadline, the delivery is reported failed, nothing throws', async () => {
    const { server } = await hook([], true);
    const started = Date.now();
    const [delivery] = await deliver(report, 'text', {
      url: server.url,
      secrets: [],
      attempts: 2,
      backoffMs: 10,
      timeoutMs: 200,
    });
    expect(delivery).toMatchObject({
      channel: 'webhook',
      ok: false,
      attempts: 2,
      detail: 'not delivered: no answer in time',
    });
    // The server never answers: the deadlines, not the hang, ended the delivery.
    expect(Date.now() - started).toBeLessThan(longBeforeTheHangEnds(neverEndsMs));
  }, 90_000);

  it('a 4xx is not retried; --notify-file appends one JSON line per cycle', async () => {
    const { server, bodies } = await hook([404]);
    const file = join(mkdtempSync(join(tmpdir(), 'autohedge-notify-')), 'deltas.jsonl');
    const deliveries = await deliver(report, 'text', { url: server.url, file, secrets: [secret], backoffMs: 10 });
    expect(deliveries.map((item) => [item.channel, item.ok])).toEqual([
      ['file', true],
      ['webhook', false],
    ]);
    expect(bodies).toHaveLength(1);
    await deliver(report, 'text', { file, secrets: [secret] });
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(2);
    expect((JSON.parse(lines[0]!) as WatchReport).cycle).toBe(report.cycle);
    expect(lines.join('')).not.toContain(secret);
  });
});
