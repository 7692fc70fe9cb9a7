import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { executeToolCall } from '../../src/agent/tool-execution.js';
import { ConfigError } from '../../src/errors.js';
import { parseMcpConfig } from '../../src/mcp/config.js';
import { openMcpTools, type McpToolSources } from '../../src/mcp/index.js';
import type { McpTool } from '../../src/mcp/tools.js';
import { ToolRegistry } from '../../src/tools/registry.js';
import { longBeforeTheHangEnds, neverEndsMs } from '../support/hang.js';
import { fixtureServer, isAlive, longToolName, startHttpFixture, waitUntilGone } from './support.js';

const asOf = new Date('2026-11-28T12:00:00Z');
/** The fixture's `slow` tool (tests/fixtures/mcp/server.mjs). */
const slowToolAnswersAfterMs = 60_000;
const allTools = ['get.quote', 'pair', longToolName, 'slow', 'boom', 'env_dump', 'inject'];
const opened: McpToolSources[] = [];

async function open(servers: Record<string, unknown>, builtInNames: string[] = ['exa_search']) {
  const warnings: string[] = [];
  const config = parseMcpConfig({ mcpServers: servers }, '/test/mcp.json', {
    FIXTURE_SECRET: 'configured-secret-value',
  });
  const sources = await openMcpTools(config, {
    mode: { kind: 'live' },
    builtInNames,
    warn: (message) => warnings.push(message),
    connectTimeoutMs: 10_000,
  });
  opened.push(sources);
  return { sources, warnings, tools: sources.agentTools.quant ?? [] };
}

function byRemote(tools: McpTool[], remote: string): McpTool {
  const tool = tools.find((candidate) => candidate.origin.kind === 'mcp' && candidate.origin.remoteName === remote);
  if (!tool) throw new Error(`no tool ${remote}`);
  return tool;
}

async function call(tool: McpTool, argumentsJson: string, timeoutMs = 10_000) {
  return executeToolCall(
    { id: 'call_1', type: 'function', function: { name: tool.name, arguments: argumentsJson } },
    { agent: 'quant', registry: new ToolRegistry([tool]), asOf, timeoutMs, maxResultChars: 12_000, emit: () => {} },
  );
}

afterEach(async () => {
  await Promise.all(opened.splice(0).map((sources) => sources.close()));
});

