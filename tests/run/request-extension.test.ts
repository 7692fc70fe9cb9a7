/**
 * Adding an analyze option is the catalogue entry, the request's field and the phase that
 * uses it (#45 item 1). A fixture option, `--dummy-knob`, declared here only — an entry
 * of an extended catalogue and a field of an extended request, with no edit to any source
 * — reaches the worker's job, the MCP `analyze` input and result.json.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { optionCatalogue, type OptionEntry } from '../../src/cli/option-catalogue.js';
import { requestFromFlags } from '../../src/cli/run-request-flags.js';
import { defaultPriceTable } from '../../src/llm/prices.js';
import { analyzeInputSchema, requestOfCall, type AnalyzeInput } from '../../src/mcp/analyze-input.js';
import { buildServer, type ServeHandlers } from '../../src/mcp/server.js';
import { requestOnHost } from '../../src/queue/job-request.js';
import { extendRunRequest, parseRunRequest, RunRequestError } from '../../src/run/request.js';
import { runAndSave, type RunSession } from '../../src/run/run-and-save.js';
import type { AnalysisResult } from '../../src/result/types.js';
import { ScriptedModel } from '../../src/testing/scripted-model.js';
import { fakeMarket } from '../support/market.js';

// ---- the fixture option, declared where an option is declared, and nowhere else
const catalogue: Record<string, OptionEntry> = {
  ...optionCatalogue,
  dummyKnob: {
    flags: '--dummy-knob <n>',
    help: 'a fixture option',
    field: (f) => f.positiveNumber('--dummy-knob').optional(),
    request: 'dummyKnob',
  },
};
const declaration = extendRunRequest(
  {
    dummyKnob: z
      .number()
      .positive('dummyKnob must be greater than 0')
      .max(9, 'dummyKnob must be at most 9')
      .optional()
      .describe('A fixture knob'),
  },
  ['dummyKnob'],
);

/** What `enqueue --agent quant --dummy-knob 3` puts on the queue, as the shells build it. */
function enqueued(): unknown {
  const flags = { agent: ['quant'], dummyKnob: 3 } as Parameters<typeof requestFromFlags>[0];
  const request = parseRunRequest({ ...requestFromFlags(flags, undefined, catalogue), ticker: 'NVDA' }, declaration);
  // A job's data crosses Redis as JSON.
  return JSON.parse(JSON.stringify(request));
}

describe('an option declared in the catalogue and the request only', () => {
  it("reaches the worker's job, and the built-in request refuses it (the declaration is what carries it)", () => {
    const job = enqueued();
    expect(job).toMatchObject({ ticker: 'NVDA', agents: ['quant'], dummyKnob: 3 });
    const host = requestFromFlags({ search: 'none' } as Parameters<typeof requestFromFlags>[0], 'none');
    expect(requestOnHost(job, host, declaration)).toMatchObject({ ticker: 'NVDA', dummyKnob: 3, search: 'none' });
    expect(() => requestOnHost(job, host)).toThrow(RunRequestError);
    expect(() => parseRunRequest({ ...(job as object), dummyKnob: 12 }, declaration)).toThrow(
      /dummyKnob must be at most 9/,
    );
  });

  it('reaches the MCP analyze input: listed with its bounds and words, handed to the request', async () => {
    const calls: AnalyzeInput[] = [];
    const handlers = {
      analyze: async (input: AnalyzeInput) => {
        calls.push(input);
        throw new Error('not run in this test');
      },
    } as unknown as ServeHandlers;
    const options = { name: 't', version: '0', errorLine: String, maxCostUsd: 1, budgetUsd: 5, concurrency: 1 };
    const server = buildServer(handlers, { ...options, request: declaration }, (work) => work);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'extension-test', version: '1.0.0' });
    await client.connect(clientSide);
    try {
      const analyze = (await client.listTools()).tools.find((tool) => tool.name === 'analyze')!;
      expect((analyze.inputSchema.properties as Record<string, object>)['dummyKnob']).toEqual({
        type: 'number',
        exclusiveMinimum: 0,
        maximum: 9,
        description: 'A fixture knob',
      });
      await client.callTool({ name: 'analyze', arguments: { ticker: 'NVDA', dummyKnob: 2 } });
      const refused = await client.callTool({ name: 'analyze', arguments: { ticker: 'NVDA', dummyKnob: 0 } });
      expect(refused.isError).toBe(true);
      expect(JSON.stringify(refused.content)).toContain('dummyKnob must be greater than 0');
    } finally {
      await client.close();
    }
    expect(calls).toEqual([{ ticker: 'NVDA', dummyKnob: 2 }]);
    const request = parseRunRequest(requestOfCall(calls[0]!, requestFromFlags({}, 'none'), 1), declaration);
    expect(request).toMatchObject({ ticker: 'NVDA', dummyKnob: 2, maxCostUsd: 1 });
    // The built-in input does not list it.
    expect(Object.keys(analyzeInputSchema(1).shape)).not.toContain('dummyKnob');
  });

  it("reaches result.json's options through runAndSave", async () => {
    const home = mkdtempSync(path.join(tmpdir(), 'autohedge-extension-'));
    const request = requestOnHost(enqueued(), requestFromFlags({}, 'none'), declaration);
    const session: RunSession = {
      env: { AUTOHEDGE_HOME: home },
      baseUrl: undefined,
      replaying: false,
      demo: false,
      model: new ScriptedModel({ quant: [{ text: 'Quant: trend up.' }] }),
      market: fakeMarket(),
      search: null,
      prices: defaultPriceTable,
      mcp: null,
      secrets: [],
      asOf: () => new Date('2026-11-02T15:00:00Z'),
    };
    const saved = await runAndSave(request, session);
    expect(saved.dir).not.toBeNull();
    const written = JSON.parse(readFileSync(path.join(saved.dir!, 'result.json'), 'utf8')) as AnalysisResult;
    expect(written.options).toMatchObject({ dummyKnob: 3, agents: ['quant'], version: 1 });
  });
});
