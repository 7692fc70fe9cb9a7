import type { AgentFailure, AgentReport } from '../agent/types.js';
import type { Unblind } from '../market/blind.js';
import type { MarketSnapshot } from '../market/types.js';
import type { Director } from './director.js';
import { checkDecision, type GuardrailLimits } from '../guardrails/guardrails.js';
import { consensusOf, sampleOrders, stabilityFindings, type Stability } from './stability.js';
import type { Decision, DecisionRecord, GuardrailFinding, Plan } from '../result/types.js';

/**
 * 4–5 of a run: the Director's decision (k samples with `--samples`), checked by the
 * guardrails. In a blind run the Director decides — and is reviewed — in blind units
 * against the blind snapshot, so no finding quotes a real price; its levels are then
 * mapped back to real prices and checked again against the real snapshot, which is what
 * the run keeps.
 */
export interface DecideInput {
  director: Director;
  plan: Plan;
  reports: AgentReport[];
  /** The real snapshot. */
  market: MarketSnapshot | null;
  /** Set in a blind run: what the Director saw, and the way back. */
  blind: { snapshot: MarketSnapshot | null; unblind: Unblind } | null;
  limits: GuardrailLimits;
  /** 1 (one decision, today's behaviour) or more. */
  samples: number;
  minAgreement: number;
  signal: AbortSignal;
  /**
   * Findings on the decision's words (the claims: src/pipeline/claims.ts), in the units the
   * Director wrote them in, against the snapshot it read (the blind one in a blind run).
   */
  wordFindings?: (decision: Decision, market: MarketSnapshot | null) => GuardrailFinding[];
}

export interface DecideOutcome {
  decision: Decision | null;
  guardrails: GuardrailFinding[];
  /** In real prices. */
  history: DecisionRecord[];
  /** Set with `--samples`. */
  stability?: Stability;
  /** Why no decision was made. */
  failure: AgentFailure | null;
  /** A review pass (or a later sample) that failed while a decision stands. */
  reviewFailure: AgentFailure | null;
  /** Set with `--samples`: how many were asked for and how many made a decision. */
  samples?: { asked: number; made: number };
  /** The --max-cost cap stopped samples before all asked for were made: the run is degraded. */
  capCut?: AgentFailure;
  warnings: string[];
}

interface Sample {
  report: AgentReport<Decision>;
  /** In the Director's units (blind in a blind run). */
  history: DecisionRecord[];
}

export async function decide(input: DecideInput): Promise<DecideOutcome> {
  const seen = input.blind ? input.blind.snapshot : input.market;
  const words = (decision: Decision) => input.wordFindings?.(decision, seen) ?? [];
  const check = (decision: Decision) => [...checkDecision(decision, seen, input.limits), ...words(decision)];
  const samples = await runSamples(input, check);
  const real = (decision: Decision): DecisionRecord => {
    const levels = input.blind ? input.blind.unblind.levels(decision) : decision;
    return { decision: levels, guardrails: [...checkDecision(levels, input.market, input.limits), ...words(decision)] };
  };
  if (input.samples <= 1) return single(samples[0]!, real);
  return sampled(input, samples, real);
}

/** The samples one after another, so the cap sees each one's spend before the next starts; the first failure of the cap ends them. */
async function runSamples(input: DecideInput, check: (decision: Decision) => GuardrailFinding[]): Promise<Sample[]> {
  if (input.samples <= 1) return [await input.director.decide(input.plan, input.reports, check)];
  const samples: Sample[] = [];
  for (const [index, order] of sampleOrders(input.reports, input.samples).entries()) {
    if (input.signal.aborted) break;
    const sample = await input.director.decide(input.plan, order, check, { seed: index + 1 });
    samples.push(sample);
    if (sample.report.failure?.kind === 'budget' && sample.history.length === 0) break;
  }
  return samples;
}

function single(sample: Sample, real: (decision: Decision) => DecisionRecord): DecideOutcome {
  const history = sample.history.map((record) => real(record.decision));
  const standing = history.at(-1);
  if (!standing) return empty(sample.report.failure ?? { kind: 'model', message: 'no decision' });
  return {
    decision: standing.decision,
    guardrails: standing.guardrails,
    history,
    failure: null,
    reviewFailure: sample.report.failure,
    warnings: [],
  };
}

function sampled(input: DecideInput, samples: Sample[], real: (decision: Decision) => DecisionRecord): DecideOutcome {
  const capCut = samples.find((sample) => sample.report.failure?.kind === 'budget')?.report.failure;
  // Under the cap, the figures are over the samples made; otherwise a sample never started (an interrupt) counts as one without a decision.
  const counted = capCut ? samples.filter((sample) => sample.history.length > 0) : samples;
  const standing = counted.map((sample) => sample.history.at(-1)?.decision ?? null);
  if (!capCut) while (standing.length < input.samples) standing.push(null);
  const made = samples.filter((sample) => sample.history.length > 0).length;
  const tally = { asked: input.samples, made };
  const agreed = consensusOf(standing);
  const failures = samples.flatMap((sample, index) =>
    sample.history.length === 0 && sample.report.failure ? [{ index, failure: sample.report.failure }] : [],
  );
  const warnings = failures.map(
    ({ index, failure }) =>
      `the Director's sample ${index + 1} of ${input.samples} made no decision: ${failure.message}`,
  );
  const notRun = input.samples - samples.length;
  if (notRun > 0) warnings.push(`${notRun} of the Director's ${input.samples} samples did not run`);
  if (capCut && made < input.samples)
    warnings.push(`the --max-cost cap stopped the Director's samples: ${made} of ${input.samples} made a decision`);
  if (!agreed)
    return {
      ...empty(failures.at(-1)?.failure ?? { kind: 'model', message: 'no decision' }),
      warnings,
      samples: tally,
    };
  const record = real(agreed.decision);
  const stability = {
    ...realSpread(agreed.stability, input.blind?.unblind ?? null),
    ...(capCut && made < input.samples ? { asked: input.samples } : {}),
  };
  const representative = samples.find((sample) => sample.history.at(-1)?.decision.action === agreed.decision.action);
  return {
    decision: record.decision,
    guardrails: [...record.guardrails, ...stabilityFindings(stability, input.minAgreement)],
    history: withConsensus(
      (representative?.history ?? []).map((entry) => real(entry.decision)),
      record,
    ),
    stability,
    failure: null,
    reviewFailure: null,
    samples: tally,
    ...(capCut && made < input.samples ? { capCut } : {}),
    warnings,
  };
}

/** The representative sample's decisions, then the consensus unless it is that sample's last decision already. */
function withConsensus(history: DecisionRecord[], consensus: DecisionRecord): DecisionRecord[] {
  const last = history.at(-1);
  return last && JSON.stringify(last.decision) === JSON.stringify(consensus.decision)
    ? history
    : [...history, consensus];
}

/** The spread of the levels in real prices (the size is a percentage either way). */
function realSpread(stability: Stability, unblind: Unblind | null): Stability {
  if (!unblind) return stability;
  const { spread } = stability;
  return {
    ...stability,
    spread: {
      positionSizePct: spread.positionSizePct,
      entry: unblind.price(spread.entry),
      stopLoss: unblind.price(spread.stopLoss),
      takeProfit: unblind.price(spread.takeProfit),
    },
  };
}

function empty(failure: AgentFailure): DecideOutcome {
  return { decision: null, guardrails: [], history: [], failure, reviewFailure: null, warnings: [] };
}
