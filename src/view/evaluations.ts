import { z } from 'zod';
import type { EvaluationDocument } from '../report/evaluation-page.js';
import type { HomeFiles } from './home-files.js';

/**
 * Saved evaluations ($AUTOHEDGE_HOME/evaluations/<id>/evaluation.json), newest first, and
 * the track record's cache. evaluation.json is a file on disk: it is checked for the
 * shape the page reads before it is used, and one that is not an evaluation is skipped.
 */

const groupSchema = z.looseObject({
  contamination: z.enum(['clean', 'unknown', 'contaminated']),
  horizon: z.number(),
  strategies: z.array(z.looseObject({ strategy: z.string(), count: z.number() })),
  regimes: z.looseObject({}),
  calibration: z.looseObject({ buckets: z.array(z.looseObject({ from: z.number(), n: z.number() })) }),
  costs: z.looseObject({}),
});

const documentSchema = z.looseObject({
  demo: z.looseObject({ runs: z.number(), syntheticPrices: z.boolean(), banner: z.string() }).optional(),
  decisions: z.array(
    z.looseObject({
      runId: z.string(),
      ticker: z.string(),
      asOf: z.string(),
      action: z.enum(['BUY', 'SELL', 'HOLD']),
      contamination: z.enum(['clean', 'unknown', 'contaminated']),
      horizons: z.array(z.looseObject({ horizon: z.number(), outcome: z.string() })),
    }),
  ),
  summary: z.looseObject({ seed: z.number(), groups: z.array(groupSchema) }),
  evaluatedAt: z.string(),
  horizons: z.array(z.number()),
  benchmark: z.string(),
  skipped: z.array(z.looseObject({ runId: z.string(), reason: z.string() })),
  warnings: z.array(z.string()),
});

/** evaluation.json's text as a document the page can read, or null. */
export function parseEvaluationDocument(text: string): EvaluationDocument | null {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return null;
  }
  // The schema checks what the page reads; the rest of the document is passed through as written.
  return documentSchema.safeParse(raw).success ? (raw as EvaluationDocument) : null;
}

export interface SavedEvaluation {
  id: string;
  document: EvaluationDocument;
}

/** Saved evaluation ids, newest first (an id starts with its UTC time). */
export async function evaluationIds(files: HomeFiles): Promise<string[]> {
  return (await files.list(['evaluations'], 'directories')).reverse();
}

export async function readEvaluation(files: HomeFiles, id: string): Promise<SavedEvaluation | null> {
  const text = await files.readText(['evaluations', id, 'evaluation.json']);
  const document = text === null ? null : parseEvaluationDocument(text);
  return document ? { id, document } : null;
}

/** The newest saved evaluation of this kind: one on the demo's synthetic prices under --demo, else one on real prices. */
export async function latestEvaluation(files: HomeFiles, demo: boolean): Promise<SavedEvaluation | null> {
  for (const id of await evaluationIds(files)) {
    const saved = await readEvaluation(files, id);
    if (saved && (saved.document.demo?.syntheticPrices === true) === demo) return saved;
  }
  return null;
}

/**
 * One computed evaluation kept in memory, keyed by the state of the runs it scored: a
 * run saved or rewritten since makes the next request compute again. Never written.
 */
export class EvaluationCache {
  private entry: { key: string; document: Promise<EvaluationDocument>; at: Date } | null = null;

  constructor(private readonly compute: () => Promise<EvaluationDocument>) {}

  get(key: string, now: Date): { document: Promise<EvaluationDocument>; at: Date } {
    if (this.entry?.key !== key) {
      const document = this.compute();
      const entry = { key, document, at: now };
      this.entry = entry;
      // A failed computation is not kept: the next request tries again.
      document.catch(() => {
        if (this.entry === entry) this.entry = null;
      });
    }
    return this.entry!;
  }
}
