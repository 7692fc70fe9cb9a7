import type { AnalysisResult } from '../result/types.js';
import { renderPriceChart } from './chart.js';
import { padEnd, visibleText } from './format.js';
import { statusLines, usageFooter } from './terminal-footer.js';
import { marketHeader } from './terminal-header.js';
import { Canvas, fitWithin, tableLines } from './terminal-layout.js';
import { claimWhere, reportView } from './view.js';
import type { Part, ReportView, Section } from './view-types.js';

// The analyze command takes both renderers from here.
export { renderJson } from './json.js';

export interface TerminalOptions {
  color: boolean;
  /** Box-drawing and symbols; plain ASCII when false (pipes, dumb terminals). */
  unicode: boolean;
  /** Columns available; 0 or less means unknown (80 is used). */
  width: number;
  /** False for a run not saved (--no-save): the footer then names no run id that `runs show` could not find. Default true. */
  saved?: boolean;
}

/**
 * The analysis view, as one string ending in a newline: reportView(result) laid out
 * for a terminal. The market section is the compact header; usage and status the
 * footer. A pure function, so `autohedge runs show` prints a saved run as it was.
 */
export function renderTerminal(result: AnalysisResult, options: TerminalOptions): string {
  return renderTerminalView(reportView(result), options);
}

/** A view laid out for the terminal (renderTerminal's second half, for a view a caller extended). */
export function renderTerminalView(view: ReportView, options: TerminalOptions): string {
  const canvas = new Canvas(options.color, options.unicode, options.width);
  const blocks: string[][] = view.notices.map((notice) => {
    const text = canvas
      .text(notice.short && notice.text.length + 2 > canvas.width ? notice.short : notice.text)
      .replace(' | ', ' - ');
    if (notice.key === 'demo' && canvas.paint.level > 0) return [canvas.paint.inverse.bold(` ${text} `)];
    // The status banner wraps: its reasons are the point.
    if (notice.key === 'status') return canvas.wrap(notice.text).map((line) => canvas.tint(notice.tone, line, true));
    return [text];
  });
  for (const section of view.sections) {
    if (section.id === 'market') blocks.push(...marketHeader(view, section, canvas));
    else if (section.id === 'usage') blocks.push(usageFooter(view, section, canvas));
    else if (section.id === 'status')
      blocks[blocks.length - 1]!.push(
        ...statusLines(section, options.saved !== false, view, canvas, (part) => partLines(part, canvas)),
      );
    else if (section.id === 'desks') {
      if (section.parts.length > 0) blocks.push(sectionLines(section, canvas));
      for (const desk of section.subsections ?? []) blocks.push(sectionLines(desk, canvas));
    } else blocks.push(sectionLines(section, canvas));
  }
  return `${blocks.map((block) => block.join('\n')).join('\n\n')}\n`;
}

function sectionLines(section: Section, canvas: Canvas): string[] {
  const detail = (section.detail ?? [])
    .filter((fact) => fact.value !== '')
    .map((fact) => canvas.tint(fact.tone, fact.compact ?? fact.value, fact.tone === 'bad'))
    .join(canvas.dot);
  const lines = [canvas.heading(section.title, detail)];
  section.parts.forEach((part, index) => {
    const spaced = index > 0 && standsApart(part);
    lines.push(...(spaced ? [''] : []), ...partLines(part, canvas));
  });
  for (const claim of section.claims ?? []) {
    const mark = { verified: canvas.unicode ? '✓' : '+', unsourced: '?', contradicted: canvas.unicode ? '✗' : 'x' };
    const tone = claim.verdict === 'verified' ? 'good' : claim.verdict === 'contradicted' ? 'bad' : 'warning';
    const where = claimWhere(claim);
    lines.push(
      canvas.tint(tone, `${mark[claim.verdict]} ${claim.text}: ${claim.verdict}${where ? ` (${where})` : ''}`),
    );
  }
  return lines;
}

/** A blank line before what stands apart: tables, tool calls, sources, titled lists, the thesis. */
function standsApart(part: Part): boolean {
  return (
    part.kind === 'table' ||
    part.kind === 'tool-calls' ||
    part.kind === 'chart' ||
    (part.kind === 'list' && part.title !== undefined)
  );
}

function partLines(part: Part, canvas: Canvas): string[] {
  const { paint } = canvas;
  switch (part.kind) {
    case 'facts':
      return canvas.joinToWidth(
        part.facts.map((fact) => {
          const text = canvas.text(fact.inline ?? `${fact.short ?? fact.label} ${fact.value}`);
          return fact.key === 'action' ? canvas.tint(fact.tone, text, true) : text;
        }),
      );
    case 'text':
      return canvas
        .wrap(part.label ? `${part.label}: ${part.text}` : part.text)
        .map((line) => canvas.tint(part.tone, line));
    case 'list': {
      const head = part.label ?? part.title;
      const marker = part.tone === 'warning' ? (canvas.unicode ? '⚠ ' : '! ') : `${canvas.bullet} `;
      const items = part.items.flatMap((item) =>
        canvas.hanging(marker, item.label ? `${item.label}: ${item.text}` : item.text, head ? '  ' : ''),
      );
      return [...(head ? [`${head}:`] : []), ...items.map((line) => canvas.tint(part.tone, line))];
    }
    case 'table':
      return [...(part.table.title ? [`${part.table.title}:`] : []), ...tableLines(part.table, canvas)];
    case 'findings':
      return part.findings.flatMap((finding) => {
        const marks = canvas.unicode
          ? { error: '✖', warning: '▲', info: 'ℹ' }
          : { error: 'x', warning: '!', info: 'i' };
        const tone = finding.severity === 'error' ? 'bad' : finding.severity === 'warning' ? 'warning' : 'muted';
        const prefix = `${marks[finding.severity] ?? '?'} ${padEnd(finding.severity, 8)}`;
        const body = canvas.hanging(' '.repeat(prefix.length + 1), `${finding.rule}: ${finding.message}`);
        return [canvas.tint(tone, prefix) + ' ' + (body[0] ?? '').trimStart(), ...body.slice(1)];
      });
    case 'desk-text':
      return canvas.wrap(part.raw);
    case 'tool-calls':
      return [
        paint.bold(`Tool calls (${part.calls.length}):`),
        ...part.calls.map((call, index) => {
          const outcome = call.failed ? paint.red(canvas.text(call.outcome)) : call.outcome;
          const head = `  ${index + 1}. ${call.name} `;
          // Measured without colour: the line must end at the width, marker and outcome included.
          const room = canvas.width - head.length - canvas.dot.length - visibleText(outcome).length;
          return `${head}${fitWithin(canvas.text(call.arguments), room)}${canvas.dot}${outcome}`;
        }),
      ];
    case 'sources':
      return part.sources.flatMap((source) =>
        canvas.hanging(
          `${canvas.bullet} `,
          `${source.title ? `${source.title}${canvas.dot}` : ''}${source.url}${source.note ? ` (${source.note})` : ''}`,
          '  ',
        ),
      );
    case 'chart':
      return [renderPriceChart(part.bars, { width: canvas.width, color: paint.level > 0, unicode: canvas.unicode })];
  }
}
