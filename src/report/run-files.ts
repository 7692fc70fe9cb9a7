import type { AnalysisResult } from '../result/types.js';
import { renderHtml } from './html.js';
import { renderMarkdown } from './markdown.js';
import { renderSvgChart } from './svg-chart.js';

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
  const market = result.market;
  const name = market?.identity?.name;
  const svg = market
    ? renderSvgChart(market.bars ?? [], {
        asOf: result.asOf,
        levels: result.decision,
        title: name ? `${name} (${result.ticker})` : result.ticker,
        currency: market.identity?.currency,
      })
    : '';
  const chart = svg === '' ? null : `${svg}\n`;
  return {
    markdown: renderMarkdown(result, { chartFile: chart ? chartFileName : null }),
    html: renderHtml(result),
    chart,
  };
}
