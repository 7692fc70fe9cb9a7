import type { DeskBlock } from './desk-text.js';
import { escapeHtml, safeLinkUrl } from './escape.js';
import type { ClaimMark, Table } from './view-types.js';

/** The pieces of report.html that are the same wherever they appear: tables, sources, claim marks, a desk's blocks. */

export function sourceHtml(source: { url: string; title: string | null; note: string | null }): string {
  const href = safeLinkUrl(source.url);
  const label = escapeHtml(source.title ?? source.url);
  const link = href ? `<a href="${escapeHtml(href)}" rel="noreferrer noopener">${label}</a>` : label;
  return `<li>${link}${source.note ? ` <span class="meta">(${escapeHtml(source.note)})</span>` : ''}</li>`;
}

export function tableHtml(table: Table): string {
  const numeric = (index: number) => (table.columns[index]?.numeric ? ' class="number"' : '');
  const row = (tag: 'th' | 'td', cells: string[], strong = false) =>
    `<tr>${cells
      .map(
        (text, index) =>
          `<${tag}${numeric(index)}>${strong ? `<strong>${escapeHtml(text)}</strong>` : escapeHtml(text)}</${tag}>`,
      )
      .join('')}</tr>`;
  const body = [...table.rows.map((cells) => row('td', cells)), ...(table.total ? [row('td', table.total, true)] : [])];
  const title = table.title ? `<h3>${escapeHtml(table.title)}</h3>\n` : '';
  return `${title}<div class="scroll"><table>\n<thead>${row(
    'th',
    table.columns.map((column) => column.label),
  )}</thead>\n<tbody>\n${body.join('\n')}\n</tbody>\n</table></div>`;
}

export function claimsHtml(claims: ClaimMark[] | undefined): string[] {
  if (!claims || claims.length === 0) return [];
  const tone = { verified: 'finding-info', unsourced: 'finding-warning', contradicted: 'finding-error' };
  const items = claims.map((claim) => {
    const where = [claim.source, claim.detail].filter(Boolean).join('; ');
    return `<li class="${tone[claim.verdict]}" data-claim="${claim.verdict}">${escapeHtml(claim.text)}: <strong>${claim.verdict}</strong>${where ? ` (${escapeHtml(where)})` : ''}</li>`;
  });
  return [`<ul class="claims">\n${items.join('\n')}\n</ul>`];
}

export function blockHtml(block: DeskBlock): string {
  switch (block.kind) {
    case 'heading':
      return `<h4>${escapeHtml(block.text)}</h4>`;
    case 'lines':
      return `<p>${block.lines.map(escapeHtml).join('<br>\n')}</p>`;
    case 'list': {
      const tag = block.ordered ? 'ol' : 'ul';
      return `<${tag}>${block.items.map((item) => `<li>${escapeHtml(item)}</li>`).join('')}</${tag}>`;
    }
    case 'code':
      return `<pre>${block.lines.map(escapeHtml).join('\n')}</pre>`;
  }
}
