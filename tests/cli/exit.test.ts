import { describe, expect, it } from 'vitest';
import { exitCodeFor, exitCodeForStatus, formatError, worstExitCode } from '../../src/cli/exit.js';
import { BudgetExceededError, CassetteError, ConfigError, DataError, InterruptedError, ModelError, UsageError } from '../../src/errors.js';

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
    expect(['ok', 'degraded', 'flagged', 'failed', 'interrupted'].map((status) => exitCodeForStatus(status as never))).toEqual([0, 3, 4, 1, 130]);
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
    expect(formatError(error, false)).toBe("autohedge: DataError: unknown ticker 'XYZ'");
    expect(formatError(error, true).split('\n').length).toBeGreaterThan(2);
  });
});
