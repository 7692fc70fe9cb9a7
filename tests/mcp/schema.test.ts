/**
 * `autohedge mcp`'s tools/list against what the tools return (#33 item 16): the `analyze`
 * and `run_get` outputSchema is the run store's own zod schema of a saved AnalysisResult,
 * converted by zod itself, and the SDK's client — which checks structuredContent against
 * the listed outputSchema — accepts every result; ticker inputs carry the CLI's rule.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { savedResultSchema } from '../../src/result/result-schema.js';
import { binPath, ensureBuilt } from '../smoke/support.js';

type Tool = Awaited<ReturnType<Client['listTools']>>['tools'][number];

let client: Client;
let tools: Tool[];
const tool = (name: string) => tools.find((entry) => entry.name === name)!;
const textOf = (result: { content?: unknown }) => (result.content as Array<{ text?: string }>)[0]?.text ?? '';

beforeAll(async () => {
  await ensureBuilt();
  client = new Client({ name: 'autohedge-schema-test', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [binPath, 'mcp', '--demo'],
      env: {
        PATH: process.env.PATH ?? '',
        NO_COLOR: '1',
        AUTOHEDGE_HOME: mkdtempSync(path.join(tmpdir(), 'autohedge-mcp-schema-')),
      },
      stderr: 'pipe',
    }),
  );
  tools = (await client.listTools()).tools;
}, 180_000);

afterAll(async () => {
  await client?.close().catch(() => {});
});

describe('autohedge mcp tools/list', () => {
  it("describes analyze's and run_get's output as the saved AnalysisResult, from the store's zod schema", () => {
    const expected = z.toJSONSchema(savedResultSchema, { target: 'draft-2020-12', io: 'output' }) as {
      properties: Record<string, unknown>;
      required: string[];
    };
    for (const name of ['analyze', 'run_get']) {
      const schema = tool(name).outputSchema as { properties: Record<string, unknown>; required: string[] };
      expect(Object.keys(schema.properties)).toEqual(Object.keys(expected.properties));
      expect(schema.properties).toEqual(expected.properties);
      expect(schema.required).toEqual(expected.required);
    }
    const properties = tool('analyze').outputSchema!.properties as Record<string, { properties?: object }>;
    expect(Object.keys(properties)).toEqual(
      expect.arrayContaining(['decision', 'reports', 'guardrails', 'usage', 'market', 'claims', 'options']),
    );
    expect(Object.keys(properties['decision']!)).toContain('anyOf');
  });

  it("gives every ticker input the CLI's rule: 1–15 characters of a Yahoo symbol", () => {
    const inputs = [
      (tool('market').inputSchema.properties as Record<string, object>)['ticker'],
      (tool('analyze').inputSchema.properties as Record<string, object>)['ticker'],
      (tool('evaluate').inputSchema.properties as Record<string, object>)['benchmark'],
    ];
    for (const input of inputs)
      expect(input).toMatchObject({ type: 'string', minLength: 1, maxLength: 15, pattern: expect.any(String) });
  });
});

describe('autohedge mcp structuredContent against its outputSchema, checked by the SDK client', () => {
  it('an analysis (ok and degraded) and the same runs from run_get all validate', async () => {
    const analyze = { toolDefinition: tool('analyze') };
    const analysed = await client.callTool({ name: 'analyze', arguments: { ticker: 'ACME' } }, analyze);
    expect(analysed.isError).toBeFalsy();
    const capped = await client.callTool({ name: 'analyze', arguments: { ticker: 'ACME', maxCostUsd: 1e-6 } }, analyze);
    expect(capped.structuredContent).toMatchObject({ status: 'degraded', decision: null });
    for (const result of [analysed, capped]) {
      const runId = (result.structuredContent as { runId: string }).runId;
      const fetched = await client.callTool(
        { name: 'run_get', arguments: { id: runId } },
        { toolDefinition: tool('run_get') },
      );
      expect(fetched.isError).toBeFalsy();
      // What analyze returned is what run_get reads back: the saved run, defaults and all.
      expect(fetched.structuredContent).toEqual(result.structuredContent);
    }
  }, 60_000);

  it('is really checked: a schema asking for a field no result has is refused by the client', async () => {
    const strict = structuredClone(tool('run_get'));
    const schema = strict.outputSchema as { required: string[]; properties: Record<string, unknown> };
    schema.properties['notAField'] = { type: 'string' };
    schema.required = [...schema.required, 'notAField'];
    const listed = await client.callTool({ name: 'runs_list', arguments: {} });
    const [first] = (listed.structuredContent as { runs: Array<{ runId: string }> }).runs;
    await expect(
      client.callTool({ name: 'run_get', arguments: { id: first!.runId } }, { toolDefinition: strict }),
    ).rejects.toThrow(/does not match the tool's output schema/);
  }, 30_000);

  it("refuses a 16-character ticker, as a 5,000-character one, with the CLI's one line that echoes neither", async () => {
    for (const long of ['ABCDEFGHIJKLMNOP', 'A'.repeat(5_000)]) {
      for (const name of ['market', 'analyze']) {
        const refused = await client.callTool({ name, arguments: { ticker: long } });
        expect(refused.isError).toBe(true);
        expect(textOf(refused)).toBe(
          `Input validation error: Invalid arguments for tool ${name}: ticker: expected 1–15 characters: letters, digits and . - = ^ (e.g. AAPL, BRK-B, ^GSPC, EURUSD=X)`,
        );
      }
    }
    const lower = await client.callTool({ name: 'market', arguments: { ticker: 'acme' } });
    expect(lower.structuredContent).toMatchObject({ symbol: 'ACME' });
  });
});
