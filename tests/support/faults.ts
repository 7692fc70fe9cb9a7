/**
 * The fault matrix's harness: each scenario arranges real loopback servers (the
 * scripted OpenAI-compatible server, the Exa stub) or injected fakes, runs
 * `autohedge analyze` in-process through runCli, and compares the exact outcome —
 * exit code, the printed AnalysisResult, every report's error, the warnings and the
 * stderr lines — with the row's expectation.
 *
 * Every row also checks what must hold whatever the fault: no stack trace on stderr,
 * no raw control character in stdout, stderr or a saved file,
 * no canary key in stdout, stderr or any file the run saved, every server request
 * finished (answered, cut or abandoned) by the time the CLI returned.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CliDeps } from '../../src/cli/deps.js';
import type { CliIo } from '../../src/cli/io.js';
import { runCli } from '../../src/cli/run-cli.js';
import { createOpenAIModel, type OpenAIModelOptions } from '../../src/llm/openai-model.js';
import type { ChatModel } from '../../src/llm/types.js';
import type { AnalysisResult, RunStatus } from '../../src/result/types.js';
import { captureIo, type CapturedIo } from './cli.js';
import { startExaStub, type ExaStub, type ExaStubResponder } from './exa-server.js';
import { startOpenAIServer, textAnswer, type OpenAIServer, type RecordedRequest, type Reply } from './openai-server.js';
import { decisionFixture, planFor } from '../../src/testing/index.js';

// ---- canaries -------------------------------------------------------------------------

/** Shaped like a real key, so the SDK's and OpenAI's own masking (`sk-canar****tN3c`) applies. */
export const openaiCanary = 'sk-canary-7Hq2Wm9XvL4pZr8KtN3c';
export const exaCanary = 'exa-canary-5e7b1c9d-Jq4RwP2y';
/** Whole keys and the pieces an SDK or a server quotes when it masks one. */
export const canaryFragments = [
  openaiCanary,
  exaCanary,
  'sk-canar',
  'Hq2Wm9XvL4pZ',
  'tN3c',
  'exa-canar',
  '5e7b1c9d',
  'Jq4RwP2y',
];

export function expectNoCanary(text: string, where: string): void {
  for (const fragment of canaryFragments) {
    expect(text.includes(fragment), `${where} contains the key fragment '${fragment}'`).toBe(false);
  }
}

/** Which artifacts hold which key fragments: empty when nothing leaked. */
export function expectNoFragments(artifacts: Record<string, string>): void {
  const leaks = Object.entries(artifacts).flatMap(([where, text]) =>
    canaryFragments.filter((fragment) => text.includes(fragment)).map((fragment) => `${where}: '${fragment}'`),
  );
  expect(leaks).toEqual([]);
}

/** Every file under a directory, by path relative to it. */
export function filesUnder(root: string): Record<string, string> {
  if (!existsSync(root)) return {};
  const files: Record<string, string> = {};
  const walk = (directory: string) => {
    for (const name of readdirSync(directory)) {
      const path = join(directory, name);
      if (statSync(path).isDirectory()) walk(path);
      else files[path.slice(root.length + 1)] = readFileSync(path, 'utf8');
    }
  };
  walk(root);
  return files;
}

/** Every desk of the full roster reporting ok. */
export const allOk = { quant: 'ok', risk: 'ok', execution: 'ok', sentiment: 'ok' };

// ---- the Director's and desks' good answers ----------------------------------------------

export const plan = planFor();

export const decision = decisionFixture();

/**
 * The same sane decision placed at the market the request shows (its "Last close:"),
 * so no guardrail finds an error whatever price a scenario's Yahoo serves; at a
 * close of 100 (and with no market data) it is `decision` itself.
 */
export function decisionAt(lastClose: number | null): typeof decision | Record<string, unknown> {
  if (lastClose === null || lastClose === 100) return decision;
  const cents = (value: number) => Math.round(value * 100) / 100;
  return {
    ...decision,
    entry: cents(lastClose * 0.99),
    stopLoss: cents(lastClose * 0.94),
    takeProfit: cents(lastClose * 1.1),
  };
}

/** The last close a request's MARKET DATA block states, or null. */
export function lastCloseIn(body: any): number | null {
  const text = JSON.stringify(body?.messages ?? []);
  const match = /Last close: ([\d,]+(?:\.\d+)?)/.exec(text);
  return match ? Number(match[1]!.replace(/,/g, '')) : null;
}

