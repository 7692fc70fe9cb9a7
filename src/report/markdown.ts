import type { AnalysisResult } from '../result/types.js';
import { sanitizeText } from '../sanitize.js';
import { safeLinkUrl } from './escape.js';
import { blockMarkdown, cell, claimsMarkdown, inline, markedMarkdown } from './markdown-text.js';
import { reportView } from './view.js';
import type { Fact, Part, ReportView, Section, Table } from './view-types.js';

export interface MarkdownOptions {
  /** A chart file beside report.md (chart.svg) to show under the market section. */
  chartFile?: string | null;
}

/**
 * report.md: reportView(result) as plain GitHub-flavoured markdown — everything a
 * reader needs to judge the run without the JSON. Every string is escaped so that a
 * viewer shows it as text (no HTML, no link other than http(s)).
 */
export function renderMarkdown(result: AnalysisResult, options: MarkdownOptions = {}): string {
  return renderMarkdownView(reportView(result), options);
}

/** A view as markdown (renderMarkdown's second half, for a view a caller extended). */
export function renderMarkdownView(view: ReportView, options: MarkdownOptions = {}): string {
  const parts = [`# ${inline(view.title)}`];
  for (const notice of view.notices) parts.push(`> **${inline(notice.text)}**`);
  parts.push(view.meta.map(metaFact).join(' · '));
  for (const section of view.sections) parts.push(sectionMarkdown(section, 2, options));
  parts.push(`_${view.disclaimer}_`);
  // The checked figures' notes, as footnotes (GitHub lists them at the end).
  if (view.notes.length > 0)
    parts.push(view.notes.map((note) => `[^c${note.number}]: ${inline(note.text)}`).join('\n'));
  return `${parts.join('\n\n')}\n`;
}

function metaFact(fact: Fact): string {
  if (fact.code) return `${fact.label} \`${fact.value.replace(/`/g, "'")}\``;
  return fact.key === 'status' ? `${fact.label} **${inline(fact.value)}**` : `${fact.label} ${inline(fact.value)}`;
}

function sectionMarkdown(section: Section, level: number, options: MarkdownOptions): string {
  const heading = `${'#'.repeat(level)} ${inline(section.title)}`;
  const lines = [heading];
  if (section.detail) {
    const detail = section.detail.filter((fact) => fact.value !== '');
    lines.push(detail.map((fact) => (fact.tone === 'bad' ? `**${fact.value}**` : inline(fact.value))).join(' · '));
  }
  lines.push(...partsMarkdown(section.parts, options));
  if (section.claims && section.claims.length > 0) lines.push(claimsMarkdown(section.claims));
  for (const subsection of section.subsections ?? []) lines.push(sectionMarkdown(subsection, level + 1, options));
  return lines.join('\n\n');
}

/** Facts that read across (the decision and its levels) become one table row together. */
function partsMarkdown(parts: Part[], options: MarkdownOptions): string[] {
  const out: string[] = [];
  let row: Fact[] = [];
  const flush = () => {
    if (row.length > 0) out.push(rowTable(row));
    row = [];
  };
  for (const part of parts) {
    if (part.kind === 'facts' && part.layout === 'row') row.push(...part.facts);
    else {
      flush();
      const text = partMarkdown(part, options);
      if (text !== '') out.push(text);
    }
  }
  flush();
  return out;
}

function partMarkdown(part: Part, options: MarkdownOptions): string {
  switch (part.kind) {
    case 'facts':
      return tableMarkdown({
        key: part.key,
        columns: [
          { key: 'label', label: '' },
          { key: 'value', label: '' },
        ],
        rows: part.facts.map((fact) => [fact.label, fact.unit ? `${fact.value} ${fact.unit}` : fact.value]),
      });
    case 'text': {
      const text = part.marked ? markedMarkdown(part.marked) : inline(part.text);
      return part.label ? `**${inline(part.label)}.** ${text}` : text;
    }
    case 'list': {
      const items = part.items.map(
        (item) =>
          `- ${item.label ? `**${inline(item.label)}:** ` : ''}${item.marked ? markedMarkdown(item.marked) : inline(item.text)}`,
      );
      const head = part.title ? `### ${inline(part.title)}` : part.label ? `**${inline(part.label)}**` : null;
      return [...(head ? [head, ''] : []), ...items].join('\n');
    }
    case 'table':
      return tableMarkdown(part.table);
    case 'findings':
      return part.findings
        .map((finding) => `- **${finding.severity}** \`${finding.rule}\`: ${inline(finding.message)}`)
        .join('\n');
    case 'desk-text':
      return part.blocks.map((block, index) => blockMarkdown(block, part.marked?.[index] ?? null)).join('\n\n');
    case 'tool-calls':
      return [
        '**Tool calls**',
        '',
        ...part.calls.map((call, index) => {
          const args = sanitizeText(call.excerpt).replace(/`/g, "'");
          return `${index + 1}. \`${call.name}\` \`${args}\` (${inline(call.outcome)})`;
        }),
      ].join('\n');
    case 'sources':
      return part.sources
        .map((source) => `- ${sourceLink(source)}${source.note ? ` (${source.note})` : ''}`)
        .join('\n');
    case 'chart':
      return options.chartFile ? `![${part.caption}](${options.chartFile})` : '';
  }
}

function rowTable(facts: Fact[]): string {
  const values = facts.map((fact) => (fact.key === 'action' ? `**${cell(fact.value)}**` : cell(fact.value)));
  return [
    `| ${facts.map((fact) => cell(fact.label)).join(' | ')} |`,
    `|${facts.map(() => '---').join('|')}|`,
    `| ${values.join(' | ')} |`,
  ].join('\n');
}

function tableMarkdown(table: Table): string {
  const row = (cells: string[]) => `|${cells.map((text) => (text === '' ? ' ' : ` ${text} `)).join('|')}|`;
  const lines = [
    row(table.columns.map((column) => cell(column.label))),
    `|${table.columns.map((column) => (column.numeric ? '---:' : '---')).join('|')}|`,
    ...table.rows.map((cells) => row(cells.map(cell))),
  ];
  if (table.total) lines.push(row(table.total.map((text) => (text === '' ? '' : `**${cell(text)}**`))));
  return [...(table.title ? [`### ${inline(table.title)}`, ''] : []), ...lines].join('\n');
}

function sourceLink(source: { url: string; title: string | null }): string {
  const url = safeLinkUrl(source.url);
  if (!url) return inline(source.url);
  if (!source.title) return `<${url}>`;
  const target = url.replace(/[()]/g, (bracket) => encodeURIComponent(bracket));
  return `[${inline(source.title).replace(/[[\]]/g, '')}](${target})`;
}
