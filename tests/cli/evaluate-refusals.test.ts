import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { saveRun } from '../../src/store/index.js';
import { captureIo } from '../support/cli.js';
import { makeDecision, makeResult } from '../support/results.js';

/** Issue 44 items 20 and 28: a refusal says its cause in a short line, naming the option at fault. */

describe('evaluate refusals', () => {
  it('a demo-only home without --demo: a count by kind, not every run listed', async () => {
    const io = captureIo();
    const home = io.env.AUTOHEDGE_HOME as string;
    for (let index = 0; index < 9; index += 1)
      await saveRun(
        home,
        makeResult({ runId: `20261127T210000Z-ACME-demo0${index}`, demo: true, decision: makeDecision() }),
        {
          transcript: [],
          markdown: '',
        },
      );
    for (let index = 0; index < 4; index += 1)
      await saveRun(
        home,
        makeResult({ runId: `20261127T210000Z-ACME-fail0${index}`, demo: true, decision: null, status: 'failed' }),
        { transcript: [], markdown: '' },
      );
    const code = await runCli(['evaluate'], io, {});
    expect(code).toBe(2);
    const line = io.err().trim();
    expect(line).toContain('9 demo run(s): score them with `autohedge evaluate --demo`; 4 without a decision');
    expect(line).not.toContain('demo00');
    expect(line.split('\n')).toHaveLength(1);
    expect(line.length).toBeLessThan(300);
  });

  it('evaluate --demo --benchmark QQQ names --benchmark, not the horizons', async () => {
    const io = captureIo();
    expect(await runCli(['evaluate', '--demo', '--benchmark', 'QQQ'], io, {})).toBe(2);
    expect(io.err()).toContain('--benchmark QQQ cannot be combined with --demo (drop --benchmark, or use SPY)');
    expect(io.err()).not.toContain('horizon');
  });
});
