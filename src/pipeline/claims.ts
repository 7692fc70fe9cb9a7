import { checkClaims, claimFindings, type ClaimsInput } from '../claims/index.js';
import type { AnalysisResult, Decision, GuardrailFinding } from '../result/types.js';

function inputOf(result: AnalysisResult, decision: Decision | null): ClaimsInput {
  return { market: result.market, plan: result.plan, reports: result.reports, decision };
}

/**
 * The guardrails' check of a decision, with what its claims add: a contradicted figure in its
 * text (an `error`, so the review pass gets it), a mostly unsourced text, a desk's contradicted
 * figure (warnings). Every decision of the review loop is checked alike, so its history keeps them.
 */
export function withClaimFindings(
  check: (decision: Decision) => GuardrailFinding[],
  result: AnalysisResult,
): (decision: Decision) => GuardrailFinding[] {
  return (decision) => [...check(decision), ...claimFindings(checkClaims(inputOf(result, decision)).claims)];
}

/**
 * The claims of the run as it ends, against the decision that stands. A run of desks alone
 * has no decision to check; its desks' contradicted figures are its findings.
 */
export function attachClaims(result: AnalysisResult): void {
  const { claims, summary } = checkClaims(inputOf(result, result.decision));
  result.claims = claims;
  result.claimsSummary = summary;
  if (result.mode === 'agents') result.guardrails = [...result.guardrails, ...claimFindings(claims)];
}
