import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { checkClaims } from '../../src/claims/index.js';
import { renderHtml } from '../../src/report/html.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { renderTerminal } from '../../src/report/terminal.js';
import { reportView } from '../../src/report/view.js';
import type { AnalysisResult } from '../../src/result/types.js';
import { chromiumMissing, chromiumPath, runChromium } from '../support/chromium.js';
import { makeDecision, makeReport, makeResult } from '../support/results.js';

/** A run whose decision cites a wrong RSI (the data: 61.24) and whose Quant cites the right one. */
function claimedResult(): AnalysisResult {
  const base = makeResult({
    decision: makeDecision({ rationale: 'RSI(14) at 48.2 and a limit at 180.00 with a stop at 168.00.' }),
    reports: [
      makeReport('quant', { text: 'TREND\nRSI(14) 61.2 with ATR(14) 4.10 USD.\nMomentum reading 0.70.' }),
      makeReport('risk'),
    ],
  });
  const { claims, summary } = checkClaims(base);
  return { ...base, claims, claimsSummary: summary };
}

describe('claims in the reports', () => {
  const result = claimedResult();

  test('the view carries each figure marked, its notes in reading order, and a Figures section', () => {
    const view = reportView(result);
    const decision = view.sections.find((section) => section.id === 'decision')!;
    const rationale = decision.parts.find((part) => part.kind === 'text' && part.key === 'rationale');
    expect(rationale?.kind === 'text' && rationale.marked).toEqual([
      { text: 'RSI(14) at ' },
      {
        text: '48.2',
        mark: {
          status: 'contradicted',
          note: 1,
          title: 'contradicted: the data has 61.2 (snapshot.indicators.rsi14 = 61.24)',
          truth: '61.2',
        },
      },
      { text: ' and a limit at ' },
      { text: '180.00', mark: { status: 'verified', note: 2, title: 'verified: decision.entry = 180' } },
      { text: ' with a stop at ' },
      { text: '168.00', mark: { status: 'verified', note: 3, title: 'verified: decision.stopLoss = 168' } },
      { text: '.' },
    ]);
    expect(view.notes.map((note) => note.number)).toEqual(view.notes.map((_, index) => index + 1));
    const figures = view.sections.find((section) => section.id === 'figures');
    expect(figures?.claims).toEqual([
      {
        text: 'Decision, rationale: RSI(14) 48.2',
        verdict: 'contradicted',
        source: 'snapshot.indicators.rsi14',
        detail: 'the data has 61.2',
      },
    ]);
  });

  test('the terminal prints one line per agent and every contradicted figure with the true value', () => {
    const text = renderTerminal(result, { color: false, unicode: true, width: 100, saved: false });
    expect(text).toContain('── Figures');
    expect(text).toContain('Quant: 3 figures — 2 verified, 1 unsourced');
    expect(text).toMatch(/Director: \d+ figures — .*1 contradicted/);
    expect(text).toContain(
      '✗ Decision, rationale: RSI(14) 48.2: contradicted (snapshot.indicators.rsi14; the data has 61.2)',
    );
    // A run saved before claims existed has no such section.
    const { claims: _claims, claimsSummary: _summary, ...old } = result;
    expect(renderTerminal(old, { color: false, unicode: true, width: 100, saved: false })).not.toContain('Figures');
  });

  test('report.md gives each checked number a footnote with its source; a contradicted one shows the true value', () => {
    const markdown = renderMarkdown(result);
    expect(markdown).toContain('**Rationale.** RSI(14) at **48.2** _(the data: 61.2)_[^c1]');
    expect(markdown).toMatch(/a limit at 180\.00\[\^c(\d+)\] with a stop at 168\.00\[\^c\d+\]/);
    expect(markdown).toContain('[^c1]: contradicted: the data has 61.2 (snapshot.indicators.rsi14 = 61.24)');
    expect(markdown).toMatch(/\[\^c\d+\]: verified: decision\.entry = 180\n/);
    expect(markdown).toContain('RSI(14) 61.2[^c');
    expect(markdown).toMatch(/reading 0\.70\[\^c(\d+)\][\s\S]*\[\^c\1\]: unsourced: no value of the run matches/);
    // Each footnote used is defined once.
    const used = new Set([...markdown.matchAll(/\[\^(c\d+)\](?!:)/g)].map((match) => match[1]));
    const defined = [...markdown.matchAll(/^\[\^(c\d+)\]:/gm)].map((match) => match[1]);
    expect(new Set(defined)).toEqual(used);
    expect(defined).toHaveLength(used.size);
  });
});

describe.skipIf(!chromiumPath())('claims in report.html, in headless Chromium', () => {
  let directory: string;
  let dom: string;

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'autohedge-claims-html-'));
    const file = join(directory, 'report.html');
    await writeFile(file, renderHtml(claimedResult()));
    dom = (await runChromium(pathToFileURL(file).href, ['--dump-dom'])).stdout;
  }, 90_000);

  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  test('a contradicted figure is highlighted with the true value beside it and a hover title', () => {
    expect(dom).toContain(
      '<mark class="claim claim-contradicted" title="contradicted: the data has 61.2 (snapshot.indicators.rsi14 = 61.24)">48.2</mark> <span class="claim-truth">(the data: 61.2)</span>',
    );
  });

  test('a verified figure carries its source as a hover title and links to its note', () => {
    const match =
      /<span class="claim claim-verified" title="verified: decision\.entry = 180">180\.00<\/span><sup class="claim-ref"><a href="#claim-note-(\d+)">\1<\/a><\/sup>/.exec(
        dom,
      );
    expect(match).not.toBeNull();
    expect(dom).toContain(
      `<li id="claim-note-${match![1]}" class="claim-note claim-note-verified">verified: decision.entry = 180</li>`,
    );
    expect(dom).toContain('<section id="figures"><h2>Figures</h2>');
  });
});

test.runIf(!chromiumPath())('claims in report.html, in headless Chromium', () => {
  console.warn(chromiumMissing);
});
