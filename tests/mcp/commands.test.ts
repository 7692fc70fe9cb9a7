/**
 * `tools`, `agents` and `analyze` with --mcp-config as a user runs them: listing,
 * the allow-list, AUTOHEDGE_MCP_CONFIG, no implicit .mcp.json, and no child left
 * behind after Ctrl-C.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { binPath, ensureBuilt, repoRoot } from '../smoke/support.js';
import { captureIo } from '../support/cli.js';
import { fakeMarket } from '../support/market.js';
import { ScriptedModel } from '../../src/testing/scripted-model.js';
import { agentOf, goodAnswer } from '../support/faults.js';
import { startOpenAIServer } from '../support/openai-server.js';
import { fixtureServer, longToolName, waitUntilGone, writeConfig } from './support.js';

const config = () =>
  writeConfig({
    mcpServers: {
      fixture: {
        command: process.execPath,
        args: [fixtureServer],
        autohedge: { agents: { quant: ['get.quote', 'pair'], risk: ['get.quote'], execution: [longToolName] } },
      },
    },
  });

describe('autohedge tools / agents --mcp-config', () => {
  it('lists every definition each agent would send, MCP ones with their agents, server and strict flag', async () => {
    const io = captureIo();
    expect(await runCli(['tools', '--json', '--mcp-config', config()], io)).toBe(0);
    const listing = JSON.parse(io.out()) as Array<{
      name: string;
      agents: string[];
      strict: boolean;
      server?: string;
      nonStrictReason?: string | null;
    }>;
    expect(listing.map((entry) => entry.name).slice(0, 3)).toEqual([
      'exa_search',
      'fixture__get_quote',
      'fixture__pair',
    ]);
    expect(listing.find((entry) => entry.name === 'fixture__get_quote')).toMatchObject({
      agents: ['quant', 'risk'],
      strict: true,
      server: 'fixture',
      nonStrictReason: null,
    });
    expect(listing.find((entry) => entry.name === 'fixture__pair')).toMatchObject({
      agents: ['quant'],
      strict: false,
      nonStrictReason: expect.stringContaining('prefixItems'),
    });

    const text = captureIo();
    expect(await runCli(['tools', '--mcp-config', config()], text)).toBe(0);
    expect(text.out()).toMatch(
      /^fixture__get_quote +quant, risk +ticker, days\?, currency\? +Last price of a ticker \(fixture data\)\.$/m,
    );
    expect(text.out()).toMatch(/^ {2}fixture__pair: sent non-strict: .*prefixItems/m);
    // MCP tools follow one rule beside the built-in catalogue: off in a blind run only.
    expect(text.out()).toMatch(/^MCP tools +per --mcp-config +on +off +on +on$/m);
  }, 30_000);

  it('shows bound tools per agent, also from AUTOHEDGE_MCP_CONFIG, and reads no .mcp.json implicitly', async () => {
    const io = captureIo();
    io.env.AUTOHEDGE_MCP_CONFIG = config();
    expect(await runCli(['agents', '--json'], io)).toBe(0);
    const agents = JSON.parse(io.out()) as Array<{ id: string; tools: string[] }>;
    expect(agents.find((agent) => agent.id === 'quant')?.tools).toEqual(['fixture__get_quote', 'fixture__pair']);
    expect(agents.find((agent) => agent.id === 'sentiment')?.tools).toEqual(['exa_search']);

    const stray = captureIo();
    writeFileSync(path.join(stray.cwd, '.mcp.json'), readFileSync(config(), 'utf8'));
    expect(await runCli(['agents', '--json'], stray)).toBe(0);
    expect(
      (JSON.parse(stray.out()) as Array<{ id: string; tools: string[] }>).find((agent) => agent.id === 'quant')?.tools,
    ).toEqual([]);
  }, 30_000);

  it('refuses an unknown agent, an unset ${env:…} and a missing file with exit 2 naming the file', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ mcpServers: { fixture: { command: 'x', autohedge: { agents: { intern: ['a'] } } } } }, /mcpServers\.fixture/],
      [
        {
          mcpServers: {
            fixture: {
              command: 'x',
              env: { TOKEN: '${env:AUTOHEDGE_TEST_UNSET}' },
              autohedge: { agents: { quant: ['a'] } },
            },
          },
        },
        /\$\{env:AUTOHEDGE_TEST_UNSET\} is not set/,
      ],
      [
        {
          mcpServers: { old: { type: 'sse', url: 'http://127.0.0.1:1/sse', autohedge: { agents: { quant: ['a'] } } } },
        },
        /mcpServers\.old\.type: the SSE transport is not supported/,
      ],
    ];
    for (const [content, pattern] of cases) {
      const file = writeConfig(content);
      const io = captureIo();
      expect(await runCli(['tools', '--mcp-config', file], io)).toBe(2);
      expect(io.err()).toContain(file);
      expect(io.err()).toMatch(pattern);
    }
    // Another host's servers (no "autohedge" block) are neither checked nor started.
    const foreign = captureIo();
    const mixed = writeConfig({
      mcpServers: { theirs: { type: 'sse', url: 'not a url' }, spawnless: { command: '/nonexistent/never-started' } },
    });
    expect(await runCli(['tools', '--mcp-config', mixed], foreign)).toBe(0);
    expect(foreign.err()).toBe('');

    const io = captureIo();
    expect(await runCli(['agents', '--mcp-config', '/nonexistent/mcp.json'], io)).toBe(2);
    expect(io.err()).toContain('/nonexistent/mcp.json: cannot read the file');
  });
});

describe('analyze --mcp-config --trace', () => {
  it('shows the MCP call and its framed result in the trace like any other tool call', async () => {
    const io = captureIo();
    const model = new ScriptedModel({
      quant: [
        {
          toolCalls: [
            { id: 'call_q', name: 'fixture__get_quote', arguments: { ticker: 'ACME', days: 2, currency: null } },
          ],
        },
        { text: 'Quant report.' },
      ],
    });
    const code = await runCli(
      ['analyze', 'ACME', '--agent', 'quant', '--trace', '--json', '--mcp-config', config()],
      io,
      { model, market: fakeMarket(), search: { search: async () => [] }, now: () => new Date('2026-11-28T12:00:00Z') },
    );
    expect(code, io.err()).toBe(0);
    expect(io.err()).toContain('fixture__get_quote');
    expect(io.err()).toContain('UNTRUSTED MCP OUTPUT');
    expect(JSON.parse(io.out()).reports[0].toolCalls[0]).toMatchObject({ name: 'fixture__get_quote', error: null });
    model.assertComplete();
  }, 30_000);
});

describe('analyze --mcp-config and Ctrl-C', () => {
  beforeAll(async () => {
    await ensureBuilt();
  }, 180_000);

  it('leaves no MCP server process (nor its children) running after SIGINT', async () => {
    const openai = await startOpenAIServer((body, _index, request) =>
      agentOf(request) === 'quant' ? { hang: true } : goodAnswer(agentOf(request), body),
    );
    const pidFile = path.join(mkdtempSync(path.join(tmpdir(), 'autohedge-mcp-sigint-')), 'pids');
    const file = writeConfig({
      mcpServers: {
        stubborn: {
          command: process.execPath,
          args: [fixtureServer, '--stubborn', pidFile],
          autohedge: { agents: { quant: ['get.quote'] } },
        },
      },
    });
    const preload = pathToFileURL(path.join(repoRoot, 'tests', 'smoke', 'synthetic-yahoo.preload.mjs')).href;
    try {
      const child = spawn(
        process.execPath,
        [
          '--import',
          preload,
          binPath,
          'analyze',
          'ACME',
          '--agent',
          'quant',
          '--json',
          '--mcp-config',
          file,
          '--base-url',
          openai.url,
        ],
        {
          env: {
            PATH: process.env.PATH ?? '',
            AUTOHEDGE_HOME: mkdtempSync(path.join(tmpdir(), 'autohedge-home-')),
            OPENAI_API_KEY: 'sk-sigint-0123456789',
            YAHOO_STUB_COOKIE: 'A3=d=sigint',
            YAHOO_STUB_CRUMB: 'crumbSigint1',
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      const deadline = Date.now() + 20_000;
      while (Date.now() < deadline && !(existsSync(pidFile) && openai.requests.length > 0))
        await new Promise((resolve) => setTimeout(resolve, 50));
      const pids = readFileSync(pidFile, 'utf8').split(' ').map(Number);
      child.kill('SIGINT');
      expect(await exited).toBe(130);
      expect(await waitUntilGone(pids)).toBe(true);
    } finally {
      await openai.close();
    }
  }, 60_000);
});
