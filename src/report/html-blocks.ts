import { escapeHtml, safeLinkUrl } from './escape.js';
import { renderSvgChart } from './svg-chart.js';
import type { Fact, Part, Table } from './view-types.js';

/**
 * The self-contained blocks of autohedge's HTML pages (report.html, the portfolio page):
 * a list of facts, a table, the price chart, a source link. Every string is escaped.
 */

/** The decision's action stands first and large, a fact with a bar (conviction) gets it drawn; the rest are a list. */
export function factsHtml(facts: Fact[]): string {
  const lead = facts
    .filter((fact) => fact.key === 'action')
    .map((fact) => `<div class="action action-${escapeHtml(fact.value)}">${escapeHtml(fact.value)}</div>\n`);
  const bars = facts
    .filter((fact) => fact.bar !== undefined)
    .map(
      (fact) =>
        `<div class="conviction" aria-hidden="true"><span style="width:${fact.bar!.toFixed(0)}%"></span></div>\n`,
    );
  const items = facts
    .filter((fact) => fact.key !== 'action')
    .map((fact) => {
      const value = fact.unit ? `${fact.value} ${fact.unit}` : fact.value;
      return `<div><dt>${escapeHtml(fact.label)}</dt><dd>${escapeHtml(value)}</dd></div>`;
    });
  return `${lead.join('')}${bars.join('')}<dl class="facts">\n${items.join('\n')}\n</dl>`;
}

/**
 * A table in its own sideways-scrolling container. A `stack` table also labels each cell
 * with its column, so the shared stylesheet can lay each row out as a card on a phone.
 */
export function tableHtml(table: Table): string {
  const cell = (tag: 'th' | 'td', text: string, index: number, strong: boolean) => {
    const content = strong ? `<strong>${escapeHtml(text)}</strong>` : escapeHtml(text);
    const column = table.columns[index];
    const className = column?.numeric ? ' class="number"' : column?.wrap ? ' class="wrap"' : '';
    const label = table.stack && tag === 'td' && column ? ` data-label="${escapeHtml(column.label)}"` : '';
    return `<${tag}${className}${label}>${content}</${tag}>`;
  };
  const row = (tag: 'th' | 'td', cells: string[], strong = false) =>
    `<tr>${cells.map((text, index) => cell(tag, text, index, strong)).join('')}</tr>`;
  const head = row(
    'th',
    table.columns.map(({ label }) => label),
  );
  const body = [...table.rows.map((cells) => row('td', cells)), ...(table.total ? [row('td', table.total, true)] : [])];
  const title = table.title ? `<h3>${escapeHtml(table.title)}</h3>\n` : '';
  const open = table.stack ? '<table class="stack">' : '<table>';
  return `${title}<div class="scroll">${open}\n<thead>${head}</thead>\n<tbody>\n${body.join('\n')}\n</tbody>\n</table></div>`;
}

/**
 * The chart twice: wide, and narrow for a phone (CSS shows one). A 760-unit chart
 * shrunk to a phone's width would draw its labels at 5 px; the narrow one keeps them
 * readable without a sideways scroll.
 */
export function chartHtml(part: Extract<Part, { kind: 'chart' }>): string {
  const options = { asOf: part.asOf, levels: part.levels, title: part.title, currency: part.currency };
  const wide = renderSvgChart(part.bars, options);
  if (wide === '') return '';
  const narrow = renderSvgChart(part.bars, { ...options, width: 400, height: 280 });
  return [
    '<figure class="chart" id="chart">',
    `<div class="chart-wide">${wide}</div>`,
    `<div class="chart-narrow">${narrow}</div>`,
    `<figcaption class="meta">${escapeHtml(part.caption)}</figcaption>`,
    '</figure>',
  ].join('\n');
}

export function sourceHtml(source: { url: string; title: string | null; note: string | null }): string {
  const href = safeLinkUrl(source.url);
  const label = escapeHtml(source.title ?? source.url);
  const link = href ? `<a href="${escapeHtml(href)}" rel="noreferrer noopener">${label}</a>` : label;
  return `<li>${link}${source.note ? ` <span class="meta">(${escapeHtml(source.note)})</span>` : ''}</li>`;
}
