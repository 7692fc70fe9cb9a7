/**
 * scripts/ci-summary.mjs prints the line CI reads last, `N passed, N failed`, and
 * fails the job on any problem — also when a report is valid JSON but not a vitest report.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { repoRoot } from '../smoke/support.js';

const script = path.join(repoRoot, 'scripts', 'ci-summary.mjs');

let reports: string;

beforeEach(() => {
  reports = mkdtempSync(path.join(tmpdir(), 'autohedge-ci-summary-'));
});

afterEach(() => {
  rmSync(reports, { recursive: true, force: true });
});

function summarise(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [script, '--dir', reports, ...args], { encoding: 'utf8' }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr });
    });
  });
}

const passing = {
  success: true,
  numTotalTests: 3,
  numPassedTests: 3,
  numFailedTests: 0,
  numPendingTests: 0,
  numTodoTests: 0,
  testResults: [
    {
      name: path.join(repoRoot, 'tests', 'a.test.ts'),
      status: 'passed',
      message: '',
      assertionResults: [{ status: 'passed' }],
    },
  ],
};

it('sums passing reports into the last line, exit 0', async () => {
  writeFileSync(path.join(reports, 'node-20.19.5.json'), JSON.stringify(passing));
  writeFileSync(path.join(reports, 'node-22.21.1.json'), JSON.stringify(passing));
  const run = await summarise('--expect', '20,22');
  expect([run.code, run.stderr]).toEqual([0, '']);
  expect(run.stdout).toBe(
    'node 20.19.5: 3 passed, 0 failed, 0 skipped\nnode 22.21.1: 3 passed, 0 failed, 0 skipped\n6 passed, 0 failed\n',
  );
});

it.each([
  ['{}', 'numTotalTests is not a number'],
  ['null', 'not an object'],
  ['[]', 'not an object'],
  [JSON.stringify({ ...passing, testResults: undefined }), 'testResults is not an array'],
  [JSON.stringify({ ...passing, numFailedTests: '0' }), 'numFailedTests is not a number'],
  [
    JSON.stringify({ ...passing, testResults: [{ name: 'x', status: 'failed' }] }),
    'testResults[0].assertionResults is not an array',
  ],
])(
  'a report that is JSON but not a vitest report (%s) is a problem, and the last line still comes',
  async (text, reason) => {
    writeFileSync(path.join(reports, 'node-20.19.5.json'), text);
    writeFileSync(path.join(reports, 'node-22.21.1.json'), JSON.stringify(passing));
    const run = await summarise();
    expect([run.code, run.stderr]).toEqual([1, '']);
    expect(run.stdout).toBe(
      `node 22.21.1: 3 passed, 0 failed, 0 skipped\nFAILED node 20.19.5: unreadable vitest report (not a vitest JSON report: ${reason})\n3 passed, 0 failed\n`,
    );
  },
);

it('a report that is not JSON is a problem, and the last line still comes', async () => {
  writeFileSync(path.join(reports, 'node-20.19.5.json'), '{"numPassedTests": 3');
  const run = await summarise();
  expect(run.code).toBe(1);
  expect(run.stdout).toMatch(/^FAILED node 20\.19\.5: unreadable vitest report \(.+\)\n0 passed, 0 failed\n$/);
});