export const deskText: Record<string, string> = {
  quant: 'Quant: trend up, score 0.7.',
  risk: 'Risk: score 0.4, size 4 %.',
  execution: 'Execution: limit 99, stop 94, target 110.',
  sentiment: 'Sentiment: 0.6, constructive news flow.',
};

/** The sending agent, from the header the chat client adds to every request. */
export function agentOf(request: RecordedRequest): string {
  const header = request.headers['x-autohedge-agent'];
  return typeof header === 'string' ? header : '?';
}

/** The schema the Director asked for: 'plan' or 'decision'. */
export function schemaOf(body: any): string | undefined {
  return body?.response_format?.json_schema?.name;
}

export type AgentReply = Reply | ((body: any, request: RecordedRequest) => Reply);

/**
 * An OpenAI-compatible script by who is asking: each agent's queue is used in order,
 * then the agent gets its good answer (the Director by the schema it asks for).
 * Answers by agent, not arrival order, because the desks run concurrently.
 */
export function byAgent(script: Partial<Record<string, AgentReply[]>> = {}) {
  const queues = new Map(Object.entries(script).map(([agent, replies]) => [agent, [...(replies ?? [])]]));
  return (body: any, _index: number, request: RecordedRequest): Reply => {
    const agent = agentOf(request);
    const next = queues.get(agent)?.shift();
    if (next) return typeof next === 'function' ? next(body, request) : next;
    return goodAnswer(agent, body);
  };
}

export function goodAnswer(agent: string, body: any): Reply {
  if (agent === 'director')
    return textAnswer(JSON.stringify(schemaOf(body) === 'plan' ? plan : decisionAt(lastCloseIn(body))));
  return textAnswer(deskText[agent] ?? `${agent}: report.`);
}

/** Requests one agent sent, in order. */
export function requestsOf(server: OpenAIServer, agent: string): RecordedRequest[] {
  return server.requests.filter((request) => agentOf(request) === agent);
}

/** The role:"tool" messages in the last request an agent sent. */
export function toolMessages(request: RecordedRequest | undefined): string[] {
  const messages: Array<{ role: string; content: string }> = request?.body?.messages ?? [];
  return messages.filter((message) => message.role === 'tool').map((message) => message.content);
}

// ---- scenarios ----------------------------------------------------------------------------

export const fixedNow = () => new Date('2026-11-28T12:00:00Z');

export interface FaultContext {
  io: CapturedIo;
  /** A scripted OpenAI-compatible server, closed after the scenario. */
  openai(script: Reply[] | ReturnType<typeof byAgent>): Promise<OpenAIServer>;
  /** The loopback Exa stub, closed after the scenario. */
  exa(responder?: ExaStubResponder): Promise<ExaStub>;
  /** The real chat client against a server, keyed with the canary; 1 retry, 2 s timeout unless told. */
  model(server: OpenAIServer | string, options?: OpenAIModelOptions): ChatModel;
  /** Runs after the scenario, also when it fails. */
  defer(cleanup: () => unknown): void;
}

export interface Arranged {
  /** Default: `analyze ACME --json`. */
  argv?: string[];
  deps: CliDeps;
  /** Overrides for the CliIo (environment, working directory, signal). */
  io?: Partial<CliIo>;
  /** Values the expectation may quote (a server's host, a path). */
  vars?: Record<string, string>;
}

export interface ExpectedResult {
  status: RunStatus;
  error: string | null;
  /** Whether the Director decided. */
  decision: boolean;
  /** Every report by agent: 'ok', or the exact error of a failed one (a pattern only where a race decides between two exact texts). */
  reports: Record<string, string | RegExp>;
  warnings: string[];
}

export interface Expected {
  exitCode: number;
  /** The AnalysisResult printed with --json; null when stdout must stay empty. */
  result: ExpectedResult | null;
  /** Lines stderr must contain, each whole (a pattern only for a random part such as the run id). */
  stderrLines?: Array<string | RegExp>;
  /** The whole of stderr, when it is one line. */
  stderr?: string;
}

export interface Outcome {
  exitCode: number;
  stdout: string;
  stderr: string;
  result: AnalysisResult | null;
  /** The saved run's files by name, when the run was saved. */
  saved: Record<string, string> | null;
  io: CapturedIo;
}

export interface FaultScenario {
  name: string;
  arrange: (context: FaultContext) => Promise<Arranged> | Arranged;
  expect: Expected | ((vars: Record<string, string>) => Expected);
  /** Scenario-specific checks beyond the table: what the model was sent, what the server saw. */
  verify?: (
    outcome: Outcome,
    context: { vars: Record<string, string>; servers: OpenAIServer[]; stubs: ExaStub[] },
  ) => void | Promise<void>;
}

