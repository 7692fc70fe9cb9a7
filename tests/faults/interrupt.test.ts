// Interruption, on the built CLI as a user runs it: SIGINT (Ctrl-C), SIGTERM (`docker
// stop`, `timeout`, CI cancellation) or SIGHUP (a dropped ssh session) while three desks
// wait on the model aborts every in-flight request (the server sees each socket close),
// saves what finished with status "interrupted", and exits 130 / 143 / 129 long before the hang would
// end (the hang never does; how fast is `npm run bench`'s business, not a loaded machine's).
//
// The child gets its market data from a snapshot already in its $AUTOHEDGE_HOME cache
// (no network), and its model from the loopback OpenAI server through OPENAI_BASE_URL.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isoDay } from '../../src/clock.js';
import type { AnalysisResult } from '../../src/result/types.js';
import { makeSnapshot } from '../support/market.js';
import { agentOf, byAgent, expectNoCanary, openaiCanary, requestsOf, settle } from '../support/faults.js';
import { longBeforeTheHangEnds, neverEndsMs } from '../support/hang.js';
import { startOpenAIServer, type OpenAIServer } from '../support/openai-server.js';

const root = resolve(import.meta.dirname, '..', '..');
const built = existsSync(join(root, 'dist', 'src', 'cli', 'main.js'));
if (!built)
  console.warn('tests/faults/interrupt.test.ts: skipped — dist/ is missing; run `npm run build` first (npm test does)');

let server: OpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A fresh cache entry for today, in the format src/market/cache.ts reads. */
function seedMarketCache(home: string, now: Date): void {
  const directory = join(home, 'cache', 'market', 'ACME');
  mkdirSync(directory, { recursive: true });
  const snapshot = makeSnapshot('ACME', { asOf: now.toISOString(), source: 'yahoo' });
  writeFileSync(
    join(directory, `${isoDay(now)}.json`),
    JSON.stringify({ version: 2, savedAt: now.toISOString(), snapshot }),
  );
}

/** The hanging desks never answer (and the CLI's model timeout is two minutes): only the signal ends the run. */
const interruptBound = longBeforeTheHangEnds(neverEndsMs);

const signals = [
  { signal: 'SIGINT', exitCode: 130 },
  { signal: 'SIGTERM', exitCode: 143 },
  { signal: 'SIGHUP', exitCode: 129 },
] as const;

