/**
 * `autohedge doctor` as a library function: checks a user's setup one line at a time
 * and says whether `analyze` will work. Clients come in through DoctorDeps, so the CLI
 * builds the real ones and tests point them at loopback servers.
 */
import type { MarketData } from '../market/types.js';
import { sanitizeText } from '../sanitize.js';
import { configChecks, displayUrl, openAIBaseURL, type ConfigFacts } from './config-checks.js';
import { marketCheck, searchCheck, type SearchSetup } from './data-checks.js';
import {
  reasoningCheck,
  rateLimitCheck,
  serverChecks,
  structuredCheck,
  toolRoundTrip,
  usageCheck,
  type ModelProbe,
} from './model-checks.js';
import { check, type Check, type DoctorReport } from './types.js';

export interface DoctorDeps {
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** --model, else AUTOHEDGE_MODEL, else the Director's default. */
  model: string;
  baseUrlOption?: string;
  /** The model server's clients, built from what the configuration check found. */
  probe(facts: ConfigFacts): ModelProbe;
  market: MarketData;
  /** The search the run would use, built from what the configuration check found. */
  search(facts: ConfigFacts): Promise<SearchSetup>;
  asOf: Date;
}

export async function runDoctor(deps: DoctorDeps): Promise<DoctorReport> {
  const facts = configChecks(deps.env, deps.cwd, deps.baseUrlOption);
  const checks: Check[] = [...facts.checks];
  const where = facts.baseURL ? displayUrl(facts.baseURL) : openAIBaseURL;
  checks.push(...(await modelChecks(deps, facts, where)));
  // The data checks do not depend on the model; they run whatever it said.
  const [search, market] = await Promise.all([
    deps.search(facts).then((setup) => searchCheck(setup, deps.asOf)),
    marketCheck(deps.market, deps.asOf),
  ]);
  checks.push(search, market);
  return { baseURL: where, model: deps.model, checks, exitCode: exitCodeOf(checks) };
}

const modelCheckLabels: Array<[string, string]> = [
  ['server', 'server'],
  ['model-listed', 'model listed'],
  ['tool-calls', 'tool calls'],
  ['structured', 'structured output'],
  ['reasoning', 'reasoning'],
  ['usage', 'usage'],
  ['rate-limits', 'rate limits'],
];

async function modelChecks(deps: DoctorDeps, facts: ConfigFacts, where: string): Promise<Check[]> {
  const skipped = (from: number, why: string) =>
    modelCheckLabels.slice(from).map(([id, label]) => check(id, label, 'skip', why));
  if (!facts.usable) return skipped(0, 'skipped: fix the configuration above first');
  const probe = deps.probe(facts);
  const server = await serverChecks(probe, where);
  if (!server.reachable) return [...server.checks, ...skipped(1, 'skipped: the server is not reachable')];
  if (server.checks.some((item) => item.status === 'fail'))
    return [...server.checks, ...skipped(2, 'skipped: the server refused the listing')];
  const tools = await toolRoundTrip(probe);
  const structured = await structuredCheck(probe, facts.structuredMode);
  const responses = [...tools.responses, ...structured.responses];
  return [
    ...server.checks,
    tools.check,
    structured.check,
    reasoningCheck(responses),
    usageCheck(responses),
    await rateLimitCheck(probe),
  ];
}

/** 2 when a configuration problem failed a check, else 1 when any check failed, else 0. */
export function exitCodeOf(checks: readonly Check[]): 0 | 1 | 2 {
  const failed = checks.filter((item) => item.status === 'fail');
  if (failed.some((item) => item.configuration)) return 2;
  return failed.length > 0 ? 1 : 0;
}

const marks: Record<Check['status'], string> = { ok: 'ok  ', warn: 'warn', fail: 'FAIL', skip: 'skip' };

/** One line per check, then one line of verdict. */
export function formatDoctorReport(report: DoctorReport): string {
  const width = Math.max(...report.checks.map((item) => item.label.length));
  // Details quote servers' error messages: untrusted text on a terminal.
  const lines = report.checks.map(
    (item) => `  ${marks[item.status]}  ${item.label.padEnd(width)}  ${sanitizeText(item.detail)}`,
  );
  const failed = report.checks.filter((item) => item.status === 'fail').length;
  const verdict =
    report.exitCode === 0
      ? 'Everything analyze needs works.'
      : `${failed} check${failed === 1 ? '' : 's'} failed${report.exitCode === 2 ? ' (configuration)' : ''}: analyze will not work as it is.`;
  return (
    [sanitizeText(`autohedge doctor — model '${report.model}' at ${report.baseURL}`), ...lines, verdict].join('\n') +
    '\n'
  );
}
