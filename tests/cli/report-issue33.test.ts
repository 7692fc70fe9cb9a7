import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ensureBuilt, runBuilt, type ChildRun } from '../smoke/support.js';

/**
 * The report-side items of #33 through the built CLI on the demo: the sources once in
 * the terminal (item 14), the usage rows adding up in report.html (item 4), one as-of
 * named apart from the quote time in every format (item 9), chart.svg's own title
 * and a date range that matches the terminal's (item 18).
 */

let out: string;
let sentiment: ChildRun;
let full: ChildRun;
let capped: ChildRun;
let cappedOut: string;

beforeAll(async () => {
  await ensureBuilt();
  out = mkdtempSync(path.join(tmpdir(), 'autohedge-issue33-'));
  cappedOut = mkdtempSync(path.join(tmpdir(), 'autohedge-issue33-capped-'));
  [sentiment, full, capped] = await Promise.all([
    runBuilt(['analyze', 'ACME', '--agent', 'sentiment', '--demo', '--quiet', '--no-save']),
    runBuilt(['analyze', 'ACME', '--demo', '--quiet', '--no-save', '--out', out]),
    runBuilt(['analyze', 'ACME', '--demo', '--quiet', '--no-save', '--max-cost', '0.02', '--out', cappedOut]),
  ]);
}, 120_000);

afterAll(() => {
  for (const directory of [out, cappedOut]) rmSync(directory, { recursive: true, force: true });
});

const file = (name: string) => readFileSync(path.join(out, name), 'utf8');

describe('analyze ACME --demo: the report, per #33', () => {
  test('a run the cap degraded opens with a banner saying why, above the decision, in all three formats', () => {
    const reason = 'DEGRADED: the Quant, Risk, Execution, Sentiment desks failed; the --max-cost cap was reached.';
    const terminal = capped.stdout.replace(/\n(?!\n)/g, ' ');
    expect(terminal, capped.stderr).toContain(reason);
    expect(terminal.indexOf('DEGRADED:')).toBeLessThan(terminal.indexOf('-- Decision'));
    const markdown = readFileSync(path.join(cappedOut, 'report.md'), 'utf8');
    expect(markdown).toContain(`> **${reason}`);
    expect(markdown.indexOf('> **DEGRADED:')).toBeLessThan(markdown.indexOf('## Decision'));
    const html = readFileSync(path.join(cappedOut, 'report.html'), 'utf8');
    expect(html).toContain(`data-status="" data-tone="warning" role="alert">${reason}`);
    expect(html.indexOf('data-status=""')).toBeLessThan(html.indexOf('<section id="decision"'));
    // The run with no decision claims no clean guardrail check.
    expect(capped.stdout).not.toContain('No findings.');
  });

  test('--agent sentiment lists each source once in the terminal', () => {
    expect(sentiment.code, sentiment.stderr).toBe(0);
    const url = 'https://news.example.com/2026/11/05/acme-robotics-q3-results';
    expect(sentiment.stdout.split(url).length - 1).toBe(1);
    expect(sentiment.stdout).not.toMatch(/^SOURCES$/m);
    expect(sentiment.stdout).toContain('Sources cited by Sentiment');
    // The desk's other sections are still there.
    expect(sentiment.stdout).toMatch(/^CONTRARIAN SIGNALS$/m);
  });

  test("report.html's usage rows add up to the total, the search a row of its own", () => {
    expect(full.code, full.stderr).toBe(0);
    const html = file('report.html');
    const usage = html.slice(html.indexOf('<section id="usage">'));
    const table = usage.slice(0, usage.indexOf('</table>'));
    const rows = [...table.matchAll(/<tr>(.*?)<\/tr>/g)].map((match) =>
      [...match[1]!.matchAll(/<t[dh][^>]*>(.*?)<\/t[dh]>/g)].map((cell) => cell[1]!),
    );
    const costs = rows.slice(1, -1).map((row) => Number(row[5]!.replace('$', '')));
    const total = Number(rows[rows.length - 1]![5]!.replace(/<\/?strong>/g, '').replace('$', ''));
    expect(rows.some((row) => row[0]!.startsWith('search (1 × exa)'))).toBe(true);
    expect(costs.reduce((sum, cost) => sum + cost, 0)).toBeCloseTo(total, 3);
  });

  test('the run settings name max position, max risk and min reward/risk', () => {
    for (const text of [file('report.html'), file('report.md')])
      expect(text).toMatch(/max position 10\.0% · max risk 2\.0% · min reward\/risk 1\.00/);
  });

  test('the quote time and the session close are named apart, the same in all three formats', () => {
    const quote = '2026-11-27 18:00 UTC';
    // The demo day closed early (13:00 New York): the as-of is that real close, not 21:00 UTC (issue 44 item 30).
    const close = '2026-11-27 18:00 UTC (session close)';
    expect(full.stdout).toContain(`quote time ${quote}`);
    expect(full.stdout).toContain(`as of ${close}`);
    expect(full.stdout).not.toContain('21:00 UTC');
    expect(file('report.md')).toContain(`| Quote time | ${quote} |`);
    expect(file('report.md')).toContain(`as of ${close}`);
    expect(file('report.html')).toContain(`<dt>Quote time</dt><dd>${quote}</dd>`);
    expect(file('report.html')).toContain(`as of ${close}`);
  });

  test("chart.svg carries a visible title with the ticker, its dates those of the terminal's chart", () => {
    const svg = file('chart.svg');
    const heading = /<text data-heading=""[^>]*>([^<]*)<\/text>/.exec(svg)?.[1] ?? '';
    expect(heading).toContain('(ACME)');
    const range = /(\d{4}-\d{2}-\d{2}) to (\d{4}-\d{2}-\d{2})/.exec(heading);
    expect(range).not.toBeNull();
    const axis = full.stdout.split('\n').find((line) => /^\s+\d{4}-\d{2}-\d{2}\s+\d{4}-\d{2}-\d{2}$/.test(line));
    expect(axis?.trim().split(/\s+/)).toEqual([range![1], range![2]]);
  });
});
