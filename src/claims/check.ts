import type { MarketSnapshot } from '../market/types.js';
import type { SavedPlan } from '../result/types.js';
import { classify, quantityOf, type MatchContext } from './classify.js';
import { derivedValues, type DerivedValue } from './derived.js';
import { ValueIndex } from './value-index.js';
import { extractFigures } from './extract.js';
import {
  decisionSources,
  snapshotSources,
  toolSources,
  type DecisionLevels,
  type SourceValue,
  type ToolCallLike,
} from './sources.js';
import { summarizeClaims } from './summary.js';
import type { Claim, ClaimsSummary } from './types.js';

/** What a run's claims are checked from: its texts and what it saw. Loose shapes: saved runs of any age fit. */
export interface ClaimsInput {
  /** The snapshot the agents were shown (for a historical run, the as-of snapshot). */
  market: MarketSnapshot | null;
  plan: SavedPlan | null;
  reports: ReadonlyArray<{ agent: string; text: string; toolCalls?: readonly ToolCallLike[] }>;
  decision: (DecisionLevels & { rationale: string; keyRisks: readonly string[]; dissent: string | null }) | null;
}

export interface ClaimsCheck {
  claims: Claim[];
  summary: ClaimsSummary;
}

/** The texts of the decision, by field. */
export function decisionTexts(decision: ClaimsInput['decision']): Array<[field: string, text: string]> {
  if (!decision) return [];
  return [
    ['decision.rationale', decision.rationale],
    ...decision.keyRisks.map((risk, index): [string, string] => [`decision.keyRisks.${index}`, risk]),
    ...(decision.dissent ? [['decision.dissent', decision.dissent] as [string, string]] : []),
  ];
}

/**
 * Every figure of the run's prose with its status: the Director's plan (against the snapshot),
 * each desk's report (the snapshot, its own tool results, the decision), then the decision's
 * texts (the snapshot and the decision). Pure and deterministic.
 */
export function checkClaims(input: ClaimsInput): ClaimsCheck {
  const snapshot = snapshotSources(input.market);
  const decision = decisionSources(input.decision);
  const claims: Claim[] = [];
  const planContext = contextFor(snapshot, null, false, []);
  const planClaims = [
    ...claimsOf('director', 'plan.thesis', input.plan?.thesis ?? '', planContext),
    ...Object.entries(input.plan?.briefs ?? {}).flatMap(([desk, brief]) =>
      claimsOf('director', `plan.briefs.${desk}`, brief ?? '', planContext),
    ),
  ];
  claims.push(...planClaims);
  const withDecision = [...snapshot, ...decision];
  for (const report of input.reports) {
    const sources = [...withDecision, ...toolSources(report.toolCalls ?? [])];
    const brief = planClaims.filter((claim) => claim.field === `plan.briefs.${report.agent}`);
    claims.push(
      ...claimsOf(report.agent, 'report', report.text ?? '', contextFor(sources, input.decision, false, brief)),
    );
  }
  const deskClaims = claims.filter((claim) => claim.agent !== 'director');
  const decisionContext = contextFor(withDecision, input.decision, true, [...deskClaims, ...planClaims]);
  for (const [field, text] of decisionTexts(input.decision))
    claims.push(...claimsOf('director', field, text, decisionContext));
  const named = inCurrency(claims, input.market?.identity.currency ?? null);
  return { claims: named, summary: summarizeClaims(named) };
}

/** A currency's marks in a figure as written: symbols and three-letter codes (`$`, `US$`, `£`, `GBP`). */
const currencyMarks = /(?:US)?\$|[£€¥]|\b[A-Z]{3}\b|\bGBp\b/g;

/**
 * The true value of a money figure in the data's own currency: a model that wrote "$3.09" of
 * a London listing is told the data has "3.10 GBP", never "$3.10" (issue 38: no `$` on a
 * figure that is not in dollars). A US listing's figures are left as written.
 */
function inCurrency(claims: Claim[], currency: string | null): Claim[] {
  if (currency === null || currency === 'USD') return claims;
  return claims.map((claim) =>
    claim.unit === 'currency' && claim.sourceText !== undefined
      ? { ...claim, sourceText: `${claim.sourceText.replace(currencyMarks, '').trim()} ${currency}` }
      : claim,
  );
}

function contextFor(
  sources: readonly SourceValue[],
  decision: DecisionLevels | null,
  decisionText: boolean,
  upstream: readonly Claim[],
): MatchContext {
  const derived = derivedValues(sources, decision);
  const specific = derived.filter((value) => value.tier === 'specific');
  return {
    sources,
    derived: specific,
    specific: new ValueIndex(specific),
    combinatorial: new ValueIndex(derived.filter((value) => value.tier === 'combinatorial')),
    decisionText,
    upstream,
    named: new Map(),
  };
}

/**
 * The prose checked of one text: agents write a few thousand characters; a server that ignores
 * `max_tokens` can return megabytes, whose figures past this point are not checked (issue 47).
 */
export const maxCheckedChars = 60_000;

/**
 * The claims of one text. A price the text establishes (verified or derived) is an anchor for
 * the figures after it: a stop "2 × ATR below" an entry the same text stated. Anchors are kept
 * once per value, in the context's magnitude index, so a long text stays linear.
 */
function claimsOf(agent: string, field: string, text: string, shared: MatchContext): Claim[] {
  const claims: Claim[] = [];
  const context: MatchContext = {
    ...shared,
    combinatorial: shared.combinatorial.copy(),
  };
  const atrSource = context.sources.find((source) => source.path === 'snapshot.indicators.atr14');
  const atr =
    atrSource && typeof atrSource.value === 'number'
      ? [atrSource.value, ...(atrSource.shown !== undefined ? [atrSource.shown] : [])]
      : [];
  const anchored = new Set<number>();
  for (const figure of extractFigures(text.slice(0, maxCheckedChars))) {
    const outcome = classify(figure, context);
    const quantity = quantityOf(figure);
    const claim: Claim = {
      agent,
      field,
      text: figure.text,
      start: figure.start,
      end: figure.end,
      value: figure.value,
      unit: figure.unit,
      ...(quantity && figure.quantity ? { quantity: figure.quantity.text } : {}),
      ...outcome,
    };
    claims.push(claim);
    const established = claim.status === 'verified' || claim.status === 'derived';
    const price = figure.unit === 'currency' && typeof figure.value === 'number' ? figure.value : null;
    if (established && atr.length > 0 && price !== null && !anchored.has(price)) {
      anchored.add(price);
      context.combinatorial.add(stepsFrom(`${field} "${figure.text}"`, price, atr));
    }
  }
  return claims;
}

/** A level ± k ATR, with ATR exact and as shown. */
function stepsFrom(path: string, level: number, atr: readonly number[]): DerivedValue[] {
  return [0.25, 0.5, 0.75, 1, 1.5, 2, 2.5, 3, 3.5, 4, 5].flatMap((k) =>
    atr.flatMap((range): DerivedValue[] => [
      { path: `${path} + ${k} × ATR`, kind: 'price', value: level + k * range, tier: 'combinatorial' },
      { path: `${path} − ${k} × ATR`, kind: 'price', value: level - k * range, tier: 'combinatorial' },
    ]),
  );
}
