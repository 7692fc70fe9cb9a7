/**
 * Scores the claims checker on the case set (testkit/claims-cases.ts): recall of wrong figures,
 * the false-flag rate on correct ones, the share of derived figures marked derived, and how many
 * crossed figures name both quantities. Shared by tests/claims and `npm run bench`.
 */
import { checkClaims } from '../src/claims/index.js';
import type { Claim } from '../src/result/claims.js';
import { claimCases, type CaseLabel, type ClaimCase } from './claims-cases.js';
import { claimsDecision, claimsSnapshot } from './claims-world.js';

export interface CaseMiss {
  text: string;
  figure: string;
  label: CaseLabel;
  got: string;
}

export interface ClaimsScore {
  figures: number;
  /** Wrong and crossed figures flagged (contradicted or unsourced), of all wrong and crossed. */
  recall: { caught: number; of: number };
  /** Of the wrong and crossed figures, those contradicted (not merely unsourced). */
  contradicted: { count: number; of: number };
  /** Crossed figures whose finding names the other quantity. */
  crossedNamed: { count: number; of: number };
  /** Correct figures and numbers that are no claims, flagged. */
  falseFlags: { count: number; of: number };
  /** Derived figures marked derived. */
  derived: { count: number; of: number };
  misses: CaseMiss[];
}

/** The claims of one case, in the text it stands in. */
function claimsOf(testCase: ClaimCase): Claim[] {
  const decision = testCase.where === 'decision';
  const { claims } = checkClaims({
    market: claimsSnapshot,
    plan: null,
    reports: decision ? [] : [{ agent: 'quant', text: testCase.text }],
    decision: { ...claimsDecision, rationale: decision ? testCase.text : '', keyRisks: [], dissent: null },
  });
  return claims.filter((claim) => claim.field === (decision ? 'decision.rationale' : 'report'));
}

const flagged = (claim: Claim | undefined) =>
  claim !== undefined && (claim.status === 'contradicted' || claim.status === 'unsourced');

/** Whether a figure got what its label asks. */
function meets(label: CaseLabel, claim: Claim | undefined): boolean {
  switch (label) {
    case 'ok':
    case 'none':
      return !flagged(claim);
    case 'derived':
      return claim?.status === 'derived';
    case 'wrong':
      return flagged(claim);
    case 'crossed':
      return claim?.status === 'contradicted' && claim.crossed !== undefined;
  }
}

export function scoreClaimCases(cases: readonly ClaimCase[] = claimCases): ClaimsScore {
  const score: ClaimsScore = {
    figures: 0,
    recall: { caught: 0, of: 0 },
    contradicted: { count: 0, of: 0 },
    crossedNamed: { count: 0, of: 0 },
    falseFlags: { count: 0, of: 0 },
    derived: { count: 0, of: 0 },
    misses: [],
  };
  for (const testCase of cases) {
    const claims = claimsOf(testCase);
    const used = new Set<Claim>();
    for (const [written, label] of testCase.figures) {
      const claim = claims.find((candidate) => candidate.text === written && !used.has(candidate));
      if (claim) used.add(claim);
      score.figures += 1;
      tally(score, label, claim);
      if (!meets(label, claim))
        score.misses.push({
          text: testCase.text,
          figure: written,
          label,
          got: claim ? `${claim.status}${claim.source ? ` (${claim.source})` : ''}` : 'not extracted',
        });
    }
  }
  return score;
}

function tally(score: ClaimsScore, label: CaseLabel, claim: Claim | undefined): void {
  if (label === 'wrong' || label === 'crossed') {
    score.recall.of += 1;
    score.contradicted.of += 1;
    if (flagged(claim)) score.recall.caught += 1;
    if (claim?.status === 'contradicted') score.contradicted.count += 1;
  }
  if (label === 'crossed') {
    score.crossedNamed.of += 1;
    if (claim?.crossed !== undefined) score.crossedNamed.count += 1;
  }
  if (label === 'ok' || label === 'derived' || label === 'none') {
    score.falseFlags.of += 1;
    if (flagged(claim)) score.falseFlags.count += 1;
  }
  if (label === 'derived') {
    score.derived.of += 1;
    if (claim?.status === 'derived') score.derived.count += 1;
  }
}
