import type { AnalysisResult, Decision, RunStatus } from '../result/types.js';
import { listRuns, loadRun, type RunSummary } from '../store/index.js';
import type { LastCall } from './triggers.js';

/** What the delta report shows of one call. */
export interface CallSummary {
  runId: string;
  day: string;
  status: RunStatus;
  action: Decision['action'];
  conviction: number;
  positionSizePct: number;
  entry: number | null;
  stopLoss: number | null;
  takeProfit: number | null;
  flags: string[];
}

export interface KnownCall {
  call: LastCall;
  summary: CallSummary;
}

/** A finished call: a saved run with a decision that was not cut short. */
function isFinished(run: RunSummary, demo: boolean): boolean {
  return (
    run.state === 'ok' &&
    run.action !== null &&
    run.demo === demo &&
    run.status !== 'interrupted' &&
    run.status !== 'failed'
  );
}

/**
 * The newest finished call per ticker from the run store. Live, that is each ticker's
 * newest finished run (one file read per ticker). Watching the past (`asOfDay` set), a
 * call made after that day did not exist yet, and a run started later may be as of an
 * earlier day, so every candidate is read and the latest as-of day before it wins.
 */
export async function lastCalls(
  home: string,
  tickers: readonly string[],
  options: { asOfDay: string | null; demo: boolean; runs?: readonly RunSummary[] },
): Promise<Map<string, KnownCall>> {
  const wanted = new Set(tickers);
  const runs = (options.runs ?? (await listRuns(home))).filter(
    (run) => run.ticker !== null && wanted.has(run.ticker) && isFinished(run, options.demo),
  );
  const best = new Map<string, { result: AnalysisResult; day: string }>();
  for (const run of runs) {
    if (options.asOfDay === null && best.has(run.ticker!)) continue;
    const result = await loadRun(home, run.runId).catch(() => null);
    if (!result?.decision) continue;
    const day = result.asOf.slice(0, 10);
    if (options.asOfDay !== null && day > options.asOfDay) continue;
    const held = best.get(result.ticker);
    if (!held || day > held.day || (day === held.day && result.startedAt > held.result.startedAt))
      best.set(result.ticker, { result, day });
  }
  return new Map([...best].map(([ticker, { result, day }]) => [ticker, knownCall(result, day)]));
}

export function knownCall(result: AnalysisResult, day = result.asOf.slice(0, 10)): KnownCall {
  const decision = result.decision!;
  return {
    call: {
      runId: result.runId,
      day,
      decision: { action: decision.action, stopLoss: decision.stopLoss, takeProfit: decision.takeProfit },
      price: result.market?.indicators.lastClose ?? null,
    },
    summary: summaryOf(result, day),
  };
}

function summaryOf(result: AnalysisResult, day: string): CallSummary {
  const decision = result.decision!;
  return {
    runId: result.runId,
    day,
    status: result.status,
    action: decision.action,
    conviction: decision.conviction,
    positionSizePct: decision.positionSizePct,
    entry: decision.entry,
    stopLoss: decision.stopLoss,
    takeProfit: decision.takeProfit,
    flags: result.guardrails.filter((finding) => finding.severity === 'error').map((finding) => finding.rule),
  };
}
