/**
 * MCP `analyze` with `blind: true` (and `samples`), through a spawned built CLI against the
 * loopback model: no request names the company, the result carries the alias and the scale.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { binPath, ensureBuilt, repoRoot } from '../smoke/support.js';
import { agentOf, goodAnswer, plan, schemaOf } from '../support/faults.js';
import { startOpenAIServer, textAnswer, type OpenAIServer } from '../support/openai-server.js';

let client: Client | undefined;
let openai: OpenAIServer | undefined;
beforeAll(async () => {
  await ensureBuilt();
}, 180_000);
afterEach(async () => {
  await client?.close().catch(() => {});
  await openai?.close();
});

describe('autohedge mcp: analyze with blind: true', () => {
  it('runs blind (alias, scale, no identity in any request) and samples the decision', async () => {
    // The scripted plan's thesis names Acme; a model that only saw the blind block would not.
    const neutralPlan = { ...plan, thesis: 'The company trades above its averages.' };
    openai = await startOpenAIServer((body, _index, request) =>
      schemaOf(body) === 'plan' ? textAnswer(JSON.stringify(neutralPlan)) : goodAnswer(agentOf(request), body),
    );
    const preload = pathToFileURL(path.join(repoRoot, 'tests', 'smoke', 'synthetic-yahoo.preload.mjs')).href;
    client = new Client({ name: 'autohedge-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: ['--import', preload, binPath, 'mcp', '--base-url', openai.url],
        env: {
          PATH: process.env.PATH ?? '',
          NO_COLOR: '1',
          AUTOHEDGE_HOME: mkdtempSync(path.join(tmpdir(), 'autohedge-mcp-blind-')),
          OPENAI_API_KEY: 'sk-mcp-blind-0123456789',
          YAHOO_STUB_COOKIE: 'A3=d=cookie-blind',
          YAHOO_STUB_CRUMB: 'crumbBlind01',
        },
        stderr: 'pipe',
      }),
    );
    const called = await client.callTool({ name: 'analyze', arguments: { ticker: 'ACME', blind: true, samples: 2 } });
    const result = called.structuredContent as {
      blind?: { alias: string; scale: number };
      stability?: { k: number; agreement: number };
      market: { indicators: { lastClose: number } };
      decision: { entry: number } | null;
      options: { blind?: boolean; samples?: number };
    };
    expect(called.isError, JSON.stringify(called.content)).toBeFalsy();
    expect(result.blind).toEqual({ alias: 'Company A', scale: result.market.indicators.lastClose / 100 });
    expect(result.stability).toMatchObject({ k: 2, agreement: 1 });
    expect(result.options).toMatchObject({ blind: true, samples: 2 });
    // goodAnswer places the decision at the request's "Last close: 100.00": real = 99 × scale.
    expect(result.decision?.entry).toBeCloseTo(99 * result.blind!.scale, 6);
    expect(openai.requests.length).toBeGreaterThanOrEqual(7);
    for (const request of openai.requests) {
      const sent = JSON.stringify(request.body.messages);
      expect(sent).not.toMatch(/ACME|Acme|\b20\d\d\b/);
      expect(request.body.tools).toBeUndefined();
    }
  }, 60_000);
});
