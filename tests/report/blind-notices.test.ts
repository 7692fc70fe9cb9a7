import { describe, expect, it } from 'vitest';
import { renderHtml } from '../../src/report/html.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { renderTerminal } from '../../src/report/terminal.js';
import { reportView } from '../../src/report/view.js';
import { makeResult } from '../support/results.js';

const stability = {
  k: 3,
  agreement: 1 / 3,
  actions: { BUY: 1, SELL: 1, HOLD: 1 },
  spread: { positionSizePct: 0, entry: null, stopLoss: null, takeProfit: null },
  failed: 0,
};
const blindRun = makeResult({
  blind: { alias: 'Company A', scale: 1.8312 },
  stability,
  guardrails: [{ rule: 'unstable-decision', severity: 'error', message: 'the samples disagree' }],
});

describe('a blind, sampled run opens every report with BLIND and STABILITY', () => {
  it('the view carries both notices, the unstable one in bad tone; a named run carries neither', () => {
    const notices = reportView(blindRun).notices;
    expect(notices.map((notice) => notice.key)).toEqual(['blind', 'stability']);
    expect(notices[0]?.text).toMatch(/^BLIND — the models saw "Company A".*real = blind × 1\.8312/);
    expect(notices[1]).toMatchObject({
      tone: 'bad',
      text: expect.stringContaining('BUY 1, SELL 1, HOLD 1 · agreement 33 %'),
    });
    expect(reportView(makeResult()).notices.map((notice) => notice.key)).not.toContain('blind');
  });

  it('terminal, markdown and HTML put the notices first', () => {
    const terminal = renderTerminal(blindRun, { color: false, unicode: true, width: 200 });
    expect(terminal.split('\n').slice(0, 3).join('\n')).toContain('BLIND —');
    expect(renderMarkdown(blindRun).split('\n').slice(0, 6).join('\n')).toContain('> **BLIND —');
    expect(renderHtml(blindRun)).toContain('data-blind="">BLIND —');
  });
});
