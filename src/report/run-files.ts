import type { AnalysisResult } from '../result/types.js';
import { renderHtml } from './html.js';
import { renderMarkdown } from './markdown.js';
import { renderSvgChart } from './svg-chart.js';
import { reportView } from './view.js';

/** The chart file beside report.md, linked from it. */
export const chartFileName = 'chart.svg';

export interface RenderedRunFiles {
  markdown: string;
  html: string;
  /** chart.svg; null when the run has no price history to draw. */
  chart: string | null;
}

/** The readable files of a run (report.md, report.html, chart.svg), from its result alone. */
export function renderRunFiles(result: AnalysisResult): RenderedRunFiles {
  const chartPart = reportView(result)
    .sections.flatMap((section) => section.parts)
    .find((part) => part.kind === 'chart');
  const svg =
    chartPart?.kind === 'chart'
      ? renderSvgChart(chartPart.bars, {
          asOf: chartPart.asOf,
          levels: chartPart.levels,
          title: chartPart.title,
          currency: chartPart.currency,
        })
      : '';
  const chart = svg === '' ? null : `${svg}\n`;
  return {
    markdown: renderMarkdown(result, { chartFile: chart ? chartFileName : null }),
    html: renderHtml(result),
    chart,
  };
}
