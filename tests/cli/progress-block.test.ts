import { describe, expect, it } from 'vitest';
import { progressBlock, type AgentState } from '../../src/cli/progress.js';

function states(tickers: number): Map<string, Map<string, AgentState>> {
  const all = new Map<string, Map<string, AgentState>>();
  for (let index = 0; index < tickers; index += 1) {
    const agents = new Map<string, AgentState>([
      ['director', { status: 'running', detail: '' }],
      [
        'quant',
        {
          status: index === 0 ? 'failed' : 'done',
          detail: index === 0 ? '— model call timed out after 60 s' : '1.2 s',
        },
      ],
      ['sentiment', { status: 'running', detail: '(exa_search)' }],
    ]);
    all.set(`T${index}`, agents);
  }
  return all;
}

describe('the live progress block', () => {
  it('a line per agent when it fits the terminal', () => {
    expect(progressBlock(states(2), { rows: 24, columns: 100 }).split('\n')).toEqual([
      'T0 director   … running',
      'T0 quant      ✗ failed — model call timed out after 60 s',
      'T0 sentiment  … running (exa_search)',
      'T1 director   … running',
      'T1 quant      ✓ done 1.2 s',
      'T1 sentiment  … running (exa_search)',
    ]);
  });

  it('many tickers on a short terminal collapse to one summary line', () => {
    expect(progressBlock(states(12), { rows: 24, columns: 100 })).toBe('24 running · 11 done · 1 failed');
  });

  it('lines are cut to the width, so a redraw never wraps', () => {
    for (const line of progressBlock(states(2), { rows: 24, columns: 30 }).split('\n'))
      expect(line.length).toBeLessThanOrEqual(28);
  });

  it('an unknown terminal size sets no limit', () => {
    expect(progressBlock(states(12), { rows: 0, columns: 0 }).split('\n')).toHaveLength(36);
  });
});
