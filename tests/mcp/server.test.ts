/**
 * `autohedge mcp` end to end: the SDK's own client over a spawned built CLI, a raw
 * JSON-RPC spawn for stdout hygiene, and process exit on stdin close and SIGTERM.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { binPath, ensureBuilt, repoRoot } from '../smoke/support.js';
import { agentOf, goodAnswer } from '../support/faults.js';
import { longBeforeTheHangEnds, neverEndsMs } from '../support/hang.js';
import { startOpenAIServer, type OpenAIServer } from '../support/openai-server.js';
import { isAlive } from './support.js';

const clients: Client[] = [];
const servers: OpenAIServer[] = [];

beforeAll(async () => {
  await ensureBuilt();
}, 180_000);

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close().catch(() => {})));
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

function freshHome(): string {
  return mkdtempSync(path.join(tmpdir(), 'autohedge-mcp-home-'));
}

const transports = new WeakMap<Client, StdioClientTransport>();

async function connect(args: string[], env: Record<string, string>, nodeArguments: string[] = []): Promise<Client> {
  const client = new Client({ name: 'autohedge-test', version: '1.0.0' });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...nodeArguments, binPath, 'mcp', ...args],
    env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', ...env },
    stderr: 'pipe',
  });
  await client.connect(transport);
  clients.push(client);
  transports.set(client, transport);
  return client;
}

const textOf = (result: { content?: unknown }) => (result.content as Array<{ text?: string }>)[0]?.text ?? '';

describe('autohedge mcp --demo with the SDK client', () => {
  it('lists its tools with input and output schemas and honest annotations', async () => {
    const client = await connect(['--demo'], { AUTOHEDGE_HOME: freshHome() });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['market', 'analyze', 'runs_list', 'run_get', 'evaluate']);
    const analyze = tools.find((tool) => tool.name === 'analyze')!;
    expect(Object.keys(analyze.inputSchema.properties ?? {})).toEqual([
      'ticker',
      'agents',
      'maxCostUsd',
      'blind',
      'samples',
      'minAgreement',
      'asOf',
    ]);
    expect(analyze.inputSchema.required).toEqual(['ticker']);
    expect(analyze.outputSchema?.properties).toHaveProperty('status');
    expect(analyze.description).toContain('$1 per call');
    for (const tool of tools) expect(tool.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(tools.find((tool) => tool.name === 'market')?.annotations?.openWorldHint).toBe(true);
  }, 30_000);

  it('serves market ACME, analyze ACME with progress per desk, NOPE as an isError line, and the saved run', async () => {
    const home = freshHome();
    const client = await connect(['--demo'], { AUTOHEDGE_HOME: home });
    const market = await client.callTool({ name: 'market', arguments: { ticker: 'ACME' } });
    expect(market.isError).toBeFalsy();
    // The fictional demo company is labelled as such on every surface, never as Yahoo data.
    expect(market.structuredContent).toMatchObject({ symbol: 'ACME', source: 'demo' });
    expect(textOf(market)).toMatch(
      /^DEMO — synthetic data, scripted analyses; not investment advice\n\nMARKET DATA — ACME/,
    );

    // Listed before any run is saved: the server's run index must still see the runs saved later.
    const none = await client.callTool({ name: 'runs_list', arguments: {} });
    expect(none.structuredContent).toEqual({ runs: [] });

    const progress: string[] = [];
    const analyzed = await client.callTool(
      { name: 'analyze', arguments: { ticker: 'ACME' } },
      { onprogress: (update) => progress.push(update.message ?? '') },
    );
    expect(analyzed.isError).toBeFalsy();
    const result = analyzed.structuredContent as {
      runId: string;
      status: string;
      decision: { action: string } | null;
      demo: boolean;
    };
    expect(result).toMatchObject({
      status: 'ok',
      demo: true,
      decision: { action: expect.stringMatching(/^(BUY|SELL|HOLD)$/) },
    });
    expect(textOf(analyzed)).toContain(`${result.decision?.action} with conviction`);
    for (const agent of ['director', 'quant', 'risk', 'execution', 'sentiment']) {
      expect(progress).toContain(`${agent}: running`);
      expect(progress).toContain(`${agent}: done`);
    }

    // Each call replays the cassette afresh: a second analysis in the same process is the same run.
    const again = await client.callTool({ name: 'analyze', arguments: { ticker: 'ACME' } });
    expect(again.structuredContent).toMatchObject({ status: 'ok', decision: result.decision });
    const sentiment = (
      again.structuredContent as { reports: Array<{ agent: string; toolCalls: Array<{ error: string | null }> }> }
    ).reports.find((report) => report.agent === 'sentiment');
    expect(sentiment?.toolCalls.length).toBeGreaterThan(0);
    expect(sentiment?.toolCalls.every((call) => call.error === null)).toBe(true);

    const nope = await client.callTool({ name: 'analyze', arguments: { ticker: 'NOPE' } });
    expect(nope.isError).toBe(true);
    expect(textOf(nope).split('\n')).toHaveLength(1);
    expect(textOf(nope)).toMatch(/^autohedge: this demo server covers ACME/);
    // An assistant cannot run a command: no CLI advice.
    expect(textOf(nope)).not.toMatch(/--demo|OPENAI_API_KEY|autohedge analyze/);
    const badAgent = await client.callTool({ name: 'analyze', arguments: { ticker: 'ACME', agents: ['intern'] } });
    expect(badAgent.isError).toBe(true);

    const listed = await client.callTool({ name: 'runs_list', arguments: {} });
    expect(
      (listed.structuredContent as { runs: Array<{ runId: string }> }).runs.map((run) => run.runId).sort(),
    ).toEqual([result.runId, (again.structuredContent as { runId: string }).runId].sort());

    // The cap: a call may ask for less than the server's $1, never more.
    const tooMuch = await client.callTool({ name: 'analyze', arguments: { ticker: 'ACME', maxCostUsd: 5 } });
    expect(tooMuch.isError).toBe(true);
    expect(textOf(tooMuch)).toMatch(/maxCostUsd/);
    const capped = await client.callTool({ name: 'analyze', arguments: { ticker: 'ACME', maxCostUsd: 0.000001 } });
    expect(capped.isError).toBeFalsy();
    expect(capped.structuredContent).toMatchObject({ status: 'degraded', decision: null });
    const fetched = await client.callTool({ name: 'run_get', arguments: { id: result.runId } });
    expect(fetched.structuredContent).toMatchObject({
      runId: result.runId,
      status: 'ok',
      autohedgeVersion: expect.any(String),
      options: { maxCostUsd: 1 },
    });
    // The same files as a run saved by the CLI.
    expect(readdirSync(path.join(home, 'runs', result.runId)).sort()).toEqual([
      'chart.svg',
      'report.html',
      'report.md',
      'result.json',
      'transcript.jsonl',
    ]);
    const missing = await client.callTool({ name: 'run_get', arguments: { id: 'no-such-run' } });
    expect(missing.isError).toBe(true);
  }, 60_000);
});

describe('autohedge mcp against a live (loopback) model', () => {
  const preload = pathToFileURL(path.join(repoRoot, 'tests', 'smoke', 'synthetic-yahoo.preload.mjs')).href;

  it('saves a cancelled analysis as interrupted', async () => {
    // The Director plans at once; the desks never answer, so the run is mid-flight when cancelled.
    const openai = await startOpenAIServer((body, _index, request) =>
      agentOf(request) === 'director' ? goodAnswer('director', body) : { hang: true },
    );
    servers.push(openai);
    const home = freshHome();
    const client = await connect(
      ['--base-url', openai.url],
      {
        AUTOHEDGE_HOME: home,
        OPENAI_API_KEY: 'sk-mcp-cancel-0123456789',
        YAHOO_STUB_COOKIE: 'A3=d=cookie-cancel',
        YAHOO_STUB_CRUMB: 'crumbCancel01',
      },
      ['--import', preload],
    );
    const controller = new AbortController();
    const progress: string[] = [];
    const call = client.callTool(
      { name: 'analyze', arguments: { ticker: 'ACME' } },
      {
        signal: controller.signal,
        onprogress: (update) => {
          progress.push(update.message ?? '');
          if (update.message === 'quant: running') controller.abort(new Error('the user changed their mind'));
        },
      },
    );
    await expect(call).rejects.toThrow();
    const deadline = Date.now() + 10_000;
    let runs: Array<{ status: string | null }> = [];
    // The run's directory can be listed a moment before its result.json is complete (state "partial").
    while (Date.now() < deadline && !runs[0]?.status) {
      runs = ((await client.callTool({ name: 'runs_list', arguments: {} })).structuredContent as { runs: typeof runs })
        .runs;
      if (!runs[0]?.status) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(runs).toMatchObject([{ status: 'interrupted' }]);
  }, 60_000);

  it('on SIGTERM mid-analysis exits long before the hanging desks would answer, and saves the run as interrupted', async () => {
    const openai = await startOpenAIServer((body, _index, request) =>
      agentOf(request) === 'director' ? goodAnswer('director', body) : { hang: true },
    );
    servers.push(openai);
    const home = freshHome();
    const client = await connect(
      ['--base-url', openai.url],
      {
        AUTOHEDGE_HOME: home,
        OPENAI_API_KEY: 'sk-mcp-sigterm-0123456789',
        YAHOO_STUB_COOKIE: 'A3=d=cookie-term',
        YAHOO_STUB_CRUMB: 'crumbTerm0001',
      },
      ['--import', preload],
    );
    const pid = transports.get(client)!.pid!;
    let running!: () => void;
    const deskRunning = new Promise<void>((resolve) => (running = resolve));
    const call = client.callTool(
      { name: 'analyze', arguments: { ticker: 'ACME' } },
      { onprogress: (update) => update.message === 'quant: running' && running() },
    );
    call.catch(() => {});
    await deskRunning;
    const signalledAt = performance.now();
    process.kill(pid, 'SIGTERM');
    // The desks' model never answers: only the signal can end this run.
    const bound = longBeforeTheHangEnds(neverEndsMs);
    while (isAlive(pid) && performance.now() - signalledAt < bound)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(performance.now() - signalledAt).toBeLessThan(bound);
    const [runId] = readdirSync(path.join(home, 'runs'));
    const saved = JSON.parse(readFileSync(path.join(home, 'runs', runId!, 'result.json'), 'utf8')) as {
      status: string;
    };
    expect(saved.status).toBe('interrupted');
  }, 90_000);
});

describe('autohedge mcp process hygiene', () => {
  let child: ChildProcess | undefined;
  let exitCode: number | null = null;
  afterEach(() => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
  });

  function spawnServer(): { child: ChildProcess; lines: () => string[]; exited: Promise<number> } {
    const spawned = spawn(process.execPath, [binPath, 'mcp', '--demo'], {
      env: { PATH: process.env.PATH ?? '', AUTOHEDGE_HOME: freshHome(), NO_COLOR: '1' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    child = spawned;
    let stdout = '';
    spawned.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    const exited = new Promise<number>((resolve) =>
      spawned.once('exit', (code) => {
        exitCode = code;
        resolve(performance.now());
      }),
    );
    return { child: spawned, lines: () => stdout.split('\n').filter((line) => line !== ''), exited };
  }

  const send = (target: ChildProcess, message: object) => target.stdin!.write(`${JSON.stringify(message)}\n`);

  async function untilAnswered(lines: () => string[], id: number): Promise<void> {
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      if (lines().some((line) => (JSON.parse(line) as { id?: number }).id === id)) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`no answer to request ${id}`);
  }

  it('writes only JSON-RPC 2.0 on stdout, and exits when stdin closes, long before a server that missed it would be killed', async () => {
    const server = spawnServer();
    send(server.child, {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    await untilAnswered(server.lines, 1);
    send(server.child, { jsonrpc: '2.0', method: 'notifications/initialized' });
    send(server.child, { jsonrpc: '2.0', id: 2, method: 'tools/list' });
    send(server.child, {
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: 'analyze', arguments: { ticker: 'ACME' }, _meta: { progressToken: 'p1' } },
    });
    send(server.child, {
      jsonrpc: '2.0',
      id: 4,
      method: 'tools/call',
      params: { name: 'market', arguments: { ticker: 'NOPE' } },
    });
    await untilAnswered(server.lines, 3);
    await untilAnswered(server.lines, 4);
    const messages = server.lines().map((line) => JSON.parse(line) as { jsonrpc: string; method?: string });
    expect(messages.length).toBeGreaterThan(5);
    for (const message of messages) expect(message.jsonrpc).toBe('2.0');
    expect(messages.filter((message) => message.method === 'notifications/progress').length).toBeGreaterThanOrEqual(10);

    // A server that outlived its client's stdin would stay up until killed.
    const closedAt = performance.now();
    server.child.stdin!.end();
    expect((await server.exited) - closedAt).toBeLessThan(longBeforeTheHangEnds(neverEndsMs));
    expect(exitCode).toBe(0);
  }, 90_000);

  it('exits on SIGTERM, long before a server that ignored it would be killed', async () => {
    const server = spawnServer();
    send(server.child, {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    await untilAnswered(server.lines, 1);
    const signalledAt = performance.now();
    server.child.kill('SIGTERM');
    expect((await server.exited) - signalledAt).toBeLessThan(longBeforeTheHangEnds(neverEndsMs));
    expect(exitCode).toBe(143);
  }, 90_000);
});
