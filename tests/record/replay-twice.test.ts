import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import type { AnalysisResult } from '../../src/result/types.js';
import { captureIo } from '../support/cli.js';

// The MCP server and a queue worker replay many analyses in one process. exa-js keeps the
// fetch it saw when first imported, so every replay must reach it through the same patch.
describe('replaying twice in one process', () => {
  it('the second --demo analysis replays its Exa search and decision like the first', async () => {
    const results: AnalysisResult[] = [];
    for (let run = 0; run < 2; run += 1) {
      const io = captureIo();
      const code = await runCli(['analyze', 'ACME', '--demo', '--json', '--no-save', '--quiet'], io);
      expect(code, io.err()).toBe(0);
      results.push(JSON.parse(io.out()) as AnalysisResult);
    }
    const [first, second] = results;
    expect(second?.decision).toEqual(first?.decision);
    const searches = results.map(
      (result) => result.reports.find((report) => report.agent === 'sentiment')?.toolCalls[0],
    );
    expect(searches[1]?.error).toBeNull();
    expect(searches[1]?.result).toBe(searches[0]?.result);
  });

  it('a session that fails after its replay started leaves none active: the next replay runs', async () => {
    const failing = captureIo();
    failing.env.AUTOHEDGE_STRUCTURED = 'bogus';
    expect(await runCli(['market', 'ACME', '--demo'], failing)).toBe(2);
    expect(failing.err()).toContain('AUTOHEDGE_STRUCTURED');
    const next = captureIo();
    expect(await runCli(['market', 'ACME', '--demo', '--json'], next), next.err()).toBe(0);
    expect(JSON.parse(next.out())).toMatchObject({ symbol: 'ACME' });
  });
});
