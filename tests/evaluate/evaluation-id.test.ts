import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeEvaluationId } from '../../src/evaluate/evaluation-id.js';
import { evaluationIds } from '../../src/view/evaluations.js';
import { HomeFiles } from '../../src/view/home-files.js';

describe('makeEvaluationId', () => {
  it('two evaluations made in the same millisecond get two ids, each starting with its UTC second', () => {
    const at = new Date('2026-12-07T16:55:00.042Z');
    const ids = Array.from({ length: 50 }, () => makeEvaluationId(at));
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^20261207T165500Z-evaluation-042[0-9a-f]{6}$/);
  });

  it('sorts by when it was made, to the millisecond, and after an id saved before the suffix', () => {
    const older = '20261207T165500Z-evaluation';
    const ids = [
      makeEvaluationId(new Date('2026-12-07T16:55:00.900Z')),
      makeEvaluationId(new Date('2026-12-07T16:55:01.005Z')),
      makeEvaluationId(new Date('2026-12-07T16:55:01.010Z')),
    ];
    expect([...ids].reverse().concat(older).sort()).toEqual([older, ...ids]);
  });

  it('the view lists ids of both forms, newest first', async () => {
    const home = mkdtempSync(join(tmpdir(), 'autohedge-evaluation-ids-'));
    const newer = makeEvaluationId(new Date('2026-12-07T16:55:00.000Z'));
    const newest = makeEvaluationId(new Date('2026-12-07T16:55:00.000Z'));
    const older = '20261130T120000Z-evaluation';
    for (const id of [older, newer, newest]) mkdirSync(join(home, 'evaluations', id), { recursive: true });
    const listed = await evaluationIds(new HomeFiles(home));
    expect(listed).toHaveLength(3);
    expect(listed.at(-1)).toBe(older);
    expect(new Set(listed.slice(0, 2))).toEqual(new Set([newer, newest]));
  });
});
