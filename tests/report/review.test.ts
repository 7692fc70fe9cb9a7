import { describe, expect, it } from 'vitest';
import type { Decision, GuardrailFinding } from '../../src/result/types.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { decisionChanges, reviewLines } from '../../src/report/revision.js';
import { renderTerminal } from '../../src/report/terminal.js';
import { makeResult } from '../support/results.js';

const first: Decision = makeResult().decision!;
const revised: Decision = { ...first, stopLoss: 168, takeProfit: 205, rationale: 'Stop moved under support.' };
const stopSide: GuardrailFinding = {
  rule: 'stop-side',
  severity: 'error',
  message: 'stop-loss 190 is at or above the entry 180 for a BUY',
};
const broken: Decision = { ...first, stopLoss: 190, takeProfit: 200 };

describe('the review pass in the reports', () => {
  it('names the rules the first decision broke and what the revision changed', () => {
    const result = makeResult({
      decision: revised,
      decisionHistory: [
        { decision: broken, guardrails: [stopSide] },
        { decision: revised, guardrails: [] },
      ],
    });
    expect(decisionChanges(broken, revised)).toEqual(['stop 190 → 168', 'target 200 → 205', 'rationale rewritten']);
    const lines = reviewLines(result)!;
    expect(lines[0]).toBe(
      'The first decision broke 1 guardrail rule (stop-side); the Director was asked to revise it.',
    );
    expect(lines.at(-1)).toBe(
      'Revision 1: stop 190 → 168; target 200 → 205; rationale rewritten — it passes the rules.',
    );
    const terminal = renderTerminal(result, { color: false, unicode: true, width: 120 });
    expect(terminal).toContain('Review');
    expect(terminal).toContain('Revision 1: stop 190 → 168');
    const markdown = renderMarkdown(result);
    expect(markdown).toContain('## Review\n\n- The first decision broke 1 guardrail rule (stop-side)');
  });

  it('says when the review could not be replayed, and a flagged run says it is flagged', () => {
    const result = makeResult({
      status: 'flagged',
      decision: broken,
      guardrails: [stopSide],
      decisionHistory: [{ decision: broken, guardrails: [stopSide] }],
      reviewFailure: { kind: 'replay-miss', message: 'no recorded response' },
    });
    expect(reviewLines(result)).toEqual([
      'The first decision broke 1 guardrail rule (stop-side); the Director was asked to revise it.',
      'The review could not be replayed (the cassette holds no review exchange): the first decision stands.',
    ]);
    const terminal = renderTerminal(result, { color: false, unicode: true, width: 120 });
    expect(terminal).toContain('status flagged');
    expect(terminal).toContain(
      'Flagged: the decision breaks 1 guardrail rule (exit code 4); do not act on it unchecked.',
    );
    expect(renderMarkdown(result)).toContain('**flagged**');
  });

  it('shows no review section when no review was asked for', () => {
    const result = makeResult({ decisionHistory: [{ decision: first, guardrails: [] }] });
    expect(reviewLines(result)).toBeNull();
    expect(renderMarkdown(result)).not.toContain('## Review');
  });
});