/** Renders a table of scenarios as one `it` per row. */
export function faultMatrix(title: string, scenarios: FaultScenario[]): void {
  describe(title, () => {
    const cleanups: Array<() => unknown> = [];
    afterEach(async () => {
      // Every cleanup runs, even after a deferred check fails; the first failure is reported.
      const failures: unknown[] = [];
      for (const cleanup of cleanups.splice(0).reverse()) {
        try {
          await cleanup();
        } catch (error) {
          failures.push(error);
        }
      }
      if (failures.length > 0) throw failures[0];
    });
    for (const scenario of scenarios) {
      // A whole run per scenario: on a loaded two-core machine one can take well over 20 s.
      it(scenario.name, { timeout: 60_000 }, async () => {
        const io = captureIo();
        const servers: OpenAIServer[] = [];
        const stubs: ExaStub[] = [];
        const context: FaultContext = {
          io,
          async openai(script) {
            const server = await startOpenAIServer(script);
            servers.push(server);
            cleanups.push(() => server.close());
            return server;
          },
          async exa(responder) {
            const stub = await startExaStub(responder);
            stubs.push(stub);
            cleanups.push(() => stub.close());
            return stub;
          },
          model(server, options = {}) {
            return createOpenAIModel({
              baseURL: typeof server === 'string' ? server : server.url,
              apiKey: openaiCanary,
              maxRetries: 1,
              // Far beyond a loopback answer even on a loaded machine (streaming a 10 MB tool call took
              // over 2 s there); a scenario about a model timeout sets its own.
              timeoutMs: 15_000,
              ...options,
            });
          },
          defer(cleanup) {
            cleanups.push(cleanup);
          },
        };
        const arranged = await scenario.arrange(context);
        const vars = {
          ...(servers[0] ? { host: new URL(servers[0].url).host, url: servers[0].url } : {}),
          ...arranged.vars,
        };
        const outcome = await runAnalyze(arranged, io);
        const expected = typeof scenario.expect === 'function' ? scenario.expect(vars) : scenario.expect;
        checkOutcome(outcome, expected);
        if (!(arranged.argv ?? []).includes('--quiet')) checkProgressLines(outcome);
        // An aborted request's socket closes a moment after the client lets go.
        await settle(() =>
          servers.every((server) => server.requests.every((request) => request.answeredAt !== undefined)),
        );
        for (const server of servers) {
          for (const request of server.requests) {
            expect(
              request.answeredAt,
              `${agentOf(request)} request ${request.index + 1} still open after the CLI returned`,
            ).toBeDefined();
          }
        }
        await scenario.verify?.(outcome, { vars, servers, stubs });
      });
    }
  });
}

/**
 * Waits for a condition that follows an event already under way (a socket closing after an
 * abort): at most 10 s, long before "never" and well inside a test's timeout, since a loaded machine
 * can stretch the moment it usually takes to seconds. Returns as soon as it holds.
 */
export async function settle(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
}

export async function runAnalyze(arranged: Arranged, io: CapturedIo): Promise<Outcome> {
  const runIo: CapturedIo = { ...io, ...arranged.io, out: io.out, err: io.err };
  const exitCode = await runCli(arranged.argv ?? ['analyze', 'ACME', '--json'], runIo, {
    now: fixedNow,
    ...arranged.deps,
  });
  const stdout = io.out();
  const stderr = io.err();
  let result: AnalysisResult | null = null;
  if (stdout.trim().startsWith('{')) result = JSON.parse(stdout) as AnalysisResult;
  return { exitCode, stdout, stderr, result, saved: savedRun(runIo.env.AUTOHEDGE_HOME), io };
}

/** The one saved run's files, or null when nothing was saved. */
export function savedRun(home: string | undefined): Record<string, string> | null {
  if (!home) return null;
  const runs = join(home, 'runs');
  if (!existsSync(runs)) return null;
  const [runId, ...more] = readdirSync(runs);
  if (!runId) return null;
  expect(more, 'one run saved').toEqual([]);
  const directory = join(runs, runId);
  return Object.fromEntries(readdirSync(directory).map((name) => [name, readFileSync(join(directory, name), 'utf8')]));
}

/**
 * Without --quiet, every failure the result holds was also said on stderr as it
 * happened, one line each: a failed desk, the Director, every other warning.
 */
