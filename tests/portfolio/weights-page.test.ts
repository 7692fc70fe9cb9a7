// Issue 44 items 23 and 24: each bar of the weights chart carries its own value at its own
// end; the page's tables sit in their own scroll container and stack on a phone.
import { describe, expect, it } from 'vitest';
import { constructPortfolio } from '../../src/portfolio/construct.js';
import { reportStyle } from '../../src/report/html-style.js';
import {
  narrowWeights,
  renderWeightsSvg,
  weightText,
  wideWeights,
  type WeightsLayout,
} from '../../src/report/portfolio-chart.js';
import { renderPortfolioHtml } from '../../src/report/portfolio-html.js';
import { mixedBook } from './weights-book.js';

type Attributes = Record<string, string>;

function attributesOf(source: string): Attributes {
  return Object.fromEntries([...source.matchAll(/([\w-]+)="([^"]*)"/g)].map((match) => [match[1], match[2]]));
}

/** Each bar's rect and its label, by "TICKER now|target". */
function barsOf(svg: string): Map<string, { rect: Attributes; label: Attributes & { text: string } }> {
  const bars = new Map<string, { rect: Attributes; label: Attributes & { text: string } }>();
  for (const match of svg.matchAll(/<rect ([^>]*data-bar[^>]*)>/g)) {
    const rect = attributesOf(match[1]!);
    bars.set(`${rect['data-ticker']} ${rect['data-bar']}`, { rect, label: { text: '' } });
  }
  for (const match of svg.matchAll(/<text ([^>]*data-bar[^>]*)>([^<]*)<\/text>/g)) {
    const label = attributesOf(match[1]!);
    bars.get(`${label['data-ticker']} ${label['data-bar']}`)!.label = { ...label, text: match[2]! };
  }
  return bars;
}

const plan = constructPortfolio(mixedBook);
const weights = new Map(plan.targets.map((target) => [target.ticker, target]));

describe.each([wideWeights, narrowWeights])('the $name weights chart', (layout: WeightsLayout) => {
  const svg = renderWeightsSvg(plan, layout)!;
  const bars = barsOf(svg);
  const number = (value: string | undefined) => Number(value);

  it('has the book the test means: a trim, a sale to zero, a new buy and a short', () => {
    expect(plan.targets.map((target) => [target.ticker, target.currentWeight, target.targetWeight])).toEqual(
      expect.arrayContaining([
        ['ACME', 15, 4],
        ['BETA', 5, 0],
        ['GAMMA', 0, 6],
        ['DELTA', 0, -3],
      ]),
    );
    expect(bars.size).toBe(8);
  });

  it("labels each bar with its own value: the grey one the current weight, the blue one the target's", () => {
    for (const [ticker, target] of weights) {
      expect(bars.get(`${ticker} now`)!.label.text).toBe(weightText(target.currentWeight));
      expect(bars.get(`${ticker} target`)!.label.text).toBe(weightText(target.targetWeight));
      expect(number(bars.get(`${ticker} now`)!.rect['data-value'])).toBe(target.currentWeight);
    }
  });

  it('sets each label on its own bar: on its line, beside its end (right of a long bar, left of a short)', () => {
    for (const [key, { rect, label }] of bars) {
      const top = number(rect.y);
      const baseline = number(label.y);
      expect(baseline, key).toBeGreaterThan(top);
      expect(baseline, key).toBeLessThanOrEqual(top + number(rect.height));
      const value = number(rect['data-value']);
      if (value < 0) {
        expect(label['text-anchor'], key).toBe('end');
        expect(number(rect.x) - number(label.x), key).toBeGreaterThanOrEqual(2);
        expect(number(rect.x) - number(label.x), key).toBeLessThanOrEqual(8);
      } else {
        const end = number(rect.x) + number(rect.width);
        expect(label['text-anchor'], key).toBe('start');
        expect(number(label.x) - end, key).toBeGreaterThanOrEqual(2);
        expect(number(label.x) - end, key).toBeLessThanOrEqual(8);
      }
    }
    // The bug: the target's 4.00 % stood after the 15 % grey bar.
    const acme = { now: bars.get('ACME now')!, target: bars.get('ACME target')! };
    expect(number(acme.target.label.x)).toBeLessThan(number(acme.now.rect.x) + number(acme.now.rect.width));
  });

  it("never puts a name's two labels on one line", () => {
    for (const ticker of weights.keys()) {
      const now = number(bars.get(`${ticker} now`)!.label.y);
      const target = number(bars.get(`${ticker} target`)!.label.y);
      expect(Math.abs(target - now), ticker).toBeGreaterThanOrEqual(layout.labelSize + 2);
    }
  });

  it('draws a zero weight as a tick at the axis with "0.00%" beside it', () => {
    for (const key of ['BETA target', 'GAMMA now', 'DELTA now']) {
      const { rect, label } = bars.get(key)!;
      expect(label.text, key).toBe('0.00%');
      expect(number(rect.width), key).toBeGreaterThanOrEqual(1.5);
      expect(rect.x).toBe(bars.get('ACME now')!.rect.x);
    }
  });

  it('keeps every label inside the drawing', () => {
    const width = number(/viewBox="0 0 (\d+)/.exec(svg)![1]);
    for (const [key, { label }] of bars) {
      const extent = label.text.length * layout.labelSize * 0.6;
      const x = number(label.x);
      if (label['text-anchor'] === 'end') expect(x - extent, key).toBeGreaterThanOrEqual(0);
      else expect(x + extent, key).toBeLessThanOrEqual(width);
    }
  });
});

describe('the narrow weights chart', () => {
  const svg = renderWeightsSvg(plan, narrowWeights)!;

  it('puts each ticker on its own line above its bars', () => {
    const tickers = [...svg.matchAll(/<text x="([\d.]+)" y="([\d.]+)"[^>]*font-weight="600"[^>]*>(\w+)<\/text>/g)];
    expect(tickers.map((match) => match[3])).toEqual(plan.targets.map((target) => target.ticker));
    const bars = barsOf(svg);
    for (const [, x, y, ticker] of tickers) {
      expect(Number(y)).toBeLessThanOrEqual(Number(bars.get(`${ticker} now`)!.rect.y));
      expect(Number(x)).toBeLessThan(10);
    }
  });

  it('is drawn at a phone width, so its smallest text is still 10 px on a 320 px screen', () => {
    const width = Number(/viewBox="0 0 (\d+)/.exec(svg)![1]);
    const sizes = [...svg.matchAll(/font-size="([\d.]+)"/g)].map((match) => Number(match[1]));
    expect(Math.min(...sizes) * ((320 - 20) / width)).toBeGreaterThanOrEqual(10);
  });
});

describe('the portfolio page', () => {
  const html = renderPortfolioHtml({ plan, asOf: '2026-11-27T21:00:00.000Z', lastSession: '2026-11-27', demo: false });

  it('uses the stylesheet of the run report and the view', () => {
    expect(html).toContain(`<style>${reportStyle}</style>`);
  });

  it('puts each table in its own scroll container, each cell labelled for the phone layout', () => {
    const tables = html.match(/<table[^>]*>/g) ?? [];
    expect(tables).toEqual(['<table class="stack">', '<table class="stack">']);
    expect(html.match(/<div class="scroll"><table class="stack">/g)).toHaveLength(2);
    expect(html).toContain('<td data-label="ticker">ACME</td><td data-label="action">BUY</td>');
    expect(html).toMatch(
      /<td class="wrap" data-label="reason">BUY, sized 4 % \(conviction 64, run run-ACME\): trim<\/td>/,
    );
    expect(reportStyle).toMatch(/@media \(max-width: 40rem\)[^@]*table\.stack tr \{ display: grid;/);
  });

  it('draws the chart wide and narrow, one shown by the shared stylesheet', () => {
    expect(html).toMatch(/<div class="chart-wide"><svg[^>]*data-layout="wide"/);
    expect(html).toMatch(/<div class="chart-narrow"><svg[^>]*data-layout="narrow"/);
    expect(html.match(/id="weights-title-(wide|narrow)"/g)).toEqual([
      'id="weights-title-wide"',
      'id="weights-title-narrow"',
    ]);
  });
});
