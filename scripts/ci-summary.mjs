#!/usr/bin/env node
// Sums vitest JSON reports (one per Node version) into the line CI reads last:
// `N passed, N failed`. Exits 1 when a report is missing or unreadable, a test or
// a test file failed, or a run executed no test at all.
//
//   node scripts/ci-summary.mjs --dir <reports> [--expect 20,22,24]
//
// Reports are named `node-<full version>.json` (e.g. node-22.23.5.json); --expect
// lists the Node majors that must each have one.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    dir: { type: 'string' },
    expect: { type: 'string', default: '' },
  },
});
if (!values.dir) {
  console.error('usage: ci-summary.mjs --dir <reports directory> [--expect 20,22,24]');
  process.exit(2);
}

const reportPattern = /^node-(\d+)\.(\d+)\.(\d+)\.json$/;
let files = [];
try {
  files = readdirSync(values.dir).filter((name) => reportPattern.test(name));
} catch {
  // A missing directory is reported below as missing reports.
}
files.sort((left, right) => Number(reportPattern.exec(left)[1]) - Number(reportPattern.exec(right)[1]));

const problems = [];
const expectedMajors = values.expect.split(',').filter(Boolean);
for (const major of expectedMajors) {
  if (!files.some((name) => reportPattern.exec(name)[1] === major))
    problems.push(`node ${major}: no vitest report (it did not run, or did not finish)`);
}

const counts = ['numTotalTests', 'numPassedTests', 'numFailedTests', 'numPendingTests', 'numTodoTests'];

/** The fields read below, checked: valid JSON that is not a vitest report must not crash the summary. */
function checkReport(report) {
  const fail = (reason) => {
    throw new Error(`not a vitest JSON report: ${reason}`);
  };
  if (typeof report !== 'object' || report === null || Array.isArray(report)) fail('not an object');
  for (const count of counts) if (typeof report[count] !== 'number') fail(`${count} is not a number`);
  if (!Array.isArray(report.testResults)) fail('testResults is not an array');
  report.testResults.forEach((result, index) => {
    if (typeof result !== 'object' || result === null || !Array.isArray(result.assertionResults))
      fail(`testResults[${index}].assertionResults is not an array`);
  });
  return report;
}

let passed = 0;
let failed = 0;
for (const name of files) {
  const label = `node ${name.replace(/^node-/, '').replace(/\.json$/, '')}`;
  let report;
  try {
    report = checkReport(JSON.parse(readFileSync(path.join(values.dir, name), 'utf8')));
  } catch (error) {
    problems.push(`${label}: unreadable vitest report (${error.message})`);
    continue;
  }
  const problemsBefore = problems.length;
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  const skipped = report.numPendingTests + report.numTodoTests;
  console.log(`${label}: ${report.numPassedTests} passed, ${report.numFailedTests} failed, ${skipped} skipped`);
  // A file that cannot even load fails no test, so it is counted from the files.
  for (const file of report.testResults.filter(
    (result) => result.status === 'failed' && result.assertionResults.every((test) => test.status !== 'failed'),
  )) {
    problems.push(
      `${label}: ${path.relative(process.cwd(), file.name)} failed to run: ${String(file.message).split('\n')[0]}`,
    );
  }
  if (report.numFailedTests > 0) problems.push(`${label}: ${report.numFailedTests} test(s) failed`);
  if (report.numTotalTests === 0) problems.push(`${label}: no test ran`);
  if (!report.success && problems.length === problemsBefore)
    problems.push(`${label}: vitest reported failure (an error outside any test)`);
}

for (const problem of problems) console.log(`FAILED ${problem}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(problems.length > 0 ? 1 : 0);