describe('MCP servers over stdio as tool sources', () => {
  const previousKey = process.env.OPENAI_API_KEY;
  beforeAll(() => {
    process.env.OPENAI_API_KEY = 'sk-parent-key-must-not-reach-the-child';
  });
  afterAll(() => {
    if (previousKey === undefined) delete process.env.OPENAI_API_KEY;
    else process.env.OPENAI_API_KEY = previousKey;
  });

  it('turns each allowed tool into a function definition: strict where it can, non-strict (with the reason) for a tuple', async () => {
    const { tools, warnings } = await open({
      fixture: { command: process.execPath, args: [fixtureServer], autohedge: { agents: { quant: allTools } } },
    });
    expect(warnings).toEqual([]);
    const quote = byRemote(tools, 'get.quote');
    expect(quote.name).toBe('fixture__get_quote');
    expect(quote.definition.function).toMatchObject({
      name: 'fixture__get_quote',
      strict: true,
      description: 'Last price of a ticker (fixture data).',
    });
    expect(quote.definition.function.parameters).toMatchObject({
      type: 'object',
      required: ['ticker', 'days', 'currency'],
      additionalProperties: false,
    });
    const pair = byRemote(tools, 'pair');
    expect(pair.definition.function.strict).toBe(false);
    expect(pair.nonStrictReason).toContain('prefixItems');
    const long = byRemote(tools, longToolName);
    expect(long.name.length).toBeLessThanOrEqual(64);
    expect(long.name).toMatch(/^fixture__fetch_the_complete[A-Za-z0-9_-]*_[0-9a-f]{8}$/);
  });

  it('removes the nulls strict mode makes the model send for optional fields before calling the server', async () => {
    const { tools } = await open({
      fixture: { command: process.execPath, args: [fixtureServer], autohedge: { agents: { quant: ['get.quote'] } } },
    });
    const outcome = await call(byRemote(tools, 'get.quote'), '{"ticker":"ACME","days":null,"currency":null}');
    expect(outcome.record.error).toBeNull();
    expect(outcome.content).toContain('<<<UNTRUSTED MCP OUTPUT from server "fixture", tool "get.quote"');
    expect(outcome.content).toContain('{"ticker":"ACME","price":123.45,"days":1}');
    expect(outcome.content.trimEnd().endsWith('<<<END UNTRUSTED MCP OUTPUT>>>')).toBe(true);
  });

  it('gives the child the SDK default environment plus its configured env only', async () => {
    const { tools } = await open({
      fixture: {
        command: process.execPath,
        args: [fixtureServer],
        env: { FIXTURE_TOKEN: '${env:FIXTURE_SECRET}' },
        autohedge: { agents: { quant: ['env_dump'] } },
      },
    });
    const outcome = await call(byRemote(tools, 'env_dump'), '{}');
    const names = JSON.parse(outcome.content.split('\n')[1] as string) as string[];
    expect(names).toContain('FIXTURE_TOKEN');
    expect(names).not.toContain('OPENAI_API_KEY');
    expect(names.filter((name) => /API_KEY|AUTOHEDGE|VITEST/.test(name))).toEqual([]);
  });

  it('answers a slow tool with Error: within the tool time limit, and a throwing tool or an unknown one with Error:', async () => {
    const { sources, tools } = await open({
      fixture: {
        command: process.execPath,
        args: [fixtureServer],
        autohedge: { agents: { quant: ['slow', 'boom', 'inject'] } },
      },
    });
    const started = performance.now();
    const slow = await call(byRemote(tools, 'slow'), '{}', 500);
    expect(performance.now() - started).toBeLessThan(longBeforeTheHangEnds(slowToolAnswersAfterMs));
    expect(slow.content).toMatch(/^Error: tool fixture__slow timed out after 500 ms/);
    const boom = await call(byRemote(tools, 'boom'), '{}');
    expect(boom.content).toBe("Error: MCP tool 'boom' of server 'fixture' failed: the fixture tool exploded");
    expect(boom.record.error).not.toBeNull();
    // A protocol error (unknown tool) is a rejection of the call, which the tool turns into a failure too.
    await expect(sources.servers[0]!.call('no_such_tool', {}, new AbortController().signal, 5_000)).rejects.toThrow(
      /not found/i,
    );
    // Hostile output cannot close the block early or reach a terminal as a control sequence.
    const inject = await call(byRemote(tools, 'inject'), '{}');
    expect(inject.content.match(/<<<END UNTRUSTED MCP OUTPUT>>>/g)).toHaveLength(1);
    expect(inject.content).not.toContain('\u001b');
  }, 90_000);

  it('ends the child and its grandchildren when closed, also when the child ignores stdin closing and SIGTERM', async () => {
    const pidFile = join(mkdtempSync(join(tmpdir(), 'autohedge-mcp-pid-')), 'pids');
    const { sources } = await open({
      calm: { command: process.execPath, args: [fixtureServer], autohedge: { agents: { quant: ['boom'] } } },
      stubborn: {
        command: process.execPath,
        args: [fixtureServer, '--stubborn', pidFile],
        autohedge: { agents: { risk: ['boom'] } },
      },
    });
    const calm = sources.servers[0]!.pid!;
    const [stubborn, grandchild] = readFileSync(pidFile, 'utf8').split(' ').map(Number) as [number, number];
    expect([calm, stubborn, grandchild].every(isAlive)).toBe(true);
    const started = performance.now();
    await sources.close();
    // Without the SIGKILL the stubborn ones would live on: closing ends long before that "never".
    expect(performance.now() - started).toBeLessThan(longBeforeTheHangEnds(neverEndsMs));
    expect(await waitUntilGone([calm, stubborn, grandchild])).toBe(true);
  }, 90_000);

  it('binds only allow-listed tools, warns about a name the server lacks, and refuses a clash with a built-in name', async () => {
    const { sources, warnings } = await open({
      fixture: {
        command: process.execPath,
        args: [fixtureServer],
        autohedge: { agents: { quant: ['get.quote', 'not_offered'] } },
      },
    });
    expect(sources.agentTools.quant?.map((tool) => tool.name)).toEqual(['fixture__get_quote']);
    expect(sources.agentTools.sentiment).toBeUndefined();
    expect(warnings.join('\n')).toContain("MCP server 'fixture' has no tool 'not_offered'");
    await expect(
      open(
        { fixture: { command: process.execPath, args: [fixtureServer], autohedge: { agents: { quant: ['boom'] } } } },
        ['fixture__boom'],
      ),
    ).rejects.toThrow(ConfigError);
  });

  it('keeps going when a server cannot start: a warning, and its tools answer the model with the reason', async () => {
    const { tools, warnings } = await open({
      broken: { command: '/nonexistent/mcp-server', autohedge: { agents: { quant: ['lookup'] } } },
    });
    expect(warnings.join('\n')).toMatch(/MCP server 'broken' is unavailable: .*ENOENT/);
    const outcome = await call(tools[0]!, '{}');
    expect(outcome.content).toMatch(
      /^Error: MCP server 'broken': not available: spawn \/nonexistent\/mcp-server ENOENT$/,
    );
  });
});

describe('a Streamable HTTP MCP server on 127.0.0.1', () => {
  it('lists and calls its tools', async () => {
    const http = await startHttpFixture();
    try {
      const { tools, warnings } = await open({
        remote: {
          url: http.url,
          headers: { 'x-fixture': 'yes' },
          autohedge: { agents: { quant: ['get.quote', 'boom'] } },
        },
      });
      expect(warnings).toEqual([]);
      const outcome = await call(byRemote(tools, 'get.quote'), '{"ticker":"NVDA","days":5,"currency":null}');
      expect(outcome.content).toContain('{"ticker":"NVDA","price":123.45,"days":5}');
      expect((await call(byRemote(tools, 'boom'), '{}')).content).toContain('the fixture tool exploded');
    } finally {
      await http.stop();
    }
  });
});
