import { runAgent } from '../agent/run-agent.js';
import type { AgentContext, AgentReport, AgentSpec } from '../agent/types.js';
import type { EventSink } from '../events.js';
import type { ChatModel } from '../llm/types.js';
import { frameDeskReports } from './desk-reports.js';
import { limitsForPrompt, type GuardrailLimits } from '../guardrails/guardrails.js';
import { fillTemplate, loadPrompt } from './prompts.js';
import { decisionSchema } from '../result/schemas.js';
import { planSchemaOf, specFor, type SpecSource } from './specs.js';
import type { Decision, DecisionRecord, GuardrailFinding, Plan } from '../result/types.js';

/** Where the Director's tasks point when the market block is in the shared block (the cacheable layout). */
export const marketPointer = 'The MARKET DATA block is above, at the start of your instructions.';

/** What both Director runs share: its spec's source, the run's context, the ticker and its market block. */
export interface DirectorWork {
  ticker: string;
  /** The market block in the tasks (the legacy layout); null: the tasks point to the shared block. */
  taskMarket: string | null;
  specs: SpecSource;
  /** The limits the decision is checked against, told to the Director in its decide task. */
  limits: GuardrailLimits;
  context: Omit<AgentContext, 'review' | 'nextCallNumber' | 'announce'>;
  /** A line the decide task adds (a blind run: the levels are in blind units). */
  decideNote?: string;
}

/**
 * The Director is one agent over two runs (plan, then decision): the caller announces
 * one span, and its model calls are numbered across both.
 */
export type Director = ReturnType<typeof createDirector>;

export function createDirector(work: DirectorWork) {
  let calls = 0;
  const shared = { ...work.context, announce: false, nextCallNumber: () => (calls += 1) };
  const base = specFor('director', work.specs);

  return {
    model: base.model,

    /**
     * The plan. `sent` settles once its first model call has been made (under --max-cost,
     * its worst case reserved) or the plan ended without one.
     */
    plan(): { report: Promise<AgentReport<Plan>>; sent: Promise<void> } {
      const spec: AgentSpec<Plan> = {
        ...base,
        reviewPasses: 0,
        output: { name: 'plan', schema: planSchemaOf(work.specs.roster) },
      };
      const first = firstCall(shared.model);
      const report = runAgent(
        spec,
        fillTemplate(loadPrompt('director-plan.md'), { ticker: work.ticker, market: work.taskMarket ?? marketPointer }),
        { ...shared, model: first.model },
      );
      const ended = report.then(
        () => undefined,
        () => undefined,
      );
      return { report, sent: Promise.race([first.sent, ended]) };
    },

    /**
     * The decision from the reports, then — while the Director's review passes last
     * and the guardrails find an `error` — one more turn with the findings. Every
     * decision is kept with its findings, in order.
     */
    async decide(
      plan: Plan,
      reports: AgentReport[],
      check: (decision: Decision) => GuardrailFinding[],
      sampling: { seed?: number } = {},
    ): Promise<{ report: AgentReport<Decision>; history: DecisionRecord[] }> {
      const history: DecisionRecord[] = [];
      const spec: AgentSpec<Decision> = {
        ...base,
        output: { name: 'decision', schema: decisionSchema },
        ...(sampling.seed !== undefined ? { seed: sampling.seed } : {}),
      };
      const review = (decision: Decision): string | null => {
        const guardrails = check(decision);
        history.push({ decision, guardrails });
        const errors = guardrails.filter((finding) => finding.severity === 'error');
        return errors.length > 0 ? reviewTask(errors) : null;
      };
      const report = await runAgent(spec, decideTask(work, plan, reports), { ...shared, review });
      // The answer of the last pass was not reviewed, so it is not in the history yet.
      if (report.output !== undefined && history.at(-1)?.decision !== report.output) {
        history.push({ decision: report.output, guardrails: check(report.output) });
      }
      return { report, history };
    },
  };
}

function decideTask(work: DirectorWork, plan: Plan, reports: AgentReport[]): string {
  const missing = reports.filter((report) => report.status === 'failed').map((report) => report.agent);
  return fillTemplate(loadPrompt('director-decide.md'), {
    ticker: work.ticker,
    market: work.taskMarket ?? marketPointer,
    thesis: plan.thesis,
    reports: frameDeskReports(reports, work.specs.roster),
    limits: limitsForPrompt(work.limits),
    missing:
      (missing.length > 0
        ? `- These desks failed and sent no report: ${missing.join(', ')}. Decide without them and say in the rationale that their view is missing.\n`
        : '') + (work.decideNote ?? ''),
  });
}

/** The review pass's task: the rules the decision breaks, with their numbers. */
export function reviewTask(errors: GuardrailFinding[]): string {
  return fillTemplate(loadPrompt('director-review.md'), {
    findings: errors.map((finding) => `- ${finding.rule}: ${finding.message}`).join('\n'),
  });
}

/** The Director's one span of progress over its two runs. */
export function announceDirector(
  events: EventSink,
  model: string,
): (outcome: { ok: boolean; error: string | null }) => void {
  const started = Date.now();
  events({ type: 'agent-start', agent: 'director', model, at: started });
  return ({ ok, error }) =>
    events({
      type: 'agent-end',
      agent: 'director',
      status: ok ? 'ok' : 'failed',
      durationMs: Date.now() - started,
      error,
    });
}

/**
 * A model that tells when its first call was made. Calling `complete` runs the cap's
 * admission synchronously (src/pipeline/budget.ts), so once `sent` settles the call's
 * worst case is reserved, or it was refused.
 */
function firstCall(model: ChatModel): { model: ChatModel; sent: Promise<void> } {
  let markSent: () => void = () => undefined;
  const sent = new Promise<void>((resolve) => (markSent = resolve));
  const watched: ChatModel = {
    ...model,
    complete: (request) => {
      const answer = model.complete(request);
      markSent();
      return answer;
    },
  };
  return { model: watched, sent };
}
