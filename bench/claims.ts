/**
 * P12 and P13: the claims checker (issues 40 and 47 item 12). P12 scores it on the case set
 * of testkit/claims-cases.ts: recall of wrong figures, the false-flag rate on correct ones and
 * the share of derived figures marked derived. P13 times one desk text of 3,000 figures (a
 * server that ignores `max_tokens`), checked against the case set's snapshot and decision,
 * once a desk report and once the decision's rationale (with the desk's claims upstream).
 */
import { checkClaims } from '../src/claims/index.js';
import { scoreClaimCases, type ClaimsScore } from '../testkit/claims-score.js';
import { claimsDecision, claimsSnapshot } from '../testkit/claims-world.js';

export interface ClaimsFigures {
  score: ClaimsScore;
  /** Figures in the long text, as the checker found them. */
  longFigures: number;
  /** CPU time of checking one such text: the checker's own work, whatever else the machine runs. */
  longMs: number;
  longWallMs: number;
}

/** A long text of varied figures: prices, percentages, ATR multiples, named readings, dates. */
export function longText(figures: number): string {
  const parts: string[] = [];
  let seed = 7;
  const next = () => {
    seed = (seed * 16807) % 2147483647;
    return seed / 2147483647;
  };
  const forms = [
    () => `close ${(120 + next() * 40).toFixed(2)} USD`,
    () => `${(next() * 20 - 10).toFixed(2)} %`,
    () => `${(0.5 + Math.floor(next() * 8) / 2).toFixed(1)} × ATR`,
    () => `RSI ${(30 + next() * 40).toFixed(1)}`,
    () => `a level of $${(100 + next() * 80).toFixed(2)}`,
    () => `${(next() * 5).toFixed(2)} % below the 52-week high`,
    () =>
      `2026-${String(1 + Math.floor(next() * 12)).padStart(2, '0')}-${String(1 + Math.floor(next() * 28)).padStart(2, '0')}`,
  ];
  for (let index = 0; index < figures; index += 1) parts.push(forms[index % forms.length]!());
  return `${parts.join(', ')}.`;
}

function timeLong(figures: number): { found: number; ms: number; wallMs: number } {
  const text = longText(figures);
  const cpu = process.cpuUsage();
  const started = performance.now();
  const { claims } = checkClaims({
    market: claimsSnapshot,
    plan: null,
    reports: [{ agent: 'quant', text }],
    decision: { ...claimsDecision, rationale: text, keyRisks: [], dissent: null },
  });
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  const ms = (used.user + used.system) / 1000;
  return { found: claims.filter((claim) => claim.field === 'report').length, ms, wallMs };
}

export function measureClaims(): ClaimsFigures {
  const score = scoreClaimCases();
  timeLong(300);
  const { found, ms, wallMs } = timeLong(3_000);
  // The report and the rationale are checked: the time of one text is half the whole.
  return { score, longFigures: found, longMs: ms / 2, longWallMs: wallMs / 2 };
}
