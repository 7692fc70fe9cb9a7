import { join, relative, sep } from 'node:path';
import { escapeHtml, pageHead } from './escape.js';
import {
  evaluationPage,
  type ChartSpec,
  type EvaluationDocument,
  type EvaluationPage,
  type PagePart,
  type PageSection,
} from './evaluation-page.js';
import { cumulativeChart, rateBarChart } from './evaluation-svg.js';
import { tableHtml } from './html-blocks.js';
import { reportStyle } from './html-style.js';
import type { Table } from './view-types.js';

/**
 * evaluation.html: an EvaluationPage as one self-contained file under report.html's CSP
 * (inline CSS and SVG, no script, nothing to fetch). Each chart is drawn wide and
 * narrow, and CSS shows the narrow one on a phone so its labels stay readable.
 */

export const evaluationStyle = `
.headline { font-size: 1.05rem; } .headline li { margin: .3rem 0; }
.banner[data-demo] { background: #fef3c7; } .banner[data-contaminated], .banner[data-forward] { background: #fee2e2; border-color: var(--error); color: #7f1d1d; }
.mark { display: inline-block; font-size: .75rem; font-weight: 700; padding: 0 .3rem; margin: 0 .2rem .1rem 0; border-radius: .25rem; border: 1px solid #f59e0b; background: #fef3c7; white-space: nowrap; }
.mark-contaminated, .mark-flagged, .mark-failed { border-color: var(--error); background: #fee2e2; color: #7f1d1d; }
.decisions a { overflow-wrap: normal; white-space: nowrap; }
nav.site { display: flex; flex-wrap: wrap; gap: .25rem 1rem; padding: .4rem 0 .6rem; margin-bottom: .5rem; border-bottom: 1px solid var(--line); font-size: .95rem; }
nav.site a[aria-current] { font-weight: 700; color: var(--ink); text-decoration: none; }
`;

const sizes = {
  cumulative: { wide: { width: 760, height: 300 }, narrow: { width: 360, height: 330 } },
  rate: { wide: { width: 760, height: 220 }, narrow: { width: 360, height: 220 } },
} as const;

function chartSvg(chart: ChartSpec, size: { width: number; height: number }): string {
  return chart.kind === 'cumulative'
    ? cumulativeChart(chart.series, chart.label, size)
    : rateBarChart(chart.bars, chart.label, size);
}

export function chartFigure(chart: ChartSpec): string {
  const wide = chartSvg(chart, sizes[chart.kind].wide);
  if (wide === '')
    return `<p class="meta" data-no-chart="${escapeHtml(chart.key)}">${escapeHtml(chart.label)}: nothing scored to draw yet.</p>`;
  return [
    `<figure class="chart" data-figure="${escapeHtml(chart.key)}">`,
    `<div class="chart-wide">${wide}</div>`,
    `<div class="chart-narrow">${chartSvg(chart, sizes[chart.kind].narrow)}</div>`,
    `<figcaption class="meta">${escapeHtml(chart.caption)}</figcaption>`,
    '</figure>',
  ].join('\n');
}

function markHtml(mark: string): string {
  const kind = mark.split(/[\s(]/)[0]!.toLowerCase();
  return `<span class="mark mark-${escapeHtml(kind)}">${escapeHtml(mark)}</span>`;
}

function decisionsHtml(table: Table, links: Array<string | null>, marks: string[][]): string {
  const numeric = (index: number) => (table.columns[index]?.numeric ? ' class="number"' : '');
  const head = table.columns.map((column, index) => `<th${numeric(index)}>${escapeHtml(column.label)}</th>`).join('');
  const last = table.columns.length - 1;
  const body = table.rows.map((cells, row) => {
    const tds = cells.map((text, index) => {
      if (index === last && links[row]) return `<td><a href="${escapeHtml(links[row]!)}">${escapeHtml(text)}</a></td>`;
      const prefix = index === 0 ? (marks[row] ?? []).map(markHtml).join('') : '';
      return `<td${numeric(index)}>${prefix}${prefix ? '<br>' : ''}${escapeHtml(text)}</td>`;
    });
    return `<tr data-run="${escapeHtml(cells[last] ?? '')}">${tds.join('')}</tr>`;
  });
  return `<div class="scroll"><table class="decisions">\n<thead><tr>${head}</tr></thead>\n<tbody>\n${body.join('\n')}\n</tbody>\n</table></div>`;
}

function partHtml(part: PagePart): string {
  switch (part.kind) {
    case 'text':
      return `<p${part.tone === 'muted' ? ' class="meta"' : part.tone === 'bad' ? ' class="finding-error"' : ''}>${escapeHtml(part.text)}</p>`;
    case 'list':
      return `<ul>\n${part.items.map((item) => `<li>${escapeHtml(item)}</li>`).join('\n')}\n</ul>`;
    case 'table':
      return tableHtml(part.table);
    case 'chart':
      return chartFigure(part.chart);
    case 'decisions':
      return decisionsHtml(part.table, part.links, part.marks);
  }
}

function sectionHtml(section: PageSection): string {
  return [
    `<section id="${escapeHtml(section.id)}"><h2>${escapeHtml(section.title)}</h2>`,
    ...section.parts.map(partHtml),
    '</section>',
  ].join('\n');
}

/** The page's header and sections, inside `<main>`: the site wraps them with its navigation. */
export function evaluationMainHtml(page: EvaluationPage): string {
  return [
    '<header>',
    `<h1>${escapeHtml(page.title)}</h1>`,
    ...page.notices.map((notice) => `<p class="banner" data-${notice.key}="">${escapeHtml(notice.text)}</p>`),
    `<ul class="headline" data-headline="">\n${page.headline.map((line) => `<li>${escapeHtml(line)}</li>`).join('\n')}\n</ul>`,
    '</header>',
    ...page.sections.map(sectionHtml),
    '<footer><p>Generated by autohedge from the evaluation’s JSON. Not investment advice.</p></footer>',
  ].join('\n');
}

/** evaluation.html; `nav` is the site's navigation (already HTML), absent in a saved file. */
export function renderEvaluationHtml(page: EvaluationPage, nav = ''): string {
  return [
    ...pageHead(page.title, reportStyle + evaluationStyle),
    '<body>',
    '<main>',
    ...(nav ? [nav] : []),
    evaluationMainHtml(page),
    '</main>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/** evaluation.html as `evaluate` writes it into `directory`: each decision links to its run's report.html in the home. */
export function evaluationHtmlFile(document: EvaluationDocument, directory: string, home: string): string {
  const runLink = (runId: string) =>
    relative(directory, join(home, 'runs', runId, 'report.html'))
      .split(sep)
      .map(encodeURIComponent)
      .join('/');
  return renderEvaluationHtml(evaluationPage(document, { runLink }));
}
