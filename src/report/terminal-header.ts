import { renderPriceChart } from './chart.js';
import type { Canvas } from './terminal-layout.js';
import { factsOf } from './view.js';
import type { Fact, ReportView, Section } from './view-types.js';

const find = (facts: Fact[], key: string) => facts.find((fact) => fact.key === key);

/** The market section as the header: name and identity, price and change, key stats, then the chart. */
export function marketHeader(view: ReportView, section: Section, canvas: Canvas): string[][] {
  const { paint } = canvas;
  const facts = factsOf(section);
  const identity = section.parts.find((part) => part.kind === 'text' && part.key === 'identity');
  const title =
    paint.bold(view.subject) + (identity?.kind === 'text' ? paint.dim(`${canvas.dot}${identity.text}`) : '');
  const lines = [canvas.text(title)];
  const unavailable = section.parts.find((part) => part.kind === 'text' && part.key === 'unavailable');
  if (unavailable?.kind === 'text') lines.push(...canvas.wrap(unavailable.text).map((line) => paint.yellow(line)));
  const price = find(facts, 'price');
  if (price) {
    const change = find(facts, 'change');
    const when = find(facts, 'quoteTime');
    const parts = [
      paint.bold(`${price.value}${price.unit ? ` ${price.unit}` : ''}`),
      change && change.value !== 'n/a' ? canvas.tint(change.tone, change.value) : '',
      // The quote's own time, named apart from the run's as-of (the footer's, often a session close).
      when && when.value !== 'n/a' ? paint.dim(`quote time ${when.value}`) : '',
    ];
    lines.push(parts.filter(Boolean).join('  '));
    const stats = facts.filter((fact) => fact.short).map((fact) => `${fact.short} ${fact.compact ?? fact.value}`);
    lines.push(...canvas.joinToWidth(stats.map((stat) => canvas.text(stat))));
  }
  const chart = section.parts.find((part) => part.kind === 'chart');
  if (chart?.kind !== 'chart') return [lines];
  const drawn = renderPriceChart(chart.bars, { width: canvas.width, color: paint.level > 0, unicode: canvas.unicode });
  return drawn.trimEnd() === '' ? [lines] : [lines, [drawn.trimEnd()]];
}
