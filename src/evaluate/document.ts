import type { Evaluation } from './evaluate.js';
import type { ForwardSummary } from './forward.js';
import type { SkippedRun } from './select.js';
import type { EvaluationSummary } from './summary.js';

/** An evaluation as its renderers and its JSON see it. */
export interface EvaluationView {
  evaluation: Evaluation;
  summary: EvaluationSummary;
  /** Runs that were asked for (or found) but not scored, with why; `unreadable` when they could not be read. */
  skipped: SkippedRun[];
  /** Re-runs of a scored call set aside (also in `skipped`, marked `rerun`); absent in older evaluations. */
  reruns?: number;
  /** The ledger's verdict on the selected decisions (docs/ledger.md#evaluate---forward-only); absent in older evaluations. */
  forward?: ForwardSummary & { total: number };
  /** Set when demo runs (synthetic analyses) were scored; `syntheticPrices` with `evaluate --demo`. */
  demo?: EvaluationDemo;
}

export interface EvaluationDemo {
  /** How many of the scored decisions are demo runs. */
  runs: number;
  /** The prices were the bundled synthetic ones (demo/evaluation.cassette.json), not the market's. */
  syntheticPrices: boolean;
}

/** The line every surface of an evaluation of demo runs opens with. */
export function evaluationDemoBanner(demo: EvaluationDemo): string {
  return demo.syntheticPrices
    ? `DEMO — ${demo.runs} demo decision(s) scored against synthetic prices (the fictional ACME and a synthetic stand-in for SPY); not real results`
    : `DEMO — ${demo.runs} demo run(s) among these decisions (synthetic analyses): their scores mean nothing`;
}

/**
 * The one JSON shape of an evaluation: `evaluate --json`, evaluation.json and the MCP
 * `evaluate` tool all serialise this object, so they cannot drift apart.
 */
export function evaluationDocument(view: EvaluationView) {
  const { evaluation, summary, skipped, forward, demo, reruns } = view;
  return {
    ...(demo ? { demo: { ...demo, banner: evaluationDemoBanner(demo) } } : {}),
    decisions: evaluation.decisions,
    summary,
    evaluatedAt: evaluation.evaluatedAt,
    horizons: evaluation.horizons,
    benchmark: evaluation.benchmark,
    skipped,
    /** Re-runs set aside: one decision per (ticker, entry session, configuration), the newest, is scored. */
    reruns: reruns ?? 0,
    /** Saved runs that could not be read or understood (also in `skipped`, marked `unreadable`). */
    unreadable: skipped.filter((item) => item.unreadable).length,
    warnings: evaluation.warnings,
    ...(forward ? { forward } : {}),
  };
}
