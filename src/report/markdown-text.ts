import { sanitizeText } from '../sanitize.js';
import type { DeskBlock } from './desk-text.js';
import { oneLine } from './format.js';
import { claimWhere } from './view.js';
import type { ClaimMark, Marked } from './view-types.js';

/**
 * Text in report.md: untrusted strings escaped (`inline`, `cell`), a desk's text blocks,
 * prose with its checked figures as footnotes, and a section's claims.
 */

export function claimsMarkdown(claims: ClaimMark[]): string {
  const mark = { verified: '✓', unsourced: '?', contradicted: '✗' };
  return claims
    .map((claim) => {
      const where = claimWhere(claim);
      return `- ${mark[claim.verdict]} ${inline(claim.text)}: **${claim.verdict}**${where ? ` (${inline(where)})` : ''}`;
    })
    .join('\n');
}

/**
 * One block of a desk's text. Its section lines become level-4 headings (under the
 * desk's own level 3), and its lines are joined by hard breaks, so a viewer shows
 * them as written rather than as one run-on paragraph.
 */
export function blockMarkdown(block: DeskBlock, marked: Marked[] | null): string {
  const text = (plain: string, index: number, escapeFirst?: (text: string) => string) => {
    const pieces = marked?.[index];
    return pieces ? markedMarkdown(pieces, escapeFirst) : (escapeFirst ?? inline)(plain);
  };
  switch (block.kind) {
    case 'heading':
      return `#### ${text(block.text, 0)}`;
    case 'lines':
      // A line that starts like markup (`---` would turn the line above into a heading) starts escaped.
      return block.lines
        .map((line, index) => text(line, index, (first) => inline(first).replace(/^([-=+*_#]|\d+[.)])/, '\\$1')))
        .join('\\\n');
    case 'list':
      return block.items
        .map((item, index) => `${block.ordered ? `${index + 1}.` : '-'} ${text(item, index)}`)
        .join('\n');
    case 'code':
      return ['```text', ...block.lines.map((line) => line.replace(/^(\s*)```/, '$1` ``')), '```'].join('\n');
  }
}

/**
 * Prose with its checked figures marked: a footnote naming the source of each, a contradicted
 * figure in bold with the true value beside it. `escapeFirst` escapes the first stretch (a line
 * that must not start like markup).
 */
export function markedMarkdown(pieces: Marked, escapeFirst: (text: string) => string = inline): string {
  return pieces
    .map((piece, index) => {
      const text = index === 0 ? escapeFirst(piece.text) : inline(piece.text);
      if (!piece.mark) return text;
      const note = `[^c${piece.mark.note}]`;
      if (piece.mark.truth === undefined) return `${text}${note}`;
      return `**${text}** _(the data: ${inline(piece.mark.truth)})_${note}`;
    })
    .join('');
}

/** A table cell: pipes escaped, one line. */
export function cell(text: string): string {
  return inline(oneLine(text)).replace(/\|/g, '\\|');
}

/**
 * Untrusted text for markdown: sanitised, with `<`, `>` and `&` escaped so a viewer
 * renders them as text rather than as HTML, and `[label](target)` links whose target
 * is not http(s) broken apart (no javascript: or file: link can be clicked).
 */
export function inline(text: string): string {
  return (
    sanitizeText(text)
      .replace(/[<>&]/g, (character) => `\\${character}`)
      // `![x](url)` would make a viewer fetch url with no click (a beacon): an escaped `!` leaves a plain link.
      .replace(/!\[/g, '\\![')
      .replace(/\]\((?!https?:\/\/)/gi, ']\\(')
  );
}