describe.skipIf(!built).each(signals)('$signal on the built CLI', ({ signal: sent, exitCode }) => {
  it(`during the fan-out: every in-flight request aborted, what finished saved as interrupted, exit ${exitCode} long before the hang would end`, async () => {
    // The Director plans and Sentiment answers at once; the three other desks wait forever.
    server = await startOpenAIServer(
      byAgent({ quant: [{ hang: true }], risk: [{ hang: true }], execution: [{ hang: true }] }),
    );
    const home = mkdtempSync(join(tmpdir(), 'autohedge-sigint-'));
    seedMarketCache(home, new Date());

    const child = spawn(process.execPath, [join(root, 'bin', 'autohedge.js'), 'analyze', 'ACME', '--json'], {
      cwd: mkdtempSync(join(tmpdir(), 'autohedge-cwd-')),
      env: {
        PATH: process.env.PATH,
        NO_COLOR: '1',
        AUTOHEDGE_HOME: home,
        OPENAI_API_KEY: openaiCanary,
        OPENAI_BASE_URL: server.url,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((done) =>
      child.on('exit', (code, signal) => done({ code, signal, at: Date.now() })),
    );

    try {
      const hanging = ['quant', 'risk', 'execution'];
      // Sentiment's own progress line says it finished; the three desks are waiting on the server.
      await settle(
        () =>
          hanging.every((agent) => requestsOf(server!, agent).length === 1) &&
          /^\[ACME\] sentiment: done/m.test(stderr),
        10_000,
      );
      expect(stderr).toMatch(/^\[ACME\] sentiment: done/m);
      expect(
        hanging.map((agent) => requestsOf(server!, agent).length),
        stderr,
      ).toEqual([1, 1, 1]);
      const interruptedAt = Date.now();
      child.kill(sent);
      const { code, signal, at } = await exited;

      expect({ code, signal }).toEqual({ code: exitCode, signal: null });
      expect(at - interruptedAt).toBeLessThan(interruptBound);
      // Each waiting request's socket was closed by the client, not left to time out.
      await settle(() => server!.requests.every((request) => request.answeredAt !== undefined));
      for (const request of server.requests) expect(request.answeredAt, agentOf(request)).toBeDefined();
      for (const agent of hanging)
        expect(requestsOf(server, agent)[0]!.answeredAt! - interruptedAt).toBeLessThan(interruptBound);

      const result = JSON.parse(stdout) as AnalysisResult;
      expect({ status: result.status, error: result.error, decision: result.decision }).toEqual({
        status: 'interrupted',
        error: 'interrupted',
        decision: null,
      });
      expect(result.reports.map((report) => [report.agent, report.status === 'ok' ? 'ok' : report.error])).toEqual([
        ['quant', 'interrupted'],
        ['risk', 'interrupted'],
        ['execution', 'interrupted'],
        ['sentiment', 'ok'],
      ]);
      expect(result.plan).not.toBeNull();
      expect(result.market?.source).toBe('cache');

      const runs = readdirSync(join(home, 'runs'));
      expect(runs).toEqual([result.runId]);
      const saved = JSON.parse(readFileSync(join(home, 'runs', result.runId, 'result.json'), 'utf8')) as AnalysisResult;
      expect(saved.status).toBe('interrupted');
      expect(saved.reports.find((report) => report.agent === 'sentiment')?.text).toBe(result.reports[3]?.text);

      expect(stderr).not.toMatch(/^\s+at /m);
      expectNoCanary(stdout, 'stdout');
      expectNoCanary(stderr, 'stderr');
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  }, 90_000);
});

describe.skipIf(!built)('SIGINT during a --demo replay (issue 44 item 4)', () => {
  it('stops the run where it is: saved as interrupted, nothing sealed as a decision, exit 130', async () => {
    const home = mkdtempSync(join(tmpdir(), 'autohedge-sigint-demo-'));
    const child = spawn(process.execPath, [join(root, 'bin', 'autohedge.js'), 'analyze', 'ACME', '--demo', '--json'], {
      cwd: mkdtempSync(join(tmpdir(), 'autohedge-cwd-')),
      env: { PATH: process.env.PATH, NO_COLOR: '1', AUTOHEDGE_HOME: home },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let sent = false;
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      // The desks are done and the Director decides: a replay answers at once, so the signal must still land.
      if (!sent && /quant: done/.test(stderr)) {
        sent = true;
        child.kill('SIGINT');
      }
    });
    const code = await new Promise<number | null>((done) => child.on('exit', (exitCode) => done(exitCode)));
    expect(sent).toBe(true);
    expect(code).toBe(130);
    const result = JSON.parse(stdout) as AnalysisResult;
    expect(result.status).toBe('interrupted');
    expect(result.decision).toBeNull();
    const [run] = readdirSync(join(home, 'runs'));
    const saved = JSON.parse(readFileSync(join(home, 'runs', run!, 'result.json'), 'utf8')) as AnalysisResult;
    expect(saved.status).toBe('interrupted');
    // Nothing sealed as a decision: an interrupted run is not a call.
    const ledger = join(home, 'ledger', 'demo', 'ledger.jsonl');
    const sealed = existsSync(ledger) ? readFileSync(ledger, 'utf8').split('\n').filter(Boolean) : [];
    expect(sealed.filter((line) => /"decision":\{/.test(line))).toEqual([]);
  }, 60_000);
});
