import { agentDefinitions, deskIds } from '../../agents/index.js';
import type { Decision, Plan } from '../result/types.js';

/** What a test may say of its plan: the thesis, and the briefs it cares about. */
export interface PlanTexts {
  thesis?: string;
  /** Briefs by desk id; a desk left out gets `<ID>-BRIEF: …`. */
  briefs?: Readonly<Record<string, string>>;
}

/**
 * A Director's plan with one brief per desk, for a scripted model to answer: the desks
 * of the roster in agents/ by default, or the ids a test's own roster has. A desk's
 * default brief starts with its id in capitals ("QUANT-BRIEF: …"), so a test can find it
 * in the request that desk was sent.
 */
export function planFor(desks: readonly string[] = deskIds, texts: PlanTexts = {}): Plan {
  const nameOf = (id: string) => agentDefinitions.find((definition) => definition.id === id)?.name ?? id;
  return {
    thesis: texts.thesis ?? 'Acme trends above its averages; the question is whether momentum holds.',
    briefs: Object.fromEntries(
      desks.map((id) => [id, texts.briefs?.[id] ?? `${id.toUpperCase()}-BRIEF: the ${nameOf(id)} desk's questions.`]),
    ),
  };
}

/**
 * A decision the guardrails pass with their default limits on a market whose last close
 * is 100 and whose ATR is about 2.5 (the test doubles' snapshot): a limit BUY at 99,
 * stop 94, target 110, 4 % of the portfolio. Pass the fields a test is about.
 */
export function decisionFixture(overrides: Partial<Decision> = {}): Decision {
  return {
    action: 'BUY',
    conviction: 64,
    timeHorizon: '1–3 months',
    positionSizePct: 4,
    orderType: 'limit',
    entry: 99,
    stopLoss: 94,
    takeProfit: 110,
    rationale: 'Trend and sentiment agree.',
    keyRisks: ['earnings', 'valuation'],
    dissent: null,
    ...overrides,
  };
}
