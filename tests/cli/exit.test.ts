import { describe, expect, it } from 'vitest';
import { exitCodeFor, exitCodeForStatus, formatError, isProgrammerError, worstExitCode } from '../../src/cli/exit.js';
import { runCli } from '../../src/cli/run-cli.js';
import { ScriptedModel } from '../../src/testing/scripted-model.js';
import { captureIo } from '../support/cli.js';
import {
  BudgetExceededError,
  CassetteError,
  ConfigError,
  DataError,
  InterruptedError,
  ModelError,
  UsageError,
} from '../../src/errors.js';

describe('exit codes, in one place', () => {
  it('maps each error class', () => {
    expect(exitCodeFor(new UsageError('x'))).toBe(2);
    expect(exitCodeFor(new ConfigError('x'))).toBe(2);
    expect(exitCodeFor(new CassetteError('x'))).toBe(2);
    expect(exitCodeFor(new DataError("unknown ticker 'X'", 'unknown-ticker'))).toBe(2);
    expect(exitCodeFor(new DataError('could not reach Yahoo Finance', 'unreachable'))).toBe(1);
    expect(exitCodeFor(new ModelError('bad key', 'authentication'))).toBe(2);
    expect(exitCodeFor(new ModelError('503', 'server'))).toBe(1);
    expect(exitCodeFor(new BudgetExceededError('cap'))).toBe(3);
    expect(exitCodeFor(new InterruptedError())).toBe(130);
    expect(exitCodeFor(new TypeError('a bug'))).toBe(1);
  });

  it('maps each run status', () => {
    expect(
      ['ok', 'degraded', 'flagged', 'failed', 'interrupted'].map((status) => exitCodeForStatus(status as never)),
    ).toEqual([0, 3, 4, 1, 130]);
  });

  it('gives several tickers the worst code: interrupted, usage, failed, flagged, degraded, ok', () => {
    expect(worstExitCode([0, 4, 3])).toBe(4);
    expect(worstExitCode([4, 1])).toBe(1);
    expect(worstExitCode([0, 3, 0])).toBe(3);
    expect(worstExitCode([3, 1, 0])).toBe(1);
    expect(worstExitCode([1, 2, 3])).toBe(2);
    expect(worstExitCode([2, 130])).toBe(130);
    expect(worstExitCode([])).toBe(0);
  });

  it('shows one line, the stack only when verbose', () => {
    const error = new DataError("unknown ticker 'XYZ'\nmore detail", 'unknown-ticker');
    expect(formatError(error, false)).toBe("autohedge: unknown ticker 'XYZ'");
    expect(formatError(error, true).split('\n').length).toBeGreaterThan(2);
    // The class is for bug reports: --verbose names it, the plain line does not.
    expect(formatError(error, true).split('\n')[0]).toBe("autohedge: DataError: unknown ticker 'XYZ'");
  });

  it('a programmer error looks unexpected, distinct from a domain error; the stack only when verbose', () => {
    const bug = new TypeError("Cannot read properties of undefined (reading 'close')");
    expect(formatError(bug, false)).toBe(
      "autohedge: unexpected error: Cannot read properties of undefined (reading 'close') (run with --verbose for the stack)",
    );
    const verbose = formatError(bug, true).split('\n');
    expect(verbose[0]).toBe("autohedge: unexpected error: Cannot read properties of undefined (reading 'close')");
    expect(verbose[1]).toMatch(/^TypeError: /);
    expect(formatError('a thrown string', false)).toBe(
      'autohedge: unexpected error: a thrown string (run with --verbose for the stack)',
    );
    // fetch's network failure is a TypeError too, but the world's fault, not ours.
    const network = new TypeError('fetch failed', {
      cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
    });
    expect(
      [bug, new RangeError('x'), new ReferenceError('x'), network, new UsageError('x'), new Error('x')].map(
        isProgrammerError,
      ),
    ).toEqual([true, true, true, false, false, false]);
  });

  it('a message is sanitised and scrubbed: no control sequence, no key shape', () => {
    const error = new ConfigError(
      'bad value \u001b]52;c;ZXZpbA==\u0007 sk-proj-abcdefghijklmnop at http://user:pw@host/v1?key=secret123',
    );
    expect(formatError(error, false)).toBe(
      'autohedge: bad value ␛]52;c;ZXZpbA==␇ REDACTED at http://REDACTED@host/v1?key=REDACTED',
    );
  });

  it('through the CLI: a bug in a dependency prints the unexpected-error line, exit 1', async () => {
    const io = captureIo();
    const market = {
      async snapshot(): Promise<never> {
        throw new TypeError("Cannot read properties of undefined (reading 'bars')");
      },
    };
    const code = await runCli(['analyze', 'ACME', '--json', '--quiet', '--no-save'], io, {
      model: new ScriptedModel([]),
      market,
      search: { search: async () => [] },
    });
    expect(code).toBe(1);
    expect(io.err()).toBe(
      "autohedge: unexpected error: Cannot read properties of undefined (reading 'bars') (run with --verbose for the stack)\n",
    );
    expect(io.out()).toBe('');
  });
});
