import type { AnalysisResult } from '../result/types.js';
import { agentTitle, oneLine } from './format.js';
import type { Notice } from './view-types.js';

/**
 * The banner a run that is not whole opens with, above the decision: its status in
 * capitals and why, from the result's typed facts (the market snapshot, the desks'
 * statuses, the failure, the guardrails' errors). Null for an ok run.
 */
export function statusNotice(result: AnalysisResult): Notice | null {
  if (result.status === 'ok') return null;
  const reasons = statusReasons(result);
  const advice =
    result.status === 'flagged'
      ? 'Do not act on the decision unchecked.'
      : result.decision
        ? 'Read the decision with that in mind.'
        : 'There is no decision.';
  const text = `${result.status.toUpperCase()}: ${reasons.join('; ')}. ${advice}`;
  return { key: 'status', text, tone: result.status === 'degraded' ? 'warning' : 'bad' };
}

function statusReasons(result: AnalysisResult): string[] {
  const reasons: string[] = [];
  if (result.status === 'interrupted') reasons.push('the run was interrupted before it finished');
  if (!result.market) reasons.push('market data missing');
  // A plan that failed is the first cause: no desk ran, so none is blamed.
  const plan = planFailure(result);
  if (plan !== null) reasons.push(plan);
  else reasons.push(...deskAndDirectorReasons(result));
  const errors = (result.guardrails ?? []).filter((finding) => finding.severity === 'error');
  if (errors.length > 0) {
    const rules = [...new Set(errors.map((finding) => finding.rule))].join(', ');
    reasons.push(`the decision breaks ${errors.length} guardrail rule${errors.length === 1 ? '' : 's'} (${rules})`);
  }
  if (reasons.length === 0) reasons.push(oneLine(result.failure?.message ?? result.error ?? 'see Status below'));
  return reasons;
}

/** The Director's plan as the run's first cause, or null when the plan did not fail. */
function planFailure(result: AnalysisResult): string | null {
  if (result.failure?.stage !== 'plan') return null;
  if (result.failure.kind === 'budget') return "the --max-cost cap stopped the Director's plan, so no desk ran";
  return `the Director could not plan, so no desk ran: ${oneLine(result.failure.message)}`;
}

function deskAndDirectorReasons(result: AnalysisResult): string[] {
  const reasons: string[] = [];
  const failed = (result.reports ?? []).filter((report) => report.status !== 'ok').map((r) => agentTitle(r.agent));
  if (failed.length > 0)
    reasons.push(failed.length === 1 ? `the ${failed[0]} desk failed` : `the ${failed.join(', ')} desks failed`);
  if (result.failure?.kind === 'budget') reasons.push('the --max-cost cap was reached');
  else if (result.failure?.stage === 'decision')
    reasons.push(`the Director failed: ${oneLine(result.failure.message)}`);
  return reasons;
}
