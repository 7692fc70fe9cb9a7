import { escapeHtml } from '../report/escape.js';
import { evaluationMainHtml } from '../report/evaluation-html.js';
import { evaluationPage, headlineGroup, type EvaluationDocument } from '../report/evaluation-page.js';
import type { RunSummary } from '../store/index.js';
import type { SavedEvaluation } from './evaluations.js';
import { sitePage, type SiteContext } from './layout.js';
import { linkFrom, sitePaths } from './links.js';

/**
 * The site's simple pages: the overview, the lists of evaluations, portfolios and watch
 * cycles, and an evaluation's page inside the site's frame (its decisions linking to the
 * run pages that exist).
 */

export interface TrackRecordSource {
  document: EvaluationDocument;
  /** Where it came from, in words: "saved evaluation …", "computed … from the saved prices". */
  origin: string;
}

export function evaluationSitePage(
  path: string,
  source: TrackRecordSource,
  runIds: ReadonlySet<string>,
  context: SiteContext & { computeLink: boolean },
): string {
  const runLink = (runId: string) => (runIds.has(runId) ? linkFrom(path, sitePaths.run(runId)) : null);
  const page = evaluationPage(source.document, { runLink });
  const compute =
    context.computeLink && context.live
      ? ` <a href="${linkFrom(path, sitePaths.trackRecord)}?compute=1">Compute it now from the saved prices</a>.`
      : '';
  const origin = `<p class="meta" data-origin="">${escapeHtml(source.origin)}.${compute}</p>`;
  return sitePage(path, page.title, `${origin}\n${evaluationMainHtml(page)}`, context);
}

function listHtml(items: Array<{ href: string; label: string; note?: string }>, empty: string): string {
  if (items.length === 0) return `<p class="meta">${escapeHtml(empty)}</p>`;
  const lines = items.map(
    (item) =>
      `<li><a href="${item.href}">${escapeHtml(item.label)}</a>${item.note ? ` <span class="meta">${escapeHtml(item.note)}</span>` : ''}</li>`,
  );
  return `<ul class="listing">\n${lines.join('\n')}\n</ul>`;
}

export function evaluationsPage(saved: readonly SavedEvaluation[], context: SiteContext): string {
  const path = sitePaths.evaluations;
  const items = saved.map(({ id, document }) => ({
    href: linkFrom(path, sitePaths.evaluation(id)),
    label: id,
    note: `${document.demo ? 'DEMO · ' : ''}${document.decisions.length} decision(s) against ${document.benchmark}, prices to ${document.evaluatedAt.slice(0, 10)}${document.forward?.applied ? ' · forward-only' : ''}`,
  }));
  const body = `<h1>Evaluations</h1>\n<p class="meta">Saved by <code>autohedge evaluate</code>, newest first.</p>\n${listHtml(items, 'No saved evaluation yet: run `autohedge evaluate`.')}`;
  return sitePage(path, 'Evaluations', body, context);
}

export function folderListPage(kind: 'portfolios' | 'watch', ids: readonly string[], context: SiteContext): string {
  const path = kind === 'portfolios' ? sitePaths.portfolios : sitePaths.watch;
  const target = kind === 'portfolios' ? sitePaths.portfolio : sitePaths.cycle;
  const title = kind === 'portfolios' ? 'Portfolios' : 'Watch cycles';
  const empty =
    kind === 'portfolios'
      ? 'No saved portfolio yet: run `autohedge portfolio`.'
      : 'No saved watch cycle yet: run `autohedge watch`.';
  const items = ids.map((id) => ({ href: linkFrom(path, target(id)), label: id }));
  return sitePage(
    path,
    title,
    `<h1>${title}</h1>\n<p class="meta">Newest first.</p>\n${listHtml(items, empty)}`,
    context,
  );
}

export interface Overview {
  runs: readonly RunSummary[];
  trackRecord: TrackRecordSource | null;
  ledgerLine: string;
}

export function overviewPage(overview: Overview, context: SiteContext): string {
  const path = sitePaths.home;
  const record = overview.trackRecord;
  const group = record ? headlineGroup(record.document.summary.groups) : null;
  const headline = record
    ? evaluationPage(record.document)
        .headline.map((line) => `<li>${escapeHtml(line)}</li>`)
        .join('\n')
    : '<li>No track record yet: no saved decision could be scored.</li>';
  const latest = overview.runs.slice(0, 10).map((run) => ({
    href: run.state === 'ok' ? linkFrom(path, sitePaths.run(run.runId)) : linkFrom(path, sitePaths.runs()),
    label: run.runId,
    note: `${run.ticker ?? '—'} ${run.action ?? ''} ${run.state === 'ok' ? (run.status ?? '') : run.state}${run.demo ? ' · demo' : ''}`,
  }));
  const body = [
    '<h1>autohedge: the track record</h1>',
    `<h2>Track record${group ? ` (${escapeHtml(group.contamination)}, ${group.horizon} sessions)` : ''}</h2>`,
    `<ul class="headline" data-headline="">\n${headline}\n</ul>`,
    record
      ? `<p><a href="${linkFrom(path, sitePaths.trackRecord)}">The full track record</a> <span class="meta">(${escapeHtml(record.origin)})</span></p>`
      : '',
    '<h2>Ledger</h2>',
    `<p><a href="${linkFrom(path, sitePaths.ledger)}">${escapeHtml(overview.ledgerLine)}</a></p>`,
    `<h2>Latest runs (${overview.runs.length} saved)</h2>`,
    listHtml(latest, 'No saved run yet.'),
    `<p><a href="${linkFrom(path, sitePaths.runs())}">All runs</a></p>`,
  ];
  return sitePage(path, 'autohedge view', body.filter(Boolean).join('\n'), context);
}
