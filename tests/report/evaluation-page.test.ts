import { describe, expect, it } from 'vitest';
import type { DecisionRow } from '../../src/evaluate/evaluate.js';
import { evaluationPage, rowMarks, type EvaluationDocument } from '../../src/report/evaluation-page.js';
import { renderEvaluationHtml } from '../../src/report/evaluation-html.js';

/** evaluation.html's page model: the coverage headline, the banners and each row's marks, from the JSON alone. */

function row(overrides: Partial<DecisionRow> = {}): DecisionRow {
  return {
    runId: '20250602T200000Z-ACME-aaaaaa',
    ticker: 'ACME',
    asOf: '2025-06-02T20:00:00.000Z',
    asOfMode: 'live',
    contamination: 'clean',
    action: 'BUY',
    conviction: 70,
    orderType: 'market',
    entry: 100,
    stopLoss: 95,
    takeProfit: 110,
    rescaled: null,
    momentum: 'BUY',
    entrySession: '2025-06-03',
    horizons: [],
    problem: null,
    status: 'ok',
    demo: false,
    ...overrides,
  };
}

function document(overrides: Partial<EvaluationDocument> = {}): EvaluationDocument {
  return {
    decisions: [row()],
    summary: { seed: 1, groups: [] },
    evaluatedAt: '2025-09-01T00:00:00.000Z',
    horizons: [5],
    benchmark: 'SPY',
    skipped: [],
    unreadable: 0,
    warnings: [],
    ...overrides,
  } as EvaluationDocument;
}

describe('evaluationPage', () => {
  it('says which decisions it covers: all, with what --forward-only would exclude and why', () => {
    const page = evaluationPage(
      document({
        decisions: [row(), row({ runId: 'b' }), row({ runId: 'c' })],
        forward: { applied: false, included: 1, excluded: { 'no-record': 1, 'recorded-after-outcome': 1 }, total: 3 },
      }),
    );
    expect(page.headline[0]).toBe(
      'Covers all 3 decision(s), not only the forward ones: 2 would be excluded under --forward-only (1 no ledger record; 1 recorded after its outcome window opened).',
    );
    expect(page.notices.map((notice) => notice.key)).toEqual(['forward']);
  });

  it('says forward-only when it was applied, and marks nothing as not forward', () => {
    const page = evaluationPage(
      document({ forward: { applied: true, included: 1, excluded: { contaminated: 2 }, total: 3 } }),
    );
    expect(page.headline[0]).toContain(
      'Forward-only: 1 of 3 decision(s) were sealed in the ledger before their outcome',
    );
    expect(page.headline[0]).toContain('left out: 2 not clean');
    expect(page.notices).toEqual([]);
  });

  it('marks a demo, a contaminated, an as-of, a rescaled and a flagged decision', () => {
    expect(rowMarks(row(), false)).toEqual([]);
    expect(
      rowMarks(
        row({
          demo: true,
          contamination: 'contaminated',
          asOfMode: 'historical',
          status: 'flagged',
          rescaled: { date: '2025-06-02', savedClose: 1, refetchedClose: 2, ratio: 2 },
        }),
        false,
      ),
    ).toEqual(['DEMO', 'CONTAMINATED', 'NOT FORWARD (as-of run)', 'RESCALED', 'FLAGGED']);
    // An evaluation saved before rows carried `demo`: the page's DEMO label marks every row.
    expect(rowMarks({ ...row(), demo: undefined }, true)).toEqual(['DEMO']);
  });

  it('puts the DEMO and CONTAMINATED banners first, and escapes what the files hold', () => {
    const html = renderEvaluationHtml(
      evaluationPage(
        document({
          demo: { runs: 1, syntheticPrices: true, banner: 'DEMO — synthetic' },
          decisions: [row({ contamination: 'contaminated', ticker: '<b>X</b>' })],
        }),
        { runLink: (runId) => `../runs/${runId}/report.html` },
      ),
    );
    expect(html).toContain('<p class="banner" data-demo="">DEMO — synthetic</p>');
    expect(html).toContain('data-contaminated=""');
    expect(html).toContain('&lt;b&gt;X&lt;/b&gt;');
    expect(html).not.toContain('<b>X</b>');
    expect(html).toContain('<a href="../runs/20250602T200000Z-ACME-aaaaaa/report.html">');
  });
});
