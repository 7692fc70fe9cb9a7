import { padEnd } from './format.js';
import type { Canvas } from './terminal-layout.js';
import type { Fact, Part, ReportView, Section } from './view-types.js';

/** The terminal report's footer: usage (totals, one line per agent) and the run's status. */

const find = (facts: Fact[], key: string) => facts.find((fact) => fact.key === key);

/** Usage as the footer: the totals and wall time on one line, then one line per agent. */
export function usageFooter(view: ReportView, section: Section, canvas: Canvas): string[] {
  const { paint } = canvas;
  const lines = [paint.dim((canvas.unicode ? '─' : '-').repeat(canvas.width))];
  const usage = section.parts.find((part) => part.kind === 'table');
  if (usage?.kind === 'table' && usage.table.total) {
    const [, , input, cached, output, cost] = usage.table.total;
    const cachedText = cached && cached !== '0' ? ` (${cached} cached)` : '';
    const wall = find(view.meta, 'wallTime')?.value ?? 'n/a';
    const costText = cost === 'cost unknown' ? paint.yellow(cost) : `cost ${cost}`;
    lines.push(
      ...canvas.joinToWidth([
        `Tokens ${input} in${cachedText}${canvas.dot}${output} out`,
        costText,
        `wall time ${wall}`,
      ]),
    );
    lines.push(...agentLines(usage.table.rows, canvas));
  }
  for (const part of section.parts)
    if (part.kind === 'text') lines.push(...canvas.wrap(part.text, '  ').map((line) => paint.dim(line)));
  return lines;
}

function agentLines(rows: string[][], canvas: Canvas): string[] {
  const widest = (column: number) => Math.max(...rows.map((row) => row[column]!.length));
  return rows.map(([agent, model, input, cached, output, cost]) => {
    const line =
      `  ${padEnd(agent!, widest(0))}  ${padEnd(model!, widest(1))}  ${input!.padStart(widest(2))} in` +
      `${canvas.dot}${output!.padStart(widest(4))} out${canvas.dot}${cost}`;
    const withCached = cached !== '0' ? `${line} (${cached} cached)` : line;
    // The cached count where it fits; the total line above always names it.
    return canvas.paint.dim(withCached.length <= canvas.width ? withCached : line);
  });
}

export function statusLines(
  section: Section,
  saved: boolean,
  view: ReportView,
  canvas: Canvas,
  partLines: (part: Part) => string[],
): string[] {
  const status = find(view.meta, 'status')!;
  const run = !saved ? 'Run not saved (--no-save)' : `Run ${find(view.meta, 'run')!.value}`;
  const asOf = `as of ${find(view.meta, 'asOf')!.value}`;
  const lines = canvas.joinToWidth([run, `status ${canvas.tint(status.tone, status.value)}`, asOf]);
  // The run line above says the status; the run settings stay in report.md and result.json.
  for (const part of section.parts)
    if ((part.kind === 'text' && part.key !== 'settings') || (part.kind === 'facts' && part.key !== 'status'))
      lines.push(...partLines(part));
  return lines;
}
