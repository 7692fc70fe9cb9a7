import { describe, expect, it } from 'vitest';
import type { AnalysisResult } from '../../src/result/types.js';
import { allSections, reportView, type ReportView } from '../../src/report/view.js';
import { makeDecision, makeReport, makeResult, sentimentSearchResult } from '../support/results.js';

/**
 * reportView is the one place a report's content is decided: every fact, sentence,
 * table and list of a run lands in one section, and the renderers only lay it out.
 */

/** Where each item of a view sits: `facts:price` → `market`, `text:error` → `desk:risk`, ... */
function placements(view: ReportView): Map<string, string[]> {
  const where = new Map<string, string[]>();
  const put = (item: string, section: string) => where.set(item, [...(where.get(item) ?? []), section]);
  for (const section of allSections(view)) {
    const name = section.key === section.id ? section.id : `${section.id}:${section.key}`;
    for (const fact of section.detail ?? []) put(`detail:${fact.key}`, name);
    for (const part of section.parts) {
      if (part.kind === 'facts') for (const fact of part.facts) put(`fact:${fact.key}`, name);
      else if (part.kind === 'table') put(`table:${part.table.key}`, name);
      else if (part.kind === 'text' || part.kind === 'list') put(`${part.kind}:${part.key}`, name);
      else put(part.kind, name);
    }
  }
  return where;
}

const full = makeResult();
const degraded = makeResult({
  status: 'degraded',
  reports: [
    makeReport('quant'),
    makeReport('risk', { status: 'failed', text: '', error: 'model call timed out after 60 s' }),
    makeReport('execution'),
    makeReport('sentiment'),
  ],
  warnings: ['risk failed: model call timed out after 60 s'],
});
const stopSide = { rule: 'stop-side', severity: 'error' as const, message: 'stop above entry' };
const flagged = makeResult({
  status: 'flagged',
  decision: makeDecision({ stopLoss: 190 }),
  guardrails: [stopSide],
  decisionHistory: [
    { decision: makeDecision({ stopLoss: 190 }), guardrails: [stopSide] },
    { decision: makeDecision({ stopLoss: 190 }), guardrails: [stopSide] },
  ],
});
const desksOnly = makeResult({
  mode: 'agents',
  plan: null,
  decision: null,
  guardrails: [],
  reports: [makeReport('sentiment')],
});

const everyRun = {
  'fact:price': ['market'],
  'fact:change': ['market'],
  'fact:marketCap': ['market'],
  'fact:rsi': ['market'],
  'table:indicators': ['market'],
  chart: ['market'],
  'text:source': ['market'],
  'table:usage': ['usage'],
  'fact:status': ['status'],
  'fact:started': ['status'],
  'fact:took': ['status'],
};
const decided = {
  'fact:action': ['decision'],
  'fact:conviction': ['decision'],
  'fact:size': ['decision'],
  'fact:entry': ['decision'],
  'fact:stopLoss': ['decision'],
  'fact:takeProfit': ['decision'],
  'fact:rewardRisk': ['decision'],
  'table:levels': ['decision'],
  'text:rationale': ['decision'],
  'list:keyRisks': ['decision'],
  'text:dissent': ['decision'],
  'text:thesis': ['plan'],
  'list:briefs': ['plan'],
  findings: ['guardrails'],
};
const desks = (agents: string[]) => ({
  'detail:status': agents.map((agent) => `desk:${agent}`),
  'detail:model': agents.map((agent) => `desk:${agent}`),
});

const cases: Array<{
  name: string;
  result: AnalysisResult;
  sections: string[];
  placed: Record<string, string[]>;
  absent: string[];
}> = [
  {
    name: 'full',
    result: full,
    sections: ['market', 'decision', 'plan', 'guardrails', 'desks', 'sources:sentiment', 'usage', 'status'],
    placed: {
      ...everyRun,
      ...decided,
      ...desks(['quant', 'risk', 'execution', 'sentiment']),
      'desk-text': ['desk:quant', 'desk:risk', 'desk:execution', 'desk:sentiment'],
      'tool-calls': ['desk:sentiment'],
      sources: ['sources:sentiment'],
    },
    absent: ['text:error', 'text:flagged', 'text:failedDesks', 'list:warnings', 'list:review', 'text:none'],
  },
  {
    name: 'degraded',
    result: degraded,
    sections: ['market', 'decision', 'plan', 'guardrails', 'desks', 'sources:sentiment', 'warnings', 'usage', 'status'],
    placed: {
      ...everyRun,
      ...decided,
      ...desks(['quant', 'risk', 'execution', 'sentiment']),
      'text:error': ['desk:risk'],
      'text:failedDesks': ['status'],
      'list:warnings': ['warnings'],
      'desk-text': ['desk:quant', 'desk:execution', 'desk:sentiment'],
    },
    absent: ['text:flagged', 'list:review', 'text:empty'],
  },
  {
    name: 'flagged',
    result: flagged,
    sections: ['market', 'decision', 'plan', 'guardrails', 'review', 'desks', 'sources:sentiment', 'usage', 'status'],
    placed: { ...everyRun, ...decided, 'text:flagged': ['status'], 'list:review': ['review'] },
    absent: ['text:error', 'text:failedDesks', 'list:warnings'],
  },
  {
    name: 'desks-only',
    result: desksOnly,
    sections: ['market', 'desks', 'sources:sentiment', 'usage', 'status'],
    placed: { ...everyRun, ...desks(['sentiment']), 'tool-calls': ['desk:sentiment'], sources: ['sources:sentiment'] },
    absent: Object.keys(decided),
  },
];

