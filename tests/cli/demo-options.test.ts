import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { captureIo } from '../support/cli.js';

describe('analyze --demo with options the demo was not recorded with', () => {
  it.each([
    [['--model', 'gpt-4.1'], '--model'],
    [['--search', 'none'], '--search'],
    [['--max-position', '1'], '--max-position'],
    [['--max-risk', '5'], '--max-risk'],
    [['--min-reward-risk', '2'], '--min-reward-risk'],
  ])('%j is one usage line naming the flag, exit 2, nothing on stdout', async (flags, flag) => {
    const io = captureIo();
    expect(await runCli(['analyze', 'ACME', '--demo', ...flags], io)).toBe(2);
    expect(io.err().trim().split('\n')).toEqual([
      `autohedge: UsageError: the demo is recorded with the default models, search and guardrail limits: ${flag} cannot be combined with --demo (record your own cassette with --record)`,
    ]);
    expect(io.out()).toBe('');
  });

  it('the defaults spelled out still replay', async () => {
    const io = captureIo();
    expect(
      await runCli(
        ['analyze', 'ACME', '--demo', '--search', 'exa', '--max-position', '10', '--json', '--no-save', '--quiet'],
        io,
      ),
      io.err(),
    ).toBe(0);
  });
});
