// An MCP tool result over stdio's 10 MB line limit fails the call at once, saying it was too
// large — not after the whole tool time limit as "timed out" (the SDK's own reader drops it).
import { afterEach, describe, expect, it } from 'vitest';
import { executeToolCall } from '../../src/agent/tool-execution.js';
import { parseMcpConfig } from '../../src/mcp/config.js';
import { openMcpTools, type McpToolSources } from '../../src/mcp/index.js';
import { LineReader } from '../../src/mcp/line-reader.js';
import { ToolRegistry } from '../../src/tools/registry.js';
import { longBeforeTheHangEnds } from '../support/hang.js';
import { fixtureServer } from './support.js';

const opened: McpToolSources[] = [];
/** Without the line limit the call would end only here, as "timed out". */
const toolTimeLimitMs = 30_000;
afterEach(async () => {
  await Promise.all(opened.splice(0).map((sources) => sources.close()));
});

describe('the line limit of stdio JSON-RPC', () => {
  it('reads lines split across chunks, skips an oversized one to its newline and finds its id', () => {
    const reader = new LineReader(64);
    const events = [
      ...reader.push(Buffer.from('{"jsonrpc":"2.0","id":1,"res')),
      ...reader.push(Buffer.from('ult":{}}\n{"jsonrpc":"2.0","id":2,"result":{"text":"')),
      ...reader.push(Buffer.from('y'.repeat(500))),
      ...reader.push(
        Buffer.from('"}}\nnot json\n{"result":{"t":"' + 'z'.repeat(100) + '"},"jsonrpc":"2.0","id":"abc"}\n'),
      ),
      ...reader.push(Buffer.from('{"jsonrpc":"2.0","method":"notifications/x"}\n')),
    ];
    expect(events.map((event) => event.kind)).toEqual(['message', 'oversized', 'invalid', 'oversized', 'message']);
    expect(events[1]).toMatchObject({ kind: 'oversized', id: 2, bytes: 545 });
    expect(events[3]).toMatchObject({ kind: 'oversized', id: 'abc' });
    // The rejected line is never quoted back.
    expect(JSON.stringify(events[2])).not.toContain('not json');
  });

  it('a 12 MB tool result: the call fails at once as too large, not as timed out', async () => {
    const config = parseMcpConfig(
      {
        mcpServers: {
          fixture: {
            command: process.execPath,
            args: [fixtureServer],
            env: { FIXTURE_HUGE: '1' },
            autohedge: { agents: { quant: ['huge'] } },
          },
        },
      },
      '/test/mcp.json',
      {},
    );
    const sources = await openMcpTools(config, {
      mode: { kind: 'live' },
      builtInNames: [],
      warn: () => {},
      connectTimeoutMs: 10_000,
    });
    opened.push(sources);
    const tool = (sources.agentTools.quant ?? [])[0]!;
    const started = Date.now();
    const outcome = await executeToolCall(
      { id: 'call_1', type: 'function', function: { name: tool.name, arguments: '{}' } },
      {
        agent: 'quant',
        registry: new ToolRegistry([tool]),
        asOf: new Date('2026-11-28T12:00:00Z'),
        timeoutMs: toolTimeLimitMs,
        maxResultChars: 12_000,
        emit: () => {},
      },
    );
    expect(Date.now() - started).toBeLessThan(longBeforeTheHangEnds(toolTimeLimitMs));
    expect(JSON.stringify(outcome)).toMatch(/too large \(12\.0 MB, over the 10 MB limit\)/);
    expect(JSON.stringify(outcome)).not.toMatch(/timed out/);
  }, 60_000);
});
