// Issue 47 item 7: a process that has nothing left to do but a webhook's retry must not exit
// during the back-off. Before, the back-off timer was unref'd: one POST, no warning, exit 0.
// The built `deliver` runs in a child process of its own, as in `watch --once`, against a
// loopback hook that fails twice and then answers 200.
import { spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type LocalServer } from '../support/local-server.js';
import { ensureBuilt, repoRoot } from './support.js';

let server: LocalServer;
const statuses = [500, 503, 200];
let posts = 0;

beforeAll(async () => {
  await ensureBuilt();
  server = await startServer((_request, _body, response) => {
    posts += 1;
    response.writeHead(statuses.shift() ?? 200).end();
  });
}, 240_000);
afterAll(async () => {
  await server?.close();
});

describe('a webhook delivery in a process with nothing else to do', () => {
  it('keeps the process alive through every retry, and reports the outcome', async () => {
    const notify = pathToFileURL(path.join(repoRoot, 'dist', 'src', 'watch', 'notify.js')).href;
    const script = `
      const { deliver } = await import(${JSON.stringify(notify)});
      const report = { cycle: 'c', asOf: '2026-11-20T21:00:00.000Z', historical: true, analysed: [], carried: [], skipped: [], unavailable: [], spend: { monthUsd: 0, budgetUsd: 1, worstCasePerRunUsd: 0.1 } };
      const [delivery] = await deliver(report, 'text', { url: ${JSON.stringify(server.url)}, secrets: [], backoffMs: 200 });
      process.stdout.write(JSON.stringify(delivery));
    `;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(0);
    expect(posts).toBe(3);
    expect(JSON.parse(stdout)).toMatchObject({ channel: 'webhook', ok: true, attempts: 3 });
  }, 60_000);
});