describe('reportView puts every fact in its section', () => {
  it.each(cases)('$name run', ({ result, sections, placed, absent }) => {
    const view = reportView(result);
    expect(
      view.sections.map((section) => (section.key === section.id ? section.id : `${section.id}:${section.key}`)),
    ).toEqual(sections);
    const where = placements(view);
    for (const [item, expected] of Object.entries(placed)) expect(where.get(item), item).toEqual(expected);
    for (const item of absent) expect(where.get(item), item).toBeUndefined();
  });

  it('opens with the demo and historical notices, and names the run once in its meta', () => {
    const view = reportView(makeResult({ demo: true, asOf: '2024-03-01T21:00:00.000Z', asOfMode: 'historical' }));
    expect(view.notices.map((notice) => notice.key)).toEqual(['demo', 'historical']);
    expect(view.meta.map((fact) => fact.key)).toEqual(['run', 'asOf', 'status', 'mode', 'wallTime']);
    expect(reportView(full).notices).toEqual([]);
  });

  it("the as-of names the session close of the ticker's own exchange, early closes included", () => {
    const asOf = (result: Partial<AnalysisResult>) =>
      reportView(makeResult(result)).meta.find((fact) => fact.key === 'asOf')?.value;
    // 2026-11-27 closed early in New York (13:00, 18:00 UTC): 21:00 UTC is after the close, not the close.
    expect(asOf({ asOf: '2026-11-27T18:00:00.000Z' })).toBe('2026-11-27 18:00 UTC (session close)');
    expect(asOf({ asOf: '2026-11-27T21:00:00.000Z' })).toBe('2026-11-27 21:00 UTC');
    expect(asOf({ asOf: '2026-11-30T21:00:00.000Z' })).toBe('2026-11-30 21:00 UTC (session close)');
    // Tokyo closes at 15:30 JST (06:30 UTC).
    expect(asOf({ ticker: '7203.T', asOf: '2025-07-04T06:30:00.000Z' })).toBe('2025-07-04 06:30 UTC (session close)');
  });

  it('without market data, the market section says so in one sentence and has no facts', () => {
    const where = placements(reportView(makeResult({ market: null })));
    expect(where.get('text:unavailable')).toEqual(['market']);
    expect(where.get('fact:price')).toBeUndefined();
    expect(where.get('chart')).toBeUndefined();
  });
});

describe('whose sources: the desks that searched, not an agent id', () => {
  const search = makeReport('sentiment').toolCalls[0]!;

  it('a Quant desk that searched gets its sources; a Sentiment desk that did not, none', () => {
    const view = reportView(
      makeResult({
        reports: [
          makeReport('quant', { toolCalls: [{ ...search, result: sentimentSearchResult }] }),
          makeReport('sentiment', { toolCalls: [] }),
        ],
      }),
    );
    const sources = view.sections.filter((section) => section.id === 'sources');
    expect(sources.map((section) => [section.key, section.title])).toEqual([['quant', 'Sources cited by Quant']]);
    const part = sources[0]!.parts[0]!;
    expect(part.kind === 'sources' && part.sources.map((source) => source.url)).toEqual([
      'https://news.example.com/acme-beats',
      'https://wire.example.org/export-rules',
    ]);
  });

  it('a call to a tool that does not search adds no sources, even with URLs in its result', () => {
    const view = reportView(
      makeResult({
        reports: [
          makeReport('risk', { toolCalls: [{ ...search, name: 'get_quote', result: 'https://x.example.com/' }] }),
        ],
      }),
    );
    expect(view.sections.some((section) => section.id === 'sources')).toBe(false);
  });

  it('an MCP search tool counts as a search; one that found nothing says None.', () => {
    const view = reportView(
      makeResult({
        reports: [
          makeReport('sentiment', {
            text: 'Nothing.',
            toolCalls: [{ ...search, name: 'brave__web_search', result: '[]' }],
          }),
        ],
      }),
    );
    const sources = view.sections.find((section) => section.id === 'sources')!;
    expect(sources.parts).toEqual([{ kind: 'text', key: 'none', text: 'None.', tone: 'muted' }]);
  });
});
