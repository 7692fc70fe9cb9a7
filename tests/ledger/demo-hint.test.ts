import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { appendRunToLedger } from '../../src/ledger/index.js';
import { captureIo, type CapturedIo } from '../support/cli.js';
import { makeDecision, makeResult } from '../support/results.js';

/** Issue 44 items 9 and 21: after the quick start (demo runs only) the ledger commands point at the demo ledger. */

async function demoOnlyHome(): Promise<CapturedIo> {
  const io = captureIo();
  const home = io.env.AUTOHEDGE_HOME!;
  for (const suffix of ['aaaaaa', 'bbbbbb']) {
    const result = makeResult({ runId: `20261127T210000Z-ACME-${suffix}`, demo: true, decision: makeDecision() });
    await appendRunToLedger({ home, result, resultJson: JSON.stringify(result) });
  }
  return io;
}

async function cli(io: CapturedIo, args: string[]) {
  const run = captureIo({ env: io.env, cwd: io.cwd });
  const code = await runCli(args, run);
  return { code, out: run.out(), err: run.err() };
}

describe('the ledger after the quick start', () => {
  it.each([
    [['verify'], 'verify'],
    [['list'], 'list'],
    [['head'], 'head'],
    [['export', 'out.jsonl'], 'export out.jsonl'],
  ])('ledger %j names the demo ledger and --demo', async (args, command) => {
    const io = await demoOnlyHome();
    const { code, err } = await cli(io, ['ledger', ...args]);
    expect(code).toBe(2);
    expect(err).toContain("the demo's decisions are in the demo ledger");
    expect(err).toContain(`\`autohedge ledger ${command} --demo\``);
  });

  it('ledger list --demo shows MODE demo', async () => {
    const io = await demoOnlyHome();
    const { code, out } = await cli(io, ['ledger', 'list', '--demo']);
    expect(code).toBe(0);
    const rows = out.trimEnd().split('\n');
    expect(rows).toHaveLength(3);
    const modeColumn = rows[0]!.indexOf('MODE');
    for (const row of rows.slice(1)) expect(row.slice(modeColumn, modeColumn + 4)).toBe('demo');
  });

  it('a home with no ledger at all keeps the plain line', async () => {
    const io = captureIo();
    const { code, err } = await cli(io, ['ledger', 'list']);
    expect(code).toBe(2);
    expect(err).toContain('no ledger at');
    expect(err).not.toContain('--demo');
  });
});
