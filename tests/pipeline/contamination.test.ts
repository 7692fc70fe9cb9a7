import { describe, expect, it } from 'vitest';
import { contaminationOf, cutoffFor } from '../../src/pipeline/contamination.js';

describe('training cutoffs and contamination labels', () => {
  it('a model id, a dated snapshot of it, an unknown one', () => {
    expect(cutoffFor('gpt-4.1')).toBe('2024-06-30');
    expect(cutoffFor('gpt-4.1-mini')).toBe('2024-06-30');
    expect(cutoffFor('gpt-4o-2024-08-06')).toBe('2023-10-31');
    expect(cutoffFor('gpt-4o-mini-2024-07-18')).toBe('2023-10-31');
    expect(cutoffFor('GPT-5')).toBe('2024-09-30');
    expect(cutoffFor('llama3.1:8b')).toBeNull();
    // A prefix match needs the dash: "gpt-4.10" is not gpt-4.1.
    expect(cutoffFor('gpt-4.10')).toBeNull();
  });

  it('historical: before any cutoff is contaminated, on the cutoff day too; after all is clean', () => {
    expect(contaminationOf('2024-06-30', ['gpt-4.1', 'gpt-4o-mini'], true)).toMatchObject({ label: 'contaminated' });
    expect(contaminationOf('2024-06-30', ['gpt-4.1', 'gpt-4o-mini'], true).reason).toBe(
      'as of 2024-06-30, before the training cutoff of gpt-4.1 (trained to 2024-06-30): the model may remember what happened next',
    );
    expect(contaminationOf('2024-07-01', ['gpt-4.1', 'gpt-4o-mini'], true).label).toBe('clean');
  });

  it('an unknown cutoff makes a not-contaminated run unknown, never clean', () => {
    expect(contaminationOf('2025-06-02', ['gpt-4.1', 'my-local-model'], true).label).toBe('unknown');
    // A known contamination wins over an unknown cutoff.
    expect(contaminationOf('2024-01-02', ['gpt-4.1', 'my-local-model'], true).label).toBe('contaminated');
  });

  it('a live run is clean, whatever the model', () => {
    expect(contaminationOf('2026-11-27', ['my-local-model'], false)).toMatchObject({
      label: 'clean',
      models: [{ model: 'my-local-model', cutoff: null }],
    });
  });
});
