/**
 * The MCP `evaluate` tool of a demo server (`autohedge mcp --demo`): it scores the demo
 * runs against the bundled synthetic prices, offline, exactly as `evaluate --demo --json`.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { beforeAll, describe, expect, it } from 'vitest';
import { binPath, ensureBuilt, runBuilt } from '../smoke/support.js';

beforeAll(ensureBuilt, 180_000);

describe('autohedge mcp --demo: the evaluate tool', () => {
  it("answers with `evaluate --demo --json`'s value, labelled DEMO, with no network", async () => {
    const home = mkdtempSync(path.join(tmpdir(), 'autohedge-mcp-demo-evaluate-'));
    const analysed = await runBuilt(['analyze', 'ACME', '--demo', '--quiet'], { home });
    expect(analysed.code, analysed.stderr).toBe(0);
    const cli = await runBuilt(['evaluate', '--demo', '--json', '--no-save'], { home });
    expect(cli.code, cli.stderr).toBe(0);
    const printed = JSON.parse(cli.stdout) as Record<string, unknown>;

    const client = new Client({ name: 'autohedge-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [binPath, 'mcp', '--demo'],
        env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', AUTOHEDGE_HOME: home },
        stderr: 'pipe',
      }),
    );
    try {
      const answer = await client.callTool({ name: 'evaluate', arguments: {} });
      expect(answer.isError, JSON.stringify(answer.content)).not.toBe(true);
      const served = answer.structuredContent as Record<string, unknown>;
      expect(served).toEqual(printed);
      expect(served.demo).toMatchObject({ runs: 1, syntheticPrices: true });
      // The assistant reads the text first: it opens with the DEMO line.
      const [text] = answer.content as { type: string; text: string }[];
      expect(text?.text.split('\n')[0]).toMatch(/^DEMO — 1 demo decision\(s\) scored against synthetic prices/);

      // A demo run cost nothing, as `autohedge runs` says "none (demo)".
      const listed = await client.callTool({ name: 'runs_list', arguments: {} });
      const runs = (listed.structuredContent as { runs: { demo: boolean; costUsd: number | null }[] }).runs;
      expect(runs).toHaveLength(1);
      expect(runs[0]).toMatchObject({ demo: true, costUsd: 0 });
      expect(JSON.stringify(listed.content)).toContain('cost none (demo)');

      const refused = await client.callTool({ name: 'evaluate', arguments: { horizons: [5] } });
      expect(refused.isError).toBe(true);
      // In the words of the tool's inputs, not the CLI's flags.
      const [refusal] = refused.content as { type: string; text: string }[];
      expect(refusal?.text).toContain(
        'horizons [5] cannot be scored by this demo server (autohedge mcp --demo) (horizons must end at 63, e.g. horizons [5, 21, 63])',
      );
      expect(refusal?.text).not.toContain('--horizon');
      expect(refusal?.text).not.toContain('combined with --demo');

      const historical = await client.callTool({ name: 'analyze', arguments: { ticker: 'ACME', asOf: '2026-11-20' } });
      expect(historical.isError).toBe(true);
      expect(JSON.stringify(historical.content)).toContain(
        'this demo server (autohedge mcp --demo) replays a live run of its own day: leave asOf out',
      );
    } finally {
      await client.close();
    }
  }, 120_000);
});