export function checkProgressLines(outcome: Outcome): void {
  const result = outcome.result;
  if (!result) return;
  const lines = outcome.stderr.split('\n');
  const wanted: string[] = [];
  for (const report of result.reports)
    if (report.status === 'failed') wanted.push(`[${result.ticker}] ${report.agent}: failed — ${report.error}`);
  if (result.error?.startsWith('Director ')) wanted.push(`[${result.ticker}] director: failed — ${result.error}`);
  const failedDesks = result.reports.filter((report) => report.status === 'failed').map((report) => report.agent);
  for (const warning of result.warnings) {
    // "<desk> failed: …" is the desk's own failure line above, said once.
    if (failedDesks.some((agent) => warning.startsWith(`${agent} failed: `))) continue;
    wanted.push(`[${result.ticker}] warning: ${warning}`);
  }
  for (const line of wanted) expect(lines, `stderr line: ${line}`).toContain(line);
  // And each at most once: a failure is not said twice.
  for (const agent of failedDesks)
    expect(lines.filter((line) => line.startsWith(`[${result.ticker}] warning: ${agent} failed: `))).toEqual([]);
}

export function checkOutcome(outcome: Outcome, expected: Expected): void {
  const { stdout, stderr } = outcome;
  const summary = `exit ${outcome.exitCode}\n--- stderr ---\n${stderr}\n--- stdout (start) ---\n${stdout.slice(0, 600)}`;
  expect(outcome.exitCode, summary).toBe(expected.exitCode);

  if (expected.result === null) {
    expect(stdout, 'nothing on stdout').toBe('');
  } else {
    const result = outcome.result;
    expect(result, summary).not.toBeNull();
    const reports = Object.fromEntries(
      (result?.reports ?? []).map((report) => [
        report.agent,
        report.status === 'ok' ? 'ok' : (report.error ?? 'failed'),
      ]),
    );
    const wanted = {
      ...expected.result,
      reports: Object.fromEntries(
        Object.entries(expected.result.reports).map(([agent, text]) => [
          agent,
          typeof text === 'string' ? text : expect.stringMatching(text),
        ]),
      ),
    };
    expect({
      status: result?.status,
      error: result?.error,
      decision: result?.decision != null,
      reports,
      warnings: result?.warnings,
    }).toEqual(wanted);
    // A failed report is never dressed up with text it did not get; a made decision never without a plan.
    for (const report of result?.reports ?? []) if (report.status === 'failed') expect(report.error).not.toBeNull();
    // A flagged run's decision is by definition not the good one; its scenario checks it.
    if (expected.result.decision && result?.status !== 'flagged')
      expect(result?.decision).toEqual(decisionAt(result?.market?.indicators.lastClose ?? null));
  }

  if (expected.stderr !== undefined) expect(stderr).toBe(`${expected.stderr}\n`);
  const lines = stderr.split('\n');
  for (const line of expected.stderrLines ?? []) {
    if (typeof line === 'string') expect(lines, `stderr line: ${line}\n${summary}`).toContain(line);
    else
      expect(
        lines.some((candidate) => new RegExp(`^(?:${line.source})$`).test(candidate)),
        `stderr line: ${line}\n${summary}`,
      ).toBe(true);
  }

  // Whatever the fault: no stack trace, no key, no raw control character a terminal could act on.
  expect(stderr).not.toMatch(/^\s+at .+\(.*:\d+:\d+\)$/m);
  expectNoCanary(stdout, 'stdout');
  expectNoCanary(stderr, 'stderr');
  for (const [name, text] of Object.entries(outcome.saved ?? {})) expectNoCanary(text, `saved ${name}`);
  expectNoRawControl({
    stdout,
    stderr,
    ...Object.fromEntries(Object.entries(outcome.saved ?? {}).map(([name, text]) => [`saved ${name}`, text])),
  });
}

/** C0 but \n and \t, DEL and C1, once autohedge's own SGR colours are set aside. */
const rawControl = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
/** autohedge's own colours: SGR sequences only. */
export const ownColours = /\u001b\[[0-9;]*m/g;

/** Where any artifact holds a raw control character: empty when all are inert. */
export function expectNoRawControl(artifacts: Record<string, string>): void {
  const offenders = Object.entries(artifacts).flatMap(([where, text]) => {
    const found = rawControl.exec(text.replace(ownColours, ''));
    return found ? [`${where}: ${JSON.stringify(found[0])}`] : [];
  });
  expect(offenders, 'raw control characters').toEqual([]);
}
