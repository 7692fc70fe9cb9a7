import type { DeskBlock } from './desk-text.js';
import { escapeHtml } from './escape.js';
import { claimWhere } from './view.js';
import type { ClaimMark, FigureNote, Marked } from './view-types.js';

/**
 * The prose of report.html: a desk's text blocks and any text with its checked figures
 * marked (src/claims), the numbered notes those marks link to, and a section's claims.
 * Every string is escaped (escapeHtml).
 */

/** Text with its checked figures marked, where the view has them; else the plain text, escaped. */
export function proseHtml(text: string, marked: Marked | undefined | null): string {
  return marked ? markedHtml(marked) : escapeHtml(text);
}

/**
 * Prose with its checked figures marked: each with its note as a hover title and a numbered
 * link to the note; a contradicted figure highlighted, with the true value beside it.
 */
function markedHtml(pieces: Marked): string {
  return pieces
    .map(({ text, mark }) => {
      if (!mark) return escapeHtml(text);
      const title = escapeHtml(mark.title);
      const reference = `<sup class="claim-ref"><a href="#claim-note-${mark.note}">${mark.note}</a></sup>`;
      if (mark.truth === undefined)
        return `<span class="claim claim-${escapeHtml(mark.status)}" title="${title}">${escapeHtml(text)}</span>${reference}`;
      return `<mark class="claim claim-contradicted" title="${title}">${escapeHtml(text)}</mark> <span class="claim-truth">(the data: ${escapeHtml(mark.truth)})</span>${reference}`;
    })
    .join('');
}

/** One block of a desk's text; `marked` holds its heading, lines or items as Marked, in order. */
export function blockHtml(block: DeskBlock, marked: Marked[] | null): string {
  const text = (plain: string, index: number) => proseHtml(plain, marked?.[index]);
  switch (block.kind) {
    case 'heading':
      return `<h4>${text(block.text, 0)}</h4>`;
    case 'lines':
      return `<p>${block.lines.map(text).join('<br>\n')}</p>`;
    case 'list': {
      const tag = block.ordered ? 'ol' : 'ul';
      return `<${tag}>${block.items.map((item, index) => `<li>${text(item, index)}</li>`).join('')}</${tag}>`;
    }
    case 'code':
      return `<pre>${block.lines.map(escapeHtml).join('\n')}</pre>`;
  }
}

const verdictClass = { verified: 'finding-info', unsourced: 'finding-warning', contradicted: 'finding-error' };

export function claimsHtml(claims: ClaimMark[] | undefined): string[] {
  if (!claims || claims.length === 0) return [];
  const items = claims.map((claim) => {
    const where = claimWhere(claim);
    return `<li class="${verdictClass[claim.verdict]}" data-claim="${claim.verdict}">${escapeHtml(claim.text)}: <strong>${claim.verdict}</strong>${where ? ` (${escapeHtml(where)})` : ''}</li>`;
  });
  return [`<ul class="claims">\n${items.join('\n')}\n</ul>`];
}

/** The notes the figures link to, numbered as they were first used. */
export function notesHtml(notes: FigureNote[]): string {
  if (notes.length === 0) return '';
  const items = notes.map(
    (note) =>
      `<li id="claim-note-${note.number}" class="claim-note claim-note-${escapeHtml(note.status)}">${escapeHtml(note.text)}</li>`,
  );
  return `<section id="claim-notes"><h2>Notes on the figures</h2>\n<ol>\n${items.join('\n')}\n</ol></section>`;
}
