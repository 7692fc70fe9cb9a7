/**
 * `analyze --agent quant --mcp-config …` end to end through the built CLI: the real
 * openai SDK against the loopback OpenAI-compatible server, a scripted model calling
 * the fixture MCP server's tool over stdio, then the same run replayed from its
 * cassette with nothing spawned.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runBuilt } from '../smoke/support.js';
import { agentOf, goodAnswer, requestsOf, toolMessages } from '../support/faults.js';
import { toolCallAnswer, type ReplyHandler } from '../support/openai-server.js';
import { recordAnalyze, useScratch } from '../record/support.js';
import { fixtureServer, startHttpFixture, writeConfig } from './support.js';

const scratch = useScratch('autohedge-mcp-analyze-');
const keys = {
  openai: 'sk-mcp-test-0123456789abcdef',
  yahooCookie: 'A3=d=mcp-cookie-value',
  yahooCrumb: 'mcpCrumb0123',
};

/** Quant calls the MCP tool once (nulls for the optional fields, as strict mode makes it), then answers. */
const quantCallsQuote: ReplyHandler = (body, _index, request) => {
  const agent = agentOf(request);
  const called = body.messages.some((message: { role: string }) => message.role === 'tool');
  if (agent === 'quant' && !called) {
    return toolCallAnswer([
      { id: 'call_quote', name: 'fixture__get_quote', arguments: { ticker: 'ACME', days: null, currency: null } },
    ]);
  }
  return goodAnswer(agent, body);
};

describe('analyze with an MCP server bound to a desk', () => {
  it('sends the MCP tool to the desk, runs the call, returns the result as a role:"tool" message, and replays with nothing spawned', async () => {
    const config = writeConfig({
      mcpServers: {
        fixture: {
          command: process.execPath,
          args: [fixtureServer],
          env: { FIXTURE_TOKEN: 'fixture-token-0123456789' },
          autohedge: { agents: { quant: ['get.quote'] } },
        },
      },
    });
    const cassette = scratch('mcp.cassette.json');
    const recording = await recordAnalyze({
      cassette,
      openai: quantCallsQuote,
      exa: false,
      keys,
      args: ['--agent', 'quant', '--mcp-config', config],
    });
    expect(recording.run.stderr).not.toContain('warning: MCP');
    expect(recording.run.code).toBe(0);

    const quantRequests = requestsOf(recording.openai as never, 'quant');
    expect(quantRequests).toHaveLength(2);
    const tools = quantRequests[0]?.body.tools as Array<{ function: { name: string; strict: boolean } }>;
    expect(tools.map((tool) => tool.function.name)).toEqual(['fixture__get_quote']);
    const [toolMessage] = toolMessages(quantRequests[1]);
    expect(toolMessage).toContain('{"ticker":"ACME","price":123.45,"days":1}');

    const result = JSON.parse(recording.run.stdout);
    expect(result.reports[0].toolCalls).toMatchObject([{ name: 'fixture__get_quote', error: null }]);
    expect(result.usage.toolCalls).toEqual({ fixture__get_quote: 1 });

    const written = JSON.parse(readFileSync(cassette, 'utf8'));
    expect(written.mcp.servers).toMatchObject([{ name: 'fixture', error: null }]);
    expect(written.mcp.calls).toMatchObject([
      { server: 'fixture', tool: 'get.quote', arguments: { ticker: 'ACME' }, error: null },
    ]);
    // MCP is recorded at the tool boundary only, and the configured env value is scrubbed.
    expect(JSON.stringify(written)).not.toContain('fixture-token-0123456789');

    // The replay's config names a command that does not exist: a spawn would fail loudly.
    const unrunnable = writeConfig({
      mcpServers: {
        fixture: { command: '/nonexistent/never-spawned', autohedge: { agents: { quant: ['get.quote'] } } },
      },
    });
    const replay = await runBuilt(
      ['analyze', 'ACME', '--replay', cassette, '--json', '--agent', 'quant', '--mcp-config', unrunnable],
      { env: {} },
    );
    expect(replay.stderr).not.toContain('unavailable');
    expect(replay.code).toBe(0);
    const replayed = JSON.parse(replay.stdout);
    expect(replayed.reports[0].toolCalls[0].result).toBe(result.reports[0].toolCalls[0].result);
  }, 120_000);

  it('records a Streamable HTTP MCP server at the tool boundary only, and replays with the server gone', async () => {
    const http = await startHttpFixture();
    const config = writeConfig({
      mcpServers: {
        fixture: {
          url: http.url,
          headers: { 'X-Fixture-Key': 'http-header-secret-0123456789' },
          autohedge: { agents: { quant: ['get.quote'] } },
        },
      },
    });
    const cassette = scratch('mcp-http.cassette.json');
    let recording;
    try {
      recording = await recordAnalyze({
        cassette,
        openai: quantCallsQuote,
        exa: false,
        keys,
        args: ['--agent', 'quant', '--mcp-config', config],
      });
    } finally {
      await http.stop();
    }
    expect(recording.run.code, recording.run.stderr).toBe(0);
    const written = JSON.parse(readFileSync(cassette, 'utf8'));
    const mcpOrigin = new URL(http.url).origin;
    expect(
      written.interactions.filter((interaction: { url: string }) => interaction.url.startsWith(mcpOrigin)),
    ).toEqual([]);
    expect(written.mcp.calls).toMatchObject([{ server: 'fixture', tool: 'get.quote', error: null }]);
    expect(JSON.stringify(written)).not.toContain('http-header-secret-0123456789');

    const replay = await runBuilt(
      ['analyze', 'ACME', '--replay', cassette, '--json', '--agent', 'quant', '--mcp-config', config],
      { env: {} },
    );
    expect(replay.code, replay.stderr).toBe(0);
    expect(JSON.parse(replay.stdout).reports[0].toolCalls[0].result).toContain('"price":123.45');
  }, 120_000);

  it('refuses a bad config file with exit 2 naming the file and the problem', async () => {
    const bad = writeConfig({
      mcpServers: { fixture: { args: ['x'], autohedge: { agents: { quant: ['get.quote'] } } } },
    });
    const run = await runBuilt(['analyze', 'ACME', '--demo', '--agent', 'quant', '--mcp-config', bad], { env: {} });
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain(`--mcp-config ${bad}: mcpServers.fixture`);
  }, 60_000);
});
