import type { ChalkInstance } from 'chalk';
import { padEnd, padStart, truncate, visibleText, wrap } from './format.js';
import { createPalette } from './palette.js';
import type { Table, Tone } from './view-types.js';

/** Where the terminal report draws: its width, its character set and its colours. */
export class Canvas {
  readonly paint: ChalkInstance;
  readonly width: number;
  constructor(
    color: boolean,
    readonly unicode: boolean,
    width: number,
  ) {
    this.paint = createPalette(color);
    this.width = width > 0 ? Math.min(width, 120) : 80;
  }
  get dot(): string {
    return this.unicode ? ' · ' : ' | ';
  }
  get bullet(): string {
    return this.unicode ? '•' : '*';
  }
  /** Text as this terminal can show it: dashes and dots folded to ASCII where unicode is off. */
  text(text: string): string {
    return this.unicode ? text : text.replace(/[—–]/g, '-').replace(/·/g, '|').replace(/’/g, "'");
  }
  tint(tone: Tone | undefined, text: string, bold = false): string {
    const base = bold ? this.paint.bold : this.paint;
    if (tone === 'good') return base.green(text);
    if (tone === 'bad') return base.red(text);
    if (tone === 'warning') return base.yellow(text);
    if (tone === 'muted') return this.paint.dim(text);
    return bold ? this.paint.bold(text) : text;
  }
  /** "── Title · detail ─────" across the width. */
  heading(title: string, detail = ''): string {
    const rule = this.unicode ? '─' : '-';
    const label = `${rule}${rule} ${title}${detail ? `${this.dot}${visibleText(detail)}` : ''} `;
    const fill = Math.max(2, this.width - label.length);
    return (
      this.paint.bold(`${rule}${rule} ${title}`) +
      (detail ? `${this.dot}${detail}` : '') +
      ' ' +
      this.paint.dim(rule.repeat(fill))
    );
  }
  wrap(text: string, indent = ''): string[] {
    return wrap(this.text(text), this.width, indent);
  }
  /** A bulleted item whose wrapped lines line up under its text. */
  hanging(marker: string, text: string, indent = ''): string[] {
    const body = wrap(this.text(text), this.width, indent + ' '.repeat(marker.length));
    return body.map((line, index) =>
      index === 0 ? indent + marker + line.slice(indent.length + marker.length) : line,
    );
  }
  /** Items joined by the dot, breaking onto a new line rather than past the width. */
  joinToWidth(items: string[]): string[] {
    const lines: string[] = [];
    let line = '';
    for (const item of items) {
      if (line === '') line = item;
      else if (visibleText(line).length + this.dot.length + visibleText(item).length <= this.width)
        line += this.dot + item;
      else {
        lines.push(line);
        line = item;
      }
    }
    if (line !== '') lines.push(line);
    return lines;
  }
}

/** Text cut (with truncate's marker) so that marker included it is at most `max` characters; at least 10 are kept. */
export function fitWithin(text: string, max: number): string {
  if (text.length <= max) return text;
  for (let keep = Math.max(max, 10); keep > 10; keep -= 1) {
    const cut = truncate(text, keep);
    if (cut.length <= max) return cut;
  }
  return truncate(text, 10);
}

/**
 * A table as aligned columns, numbers to the right, the total row in bold. Narrow
 * terminals get single-space gaps and no indent, then lines cut at the width.
 */
export function tableLines(table: Table, canvas: Canvas): string[] {
  const rows = table.total ? [...table.rows, table.total] : table.rows;
  const header = table.columns.map((column) => column.label);
  const widths = table.columns.map((_, index) =>
    Math.max(header[index]!.length, ...rows.map((row) => canvas.text(row[index] ?? '').length)),
  );
  const natural = widths.reduce((sum, width) => sum + width + 2, 0);
  const [indent, gap] = natural <= canvas.width ? ['  ', '  '] : ['', ' '];
  const line = (cells: string[]) => {
    const text = cells
      .map((cell, index) => {
        const shown = canvas.text(cell);
        return table.columns[index]?.numeric ? padStart(shown, widths[index]!) : padEnd(shown, widths[index]!);
      })
      .join(gap)
      .trimEnd();
    return fitWithin(`${indent}${text}`, canvas.width);
  };
  const lines = header.some((label) => label !== '') ? [canvas.paint.dim(line(header))] : [];
  lines.push(...table.rows.map(line));
  if (table.total) lines.push(canvas.paint.bold(line(table.total)));
  return lines;
}
