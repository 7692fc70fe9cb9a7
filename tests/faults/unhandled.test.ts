// The suite's guard (tests/support/setup.ts): an error nobody handles fails the test
// it happened in. Proved on a fixture run by a child vitest with the same setup file.
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..', '..');

interface JsonReport {
  success: boolean;
  testResults: Array<{ assertionResults: Array<{ title: string; status: string; failureMessages: string[] }> }>;
}

function runFixture(): Promise<{ code: number | null; report: JsonReport }> {
  return new Promise((done, fail) => {
    execFile(
      process.execPath,
      [
        resolve(root, 'node_modules/vitest/vitest.mjs'),
        'run',
        '--config',
        'tests/faults/fixtures/vitest.config.ts',
        '--reporter=json',
      ],
      { cwd: root, env: { ...process.env, NO_COLOR: '1' }, timeout: 30_000 },
      (error, stdout) => {
        try {
          done({
            code: error ? ((error as { code?: number }).code ?? null) : 0,
            report: JSON.parse(stdout) as JsonReport,
          });
        } catch (parseError) {
          fail(parseError);
        }
      },
    );
  });
}

it('an unawaited rejection or an exception thrown from a timer fails the test it came from, and the run', async () => {
  const { code, report } = await runFixture();
  expect(code).toBe(1);
  expect(report.success).toBe(false);
  const results = report.testResults
    .flatMap((file) => file.assertionResults)
    .map((test) => [test.title, test.status, test.failureMessages[0]?.split('\n')[0] ?? null]);
  expect(results).toEqual([
    [
      'leaves a rejected promise nobody awaits',
      'failed',
      'Error: unhandled rejection or uncaught exception during the test: Error: canary: nobody awaited this',
    ],
    [
      'throws from a timer after the test body returned',
      'failed',
      'Error: unhandled rejection or uncaught exception during the test: Error: canary: thrown from a timer',
    ],
    ['is clean', 'passed', null],
  ]);
});
