import { agentName } from '../../agents/index.js';
import type { GuardrailFinding } from '../result/types.js';
import { countClaims } from './summary.js';
import type { Claim } from './types.js';

/**
 * The decision's text should trace its figures to the data: with at least `minFigures`
 * figures, fewer than `minVerifiedShare` of them verified or derived is a warning.
 */
export const claimLimits = { minVerifiedShare: 0.5, minFigures: 4 } as const;

/** The roster's display name; the Director is "the Director". */
const nameOf = (agent: string) => (agent === 'director' ? `the ${agentName(agent)}` : agentName(agent));

/** "the decision's rationale", "Quant's report", "the Director's plan (brief for risk)". */
export function whereWritten(claim: Pick<Claim, 'agent' | 'field'>): string {
  if (claim.field === 'decision.rationale') return "the decision's rationale";
  if (claim.field === 'decision.dissent') return "the decision's dissent";
  if (claim.field.startsWith('decision.keyRisks.'))
    return `the decision's key risk ${Number(claim.field.split('.')[2]) + 1}`;
  if (claim.field === 'plan.thesis') return "the Director's thesis";
  if (claim.field.startsWith('plan.briefs.'))
    return `the Director's brief for ${claim.field.slice('plan.briefs.'.length)}`;
  return `${nameOf(claim.agent)}'s report`;
}

/**
 * "RSI(14) 48.2 where the data has 53.6 (snapshot.indicators.rsi14)"; a crossed figure names
 * both quantities: "SMA200 138.95 where the data has 128.04 (…sma200); 138.95 is the SMA50 (…sma50)".
 */
export function contradictionText(claim: Claim): string {
  const named = claim.quantity ? `${claim.quantity} ${claim.text}` : claim.text;
  const truth = `${named} where the data has ${claim.sourceText ?? String(claim.sourceValue)} (${claim.source ?? 'unknown source'})`;
  return claim.crossed
    ? `${truth}; ${claim.text} is the ${claim.crossed} (${claim.crossedSource ?? 'unknown source'})`
    : truth;
}

const isDecisionText = (claim: Claim) => claim.field.startsWith('decision.');

/**
 * Guardrail findings from a run's claims: a contradicted figure in the decision's text is an
 * `error` (the Director's review pass gets it); a decision text mostly unsourced, or a
 * contradicted figure in a desk's report or the plan, is a `warning`.
 */
export function claimFindings(claims: readonly Claim[]): GuardrailFinding[] {
  const findings: GuardrailFinding[] = [];
  for (const claim of claims.filter((candidate) => candidate.status === 'contradicted')) {
    const decision = isDecisionText(claim);
    findings.push({
      rule: decision ? 'claim-contradicted' : 'desk-claim-contradicted',
      severity: decision ? 'error' : 'warning',
      message: `${whereWritten(claim)} says ${contradictionText(claim)}`,
    });
  }
  const counts = countClaims(claims.filter(isDecisionText));
  if (counts.total >= claimLimits.minFigures && (counts.verifiedShare ?? 1) < claimLimits.minVerifiedShare) {
    findings.push({
      rule: 'claims-unsourced',
      severity: 'warning',
      message: `only ${counts.verified + counts.derived} of the ${counts.total} figures in the decision's text trace to the data (${Math.round((counts.verifiedShare ?? 0) * 100)} %; at least ${claimLimits.minVerifiedShare * 100} % expected)`,
    });
  }
  return findings;
}
