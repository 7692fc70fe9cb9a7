import { z } from 'zod';
import { escapeHtml } from '../report/escape.js';
import { formatCost } from '../report/format.js';
import type { RunSummary } from '../store/index.js';
import { sitePage, type SiteContext } from './layout.js';
import { linkFrom, sitePaths } from './links.js';

/**
 * The runs list: newest first (the run index's order), filtered by ticker, status and
 * mode, fifty to a page. The server reads the filters from the query string; the bundle
 * writes every page unfiltered. A run that could not be read is listed with its state.
 */

export const runsPerPage = 50;

const statuses = ['ok', 'degraded', 'flagged', 'failed', 'interrupted', 'partial', 'corrupt', 'unreadable'] as const;
const modes = ['full', 'desks', 'demo', 'real'] as const;

/** The query of the runs list; anything else is ignored, anything malformed is dropped, never echoed. */
export const runsQuerySchema = z.object({
  ticker: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z0-9.^=-]{1,15}$/)
    .optional()
    .catch(undefined),
  status: z.enum(statuses).optional().catch(undefined),
  mode: z.enum(modes).optional().catch(undefined),
});

export type RunsQuery = z.infer<typeof runsQuerySchema>;

function statusOf(run: RunSummary): string {
  return run.state === 'ok' ? (run.status ?? 'n/a') : run.state;
}

export function filterRuns(runs: readonly RunSummary[], query: RunsQuery): RunSummary[] {
  return runs.filter(
    (run) =>
      (!query.ticker || run.ticker?.toUpperCase() === query.ticker) &&
      (!query.status || statusOf(run) === query.status) &&
      (!query.mode || (query.mode === 'demo' ? run.demo : query.mode === 'real' ? !run.demo : run.mode === query.mode)),
  );
}

export function pageCount(total: number): number {
  return Math.max(1, Math.ceil(total / runsPerPage));
}

function queryString(query: RunsQuery): string {
  const entries = Object.entries(query).filter((entry): entry is [string, string] => typeof entry[1] === 'string');
  return entries.length === 0 ? '' : `?${new URLSearchParams(entries).toString()}`;
}

function rowHtml(run: RunSummary, path: string): string {
  const status = statusOf(run);
  const id = escapeHtml(run.runId);
  const when = escapeHtml(run.when.replace(/\.\d+Z$/, 'Z').replace('T', ' '));
  // The time links to the report: a short first cell, so a phone reaches it without scrolling.
  const link = run.state === 'ok' ? `<a href="${linkFrom(path, sitePaths.run(run.runId))}">${when}</a>` : when;
  const decision = run.action ? `${run.action} ${run.conviction ?? ''}` : '—';
  const mode = `${run.demo ? 'demo, ' : ''}${run.mode ?? 'n/a'}`;
  const cost = run.demo ? 'none (demo)' : formatCost(run.costUsd);
  const problem = run.problem ? `<br><span class="meta">${escapeHtml(run.problem)}</span>` : '';
  const cells = [
    link,
    escapeHtml(run.ticker ?? '—'),
    escapeHtml(decision),
    `<span class="status status-${escapeHtml(status)}">${escapeHtml(status)}</span>${problem}`,
    escapeHtml(mode),
    escapeHtml(cost),
    `<code class="nowrap">${id}</code>`,
  ];
  return `<tr data-run="${id}">${cells.map((cell, index) => `<td${index === 5 ? ' class="number"' : ''}>${cell}</td>`).join('')}</tr>`;
}

function filterForm(query: RunsQuery): string {
  const options = (values: readonly string[], chosen: string | undefined) =>
    ['', ...values]
      .map(
        (value) => `<option value="${value}"${value === (chosen ?? '') ? ' selected' : ''}>${value || 'any'}</option>`,
      )
      .join('');
  return [
    '<form class="filters" method="get" action="index.html">',
    `<label>ticker <input name="ticker" value="${escapeHtml(query.ticker ?? '')}" size="8"></label>`,
    `<label>status <select name="status">${options(statuses, query.status)}</select></label>`,
    `<label>mode <select name="mode">${options(modes, query.mode)}</select></label>`,
    '<button type="submit">filter</button>',
    '</form>',
  ].join('\n');
}

function pagerHtml(path: string, page: number, pages: number, query: RunsQuery, live: boolean): string {
  if (pages <= 1) return '';
  const suffix = live ? escapeHtml(queryString(query)) : '';
  const link = (target: number, label: string) =>
    `<a href="${linkFrom(path, sitePaths.runs(target))}${suffix}" data-page="${target}">${label}</a>`;
  const parts = [
    page > 1 ? link(page - 1, '← newer') : '',
    `<span>page ${page} of ${pages}</span>`,
    page < pages ? link(page + 1, 'older →') : '',
  ];
  return `<p class="pager">${parts.filter(Boolean).join(' ')}</p>`;
}

/** One page of the list (1-based); null when the page does not exist. */
export function runsPage(
  runs: readonly RunSummary[],
  page: number,
  query: RunsQuery,
  context: SiteContext,
): string | null {
  const filtered = filterRuns(runs, query);
  const pages = pageCount(filtered.length);
  if (page < 1 || page > pages) return null;
  const path = sitePaths.runs(page);
  const shown = filtered.slice((page - 1) * runsPerPage, page * runsPerPage);
  const head = ['when', 'ticker', 'decision', 'status', 'mode', 'cost', 'run'];
  const body = [
    `<h1>Runs</h1>`,
    `<p class="meta">${filtered.length} of ${runs.length} saved run(s), newest first.</p>`,
    context.live ? filterForm(query) : '',
    pagerHtml(path, page, pages, query, context.live),
    `<div class="scroll"><table class="runs"><thead><tr>${head.map((label, index) => `<th${index === 5 ? ' class="number"' : ''}>${label}</th>`).join('')}</tr></thead>`,
    `<tbody>\n${shown.map((run) => rowHtml(run, path)).join('\n')}\n</tbody></table></div>`,
    shown.length === 0 ? '<p class="meta">No saved run matches.</p>' : '',
    pagerHtml(path, page, pages, query, context.live),
  ];
  return sitePage(path, 'Runs', body.filter(Boolean).join('\n'), context);
}
