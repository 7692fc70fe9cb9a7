// Fault matrix, --max-cost under --demo / --replay: a cap reached while replaying ends
// the way it ends live — degraded, exit 3, the capped call named — never as a cassette
// miss (exit 2), although the requests after the cap are not in the recording.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import type { AnalysisResult } from '../../src/result/types.js';
import { captureIo } from '../support/cli.js';

const demoCassette = join(import.meta.dirname, '..', '..', 'demo', 'demo.cassette.json');

// First: a second full demo in one process cannot replay its Exa search (exa-js keeps the fetch it
// found when first imported), and this is the only run here that needs it.
it('a cap the demo never reaches changes nothing: ok, exit 0', async () => {
  const io = captureIo();
  expect(await runCli(['analyze', 'ACME', '--demo', '--max-cost', '1', '--json', '--no-save'], io)).toBe(0);
  expect((JSON.parse(io.out()) as AnalysisResult).status).toBe('ok');
});

describe.each([
  ['--demo', ['--demo']],
  ['--replay', ['--replay', demoCassette]],
])('--max-cost reached under %s', (_, source) => {
  it('degraded, exit 3, no decision, the capped call named, no replay miss', async () => {
    const io = captureIo();
    const code = await runCli(['analyze', 'ACME', ...source, '--max-cost', '0.03', '--json', '--no-save'], io);
    const result = JSON.parse(io.out()) as AnalysisResult;
    expect(code).toBe(3);
    expect(result.status).toBe('degraded');
    expect(result.decision).toBeNull();
    expect(io.err()).not.toContain('no recorded response');
    // The desk the cap stopped first is named, in its own report and in the Director's error.
    const capped = result.reports.find((report) =>
      /^--max-cost \$0\.0300 reached: the next \w+ call could cost up to \$/.test(report.error ?? ''),
    );
    expect(capped, JSON.stringify(result.reports.map((report) => report.error))).toBeDefined();
    expect(capped).toMatchObject({ status: 'failed' });
    expect(capped!.error).toContain(`the next ${capped!.agent} call`);
    expect(result.error).toMatch(
      new RegExp(
        `^Director decision failed: --max-cost \\$0\\.0300 was reached at the ${capped!.agent} call; a replay cannot go past a cap`,
      ),
    );
  });
});
