/**
 * `autohedge doctor` as a library function: checks a user's setup one line at a time
 * and says whether `analyze` will work. Clients come in through DoctorDeps, so the CLI
 * builds the real ones and tests point them at loopback servers.
 */
import type { MarketData } from '../market/types.js';
import { sanitizeText } from '../sanitize.js';
import { configChecks, displayUrl, openAIBaseURL, type ConfigFacts } from './config-checks.js';
import { fundamentalsCheck, marketCheck, searchCheck, type SearchSetup } from './data-checks.js';
import { contextCanary } from './context-canary.js';
import { decisionTries } from './conformance.js';
import type { EngineFacts } from '../llm/engine.js';
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
  /** False when no agent of the chosen configuration has tools (`--search none`, no MCP): the tool check only warns. */
  toolsNeeded?: boolean;
  /** `--conformance`: the measured table for this server and model instead of the setup checks. */
  conformance?: { tries: number };
  /** The limits each exchange runs under, as one line for the report (longer for a loopback server). */
  limits?: string;
}

export async function runDoctor(deps: DoctorDeps): Promise<DoctorReport> {
  const facts = configChecks(deps.env, deps.cwd, deps.baseUrlOption);
  const checks: Check[] = [...facts.checks];
  const where = facts.baseURL ? displayUrl(facts.baseURL) : openAIBaseURL;
  checks.push(...(await modelChecks(deps, facts, where)));
  const report = { baseURL: where, model: deps.model, ...(deps.limits ? { limits: deps.limits } : {}) };
  if (deps.conformance) return { ...report, conformance: true, checks, exitCode: exitCodeOf(checks) };
  // The data checks do not depend on the model; they run whatever it said.
  const [search, market] = await Promise.all([
    deps.search(facts).then((setup) => searchCheck(setup, deps.asOf)),
    marketCheck(deps.market, deps.asOf),
  ]);
  checks.push(search, market, fundamentalsCheck(deps.env));
  return { ...report, checks, exitCode: exitCodeOf(checks) };
}

const setupLabels: Array<[string, string]> = [
  ['server', 'server'],
  ['model-listed', 'model listed'],
  ['engine', 'engine'],
  ['tool-calls', 'tool calls'],
  ['structured', 'structured output'],
  ['context', 'context'],
  ['reasoning', 'reasoning'],
  ['usage', 'usage'],
  ['rate-limits', 'rate limits'],
];

const conformanceLabels: Array<[string, string]> = [
  ['server', 'server'],
  ['model-listed', 'model listed'],
  ['engine', 'engine'],
  ['structured', 'structured output'],
  ['decision-schema', 'decision schema'],
  ['tool-round-trip', 'tool round trip'],
  ['tool-calls', 'streamed tool calls'],
  ['context', 'context'],
  ['speed', 'tokens per second'],
];

async function modelChecks(deps: DoctorDeps, facts: ConfigFacts, where: string): Promise<Check[]> {
  const labels = deps.conformance ? conformanceLabels : setupLabels;
  const skipped = (from: number, why: string) => labels.slice(from).map(([id, label]) => check(id, label, 'skip', why));
  if (!facts.usable) return skipped(0, 'skipped: fix the configuration above first');
  const probe = deps.probe(facts);
  const server = await serverChecks(probe, where);
  if (!server.reachable) return [...server.checks, ...skipped(1, 'skipped: the server is not reachable')];
  if (server.checks.some((item) => item.status === 'fail'))
    return [...server.checks, ...skipped(2, 'skipped: the server refused the listing')];
  const engine = await probe.engine();
  const checks = deps.conformance
    ? await conformanceChecks(deps, probe, facts, engine, deps.conformance.tries)
    : await setupChecks(deps, probe, facts, engine);
  return [...server.checks, engineCheck(engine), ...checks];
}

/** The usual checks: a handful of small calls, and the canary for a server that is not OpenAI itself. */
async function setupChecks(deps: DoctorDeps, probe: ModelProbe, facts: ConfigFacts, engine: EngineFacts) {
  const tools = await toolRoundTrip(probe, { toolsNeeded: deps.toolsNeeded !== false });
  const structured = await structuredCheck(probe, facts.structuredMode, engine);
  const context = facts.baseURL
    ? await contextCanary(probe, engine)
    : check('context', 'context', 'skip', 'OpenAI refuses an over-long prompt rather than cutting it');
  const responses = [...tools.responses, ...structured.responses];
  return [
    tools.check,
    structured.check,
    context,
    reasoningCheck(responses),
    usageCheck(responses),
    await rateLimitCheck(probe),
  ];
}

async function conformanceChecks(
  deps: DoctorDeps,
  probe: ModelProbe,
  facts: ConfigFacts,
  engine: EngineFacts,
  tries: number,
): Promise<Check[]> {
  const toolsNeeded = deps.toolsNeeded !== false;
  const structured = await structuredCheck(probe, facts.structuredMode, engine);
  const decisions = await decisionTries(probe, engine, facts.structuredMode ?? structured.mode, tries);
  const whole = await toolRoundTrip(probe, {
    stream: false,
    toolsNeeded,
    id: 'tool-round-trip',
    label: 'tool round trip',
  });
  const streamed = await toolRoundTrip(probe, { stream: true, toolsNeeded, label: 'streamed tool calls' });
  return [
    structured.check,
    decisions.validity,
    whole.check,
    streamed.check,
    await contextCanary(probe, engine),
    decisions.speed,
  ];
}

function engineCheck(engine: EngineFacts): Check {
  if (!engine.engine)
    return check(
      'engine',
      'engine',
      'ok',
      'no local engine sign (llama.cpp, Ollama, vLLM, LM Studio): the strict schema',
    );
  const context = engine.contextTokens ? `, context ${engine.contextTokens} tokens` : '';
  return check('engine', 'engine', 'ok', `${engine.engine}${context}: the grammar mode, the full schema`);
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
      ? report.conformance
        ? 'The server and model conform: a run should finish with a valid decision.'
        : 'Everything analyze needs works.'
      : `${failed} check${failed === 1 ? '' : 's'} failed${report.exitCode === 2 ? ' (configuration)' : ''}: analyze will not work as it is.`;
  const title = report.conformance ? 'autohedge doctor --conformance' : 'autohedge doctor';
  const header = sanitizeText(`${title} — model '${report.model}' at ${report.baseURL}`);
  return [header, ...(report.limits ? [`  ${report.limits}`] : []), ...lines, verdict].join('\n') + '\n';
}
