import { describe, expect, it } from 'vitest';
import type { FailureKind } from '../../src/agent/types.js';
import { runStatus, type RunFacts } from '../../src/pipeline/run-status.js';

const facts = (overrides: Partial<RunFacts> = {}): RunFacts => ({
  interrupted: false,
  marketMissing: false,
  desks: [null, null, null, null],
  director: null,
  findings: [],
  ...overrides,
});

const four = (kind: FailureKind | null): Array<FailureKind | null> => [kind, kind, kind, kind];

describe('runStatus: the one rule from facts to status', () => {
  // [what happened, facts, status]
  const table: Array<[string, Partial<RunFacts>, ReturnType<typeof runStatus>]> = [
    ['everything reported, no finding', {}, 'ok'],
    ['warnings and infos only', { findings: ['warning', 'info'] }, 'ok'],
    ['one desk failed', { desks: [null, 'model', null, null] }, 'degraded'],
    ['one desk timed out', { desks: ['timeout', null, null, null] }, 'degraded'],
    ['one desk stopped by the cap', { desks: [null, null, 'budget', null] }, 'degraded'],
    ['market data missing', { marketMissing: true }, 'degraded'],
    ['market data missing and a desk failed', { marketMissing: true, desks: ['model', null, null, null] }, 'degraded'],
    ['every desk failed', { desks: four('model') }, 'failed'],
    ['every desk failed, one by the cap', { desks: ['model', 'budget', 'timeout', 'model'] }, 'degraded'],
    ['every desk stopped by the cap', { desks: four('budget') }, 'degraded'],
    ['the Director failed (plan or decision)', { director: 'model' }, 'failed'],
    ['the Director broke its schema twice', { director: 'schema' }, 'failed'],
    ['the Director timed out', { director: 'timeout' }, 'failed'],
    ['the Director stopped by the cap', { director: 'budget' }, 'degraded'],
    ['the decision breaks a rule', { findings: ['warning', 'error'] }, 'flagged'],
    [
      'degraded and flagged is flagged',
      { desks: [null, 'model', null, null], marketMissing: true, findings: ['error'] },
      'flagged',
    ],
    ['failed beats flagged', { director: 'model', findings: ['error'] }, 'failed'],
    [
      'interrupted beats everything',
      { interrupted: true, director: 'model', desks: four('interrupted'), findings: ['error'] },
      'interrupted',
    ],
    ['interrupted with every desk done', { interrupted: true }, 'interrupted'],
    ['--agent with one desk that reported', { desks: [null] }, 'ok'],
    ['--agent with its only desk failed', { desks: ['model'] }, 'failed'],
    ['--agent with its only desk stopped by the cap', { desks: ['budget'] }, 'degraded'],
  ];
  it.each(table)('%s', (_name, overrides, status) => {
    expect(runStatus(facts(overrides))).toBe(status);
  });
});
