import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { listingEntry, tableRow } from '../../src/cli/commands/tools.js';
import { runCli } from '../../src/cli/run-cli.js';
import { createMcpTool } from '../../src/mcp/tools.js';
import type { McpServerHandle } from '../../src/mcp/types.js';
import { defineJsonTool, defineTool } from '../../src/tools/define-tool.js';
import type { Tool } from '../../src/tools/types.js';
import { captureIo } from '../support/cli.js';
import { fixtureServer, writeConfig } from '../mcp/support.js';

/**
 * One tool contract: a tool written with zod and an MCP server's tool (built with
 * defineJsonTool from its JSON schema) are the same kind of object — same keys, same
 * definition for the same schema, the same nulls removed, listed alike by `autohedge tools`.
 */

// The fixture MCP server's `get.quote` (tests/fixtures/mcp/server.mjs), written here as a zod tool.
const quoteParameters = z.object({
  ticker: z.string(),
  days: z.number().int().optional(),
  currency: z.enum(['USD', 'EUR']).optional(),
});
const description = 'Last price of a ticker (fixture data).';

const handle = (schema: Record<string, unknown>): McpServerHandle => ({
  name: 'fixture',
  tools: [{ name: 'get.quote', description, inputSchema: schema }],
  error: null,
  call: async (_tool, args) => ({ content: [{ type: 'text', text: JSON.stringify(args) }], isError: false }),
  close: async () => {},
});

function twins(parameters: z.ZodObject = quoteParameters): { zod: Tool; mcp: Tool } {
  const emitted = z.toJSONSchema(parameters, { io: 'input' }) as Record<string, unknown>;
  const mcp = createMcpTool(handle(emitted), handle(emitted).tools![0]!, 'fixture__get_quote');
  const zod = defineTool({
    name: 'fixture__get_quote',
    description,
    outputs: "the MCP server 'fixture' tool result, as untrusted data",
    parameters,
    run: async (args) => JSON.stringify(args),
  });
  return { zod, mcp };
}

describe('one Tool from zod and from JSON schema', () => {
  it('has the same shape: the same keys, definition and describe line; only the origin differs', () => {
    const { zod, mcp } = twins();
    expect(Object.keys(mcp).sort()).toEqual(Object.keys(zod).sort());
    expect(Object.keys(zod).sort()).toEqual([
      'definition',
      'describe',
      'description',
      'name',
      'origin',
      'parse',
      'run',
    ]);
    expect(mcp.definition).toEqual(zod.definition);
    expect(mcp.definition.function.strict).toBe(true);
    expect(mcp.describe()).toBe(zod.describe());
    expect(zod.origin).toEqual({ kind: 'builtin' });
    expect(mcp.origin).toEqual({ kind: 'mcp', server: 'fixture', remoteName: 'get.quote' });
  });

  it.each([
    ['{"ticker":"ACME","days":null,"currency":null}', { ticker: 'ACME' }],
    ['{"ticker":"ACME","days":5,"currency":"EUR"}', { ticker: 'ACME', days: 5, currency: 'EUR' }],
    ['', null],
  ])('strips the nulls strict mode sends alike: %s', (argumentsJson, value) => {
    const { zod, mcp } = twins();
    const fromZod = zod.parse(argumentsJson);
    const fromMcp = mcp.parse(argumentsJson);
    if (value === null) {
      // An empty call: zod says `ticker` is missing; the server would say so for an MCP tool.
      expect(fromZod.ok).toBe(false);
      expect(fromMcp).toEqual({ ok: true, value: {} });
    } else {
      expect(fromZod).toEqual({ ok: true, value });
      expect(fromMcp).toEqual(fromZod);
    }
  });

  it('strips nested nulls alike and keeps a null the schema itself allows', () => {
    const nested = z.object({
      note: z.string().nullable().optional(),
      window: z.object({ from: z.string(), to: z.string().optional() }).optional(),
      legs: z.array(z.object({ size: z.number().optional(), side: z.string() })),
    });
    const { zod, mcp } = twins(nested);
    const call = '{"note":null,"window":{"from":"a","to":null},"legs":[{"size":null,"side":"buy"}]}';
    const expected = { note: null, window: { from: 'a' }, legs: [{ side: 'buy' }] };
    expect(zod.parse(call)).toEqual({ ok: true, value: expected });
    expect(mcp.parse(call)).toEqual({ ok: true, value: expected });
  });

  it('follows $ref into $defs when it strips (a recursive schema)', () => {
    const tool = defineJsonTool({
      name: 'tree',
      description: 'x',
      outputs: 'x',
      parameters: {
        type: 'object',
        properties: { root: { $ref: '#/$defs/node' } },
        required: ['root'],
        $defs: {
          node: {
            type: 'object',
            properties: { label: { type: 'string' }, child: { $ref: '#/$defs/node' } },
            required: ['label'],
          },
        },
      },
      run: async () => 'x',
    });
    expect(tool.parse('{"root":{"label":"a","child":{"label":"b","child":null}}}')).toEqual({
      ok: true,
      value: { root: { label: 'a', child: { label: 'b' } } },
    });
  });

  it('defineJsonTool refuses what strict mode cannot express, unless told to send it non-strict', () => {
    const tuple = { type: 'object', properties: { pair: { type: 'array', prefixItems: [{ type: 'string' }] } } };
    const spec = { name: 'pair', description: 'x', outputs: 'x', parameters: tuple, run: async () => 'x' };
    expect(() => defineJsonTool(spec)).toThrow(/prefixItems/);
    const loose = defineJsonTool({ ...spec, strict: 'when-possible' });
    expect(loose.definition.function.strict).toBe(false);
    expect(loose.nonStrictReason).toMatch(/prefixItems/);
    expect(loose.parse('[1]')).toEqual({ ok: false, error: 'Invalid arguments for pair: expected a JSON object' });
  });
});

describe('autohedge tools lists an MCP tool as it lists a zod tool', () => {
  it('the --json entry and the table row of the served get.quote equal those of its zod twin', async () => {
    const config = writeConfig({
      mcpServers: {
        fixture: { command: process.execPath, args: [fixtureServer], autohedge: { agents: { quant: ['get.quote'] } } },
      },
    });
    const io = captureIo();
    expect(await runCli(['tools', '--json', '--mcp-config', config], io)).toBe(0);
    const served = (JSON.parse(io.out()) as Array<Record<string, unknown>>).find(
      (entry) => entry.name === 'fixture__get_quote',
    )!;
    const { server, serverTool, nonStrictReason, ...contract } = served;
    expect({ server, serverTool, nonStrictReason }).toEqual({
      server: 'fixture',
      serverTool: 'get.quote',
      nonStrictReason: null,
    });
    const { zod } = twins();
    expect(contract).toEqual(listingEntry(zod, ['quant']));

    const table = captureIo();
    expect(await runCli(['tools', '--mcp-config', config], table)).toBe(0);
    const row = tableRow(zod, ['quant']);
    expect(row[2]).toBe('ticker, days?, currency?');
    expect(table.out()).toMatch(
      new RegExp(`^${row.map((cell) => cell.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join(' +')}$`, 'm'),
    );
  }, 30_000);
});
