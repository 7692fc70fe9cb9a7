// Hostile input (issue 12), on the built CLI as a user runs it: a hostile model, web page
// and server, and a careless command line. Each row runs bin/autohedge.js as a child
// process against the loopback OpenAI-compatible server and Exa stub, with market data
// from a snapshot already in its $AUTOHEDGE_HOME cache, and asserts the exit code, what
// reached stdout, stderr and every file the run wrote (no raw control sequence, no key
// fragment), and that the run was saved where it should be.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isoDay } from '../../src/clock.js';
import { notConfiguredLine } from '../../src/market/sources/edgar/config.js';
import type { AnalysisResult } from '../../src/result/types.js';
import { startExaStub, type ExaStub } from '../support/exa-server.js';
import { closedPortURL } from '../support/local-server.js';
import { makeSnapshot } from '../support/market.js';
import {
  byAgent,
  decision,
  expectNoFragments,
  expectNoRawControl,
  filesUnder,
  openaiCanary,
  exaCanary,
  ownColours,
  plan,
} from '../support/faults.js';
import {
  errorReply,
  startOpenAIServer,
  textAnswer,
  toolCallAnswer,
  type OpenAIServer,
  type ReplyHandler,
} from '../support/openai-server.js';

const root = resolve(import.meta.dirname, '..', '..');
const built = existsSync(join(root, 'dist', 'src', 'cli', 'main.js'));
if (!built)
  console.warn('tests/faults/hostile.test.ts: skipped — dist/ is missing; run `npm run build` first (npm test does)');

/** Every sequence of issue 12: CSI clear screen, OSC 0 title, OSC 52 clipboard, OSC 8 link, 8-bit CSI, bell, a lone CR. */
const hostile =
  '\u001b[2J\u001b]0;pwned\u0007\u001b]52;c;ZXZpbA==\u0007\u001b]8;;https://evil.example/\u001b\\click\u001b]8;;\u001b\\\u009b31m\rX';

/** Nothing in an artifact but autohedge's own SGR colours may be a control character, and no hostile sequence survives whole. */
function expectInert(artifacts: Record<string, string>): void {
  expectNoRawControl(artifacts);
  for (const [where, text] of Object.entries(artifacts)) {
    expect(text.includes('\u001b[2J') || text.includes('\u001b]'), `${where} holds a hostile escape sequence`).toBe(
      false,
    );
  }
}

/** A small tmpfs mounted at a fresh folder (full after `sizeKb`, or read-only), or null where mounting is not allowed. */
function mountTmpfs(options: string): { path: string; unmount(): void } | null {
  const path = mkdtempSync(join(tmpdir(), 'autohedge-mount-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', path], { stdio: 'ignore' });
  } catch {
    return null;
  }
  return { path, unmount: () => execFileSync('umount', [path], { stdio: 'ignore' }) };
}

const probe = mountTmpfs('size=16k');
probe?.unmount();
if (!probe)
  console.warn(
    'tests/faults/hostile.test.ts: the disk-full and read-only --record rows are skipped — mounting a tmpfs needs root (CI runs as root)',
  );

let servers: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

async function openai(script: ReplyHandler): Promise<OpenAIServer> {
  const server = await startOpenAIServer(script);
  servers.push(server);
  return server;
}

async function exa(): Promise<ExaStub> {
  const stub = await startExaStub({
    body: {
      requestId: 'hostile',
      resolvedSearchType: 'neural',
      results: [
        {
          id: 'x',
          title: `Acme soars ${hostile}`,
          url: `https://news.example.com/acme${hostile}`,
          publishedDate: '2026-11-25T00:00:00.000Z',
          author: `Mallory ${hostile}`,
          highlights: [`Shares rose ${hostile}`],
        },
      ],
    },
  });
  servers.push(stub);
  return stub;
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  home: string;
  cwd: string;
}

function freshHome(company = 'Acme Robotics'): string {
  const home = mkdtempSync(join(tmpdir(), 'autohedge-hostile-'));
  const now = new Date();
  const directory = join(home, 'cache', 'market', 'ACME');
  mkdirSync(directory, { recursive: true });
  const snapshot = makeSnapshot('ACME', { asOf: now.toISOString(), source: 'yahoo' });
  snapshot.identity.name = company;
  writeFileSync(
    join(directory, `${isoDay(now)}.json`),
    JSON.stringify({ version: 2, savedAt: now.toISOString(), snapshot }),
  );
  return home;
}

/** Yahoo answered from the demo's synthetic market (a recording bypasses the cache). */
const syntheticYahoo = join(root, 'tests', 'smoke', 'synthetic-yahoo.preload.mjs');

function runBuiltCli(
  args: string[],
  env: Record<string, string>,
  options: { home?: string; cwd?: string; yahoo?: boolean } = {},
): Promise<Run> {
  const home = options.home ?? freshHome();
  const cwd = options.cwd ?? mkdtempSync(join(tmpdir(), 'autohedge-cwd-'));
  const preload = options.yahoo ? ['--import', syntheticYahoo] : [];
  const yahooEnv = options.yahoo
    ? { YAHOO_STUB_COOKIE: 'A3=stub-cookie-value', YAHOO_STUB_CRUMB: 'stub-crumb-value' }
    : {};
  const child = spawn(process.execPath, [...preload, join(root, 'bin', 'autohedge.js'), ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? '', AUTOHEDGE_HOME: home, ...yahooEnv, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((done) => child.on('exit', (code) => done({ code, stdout, stderr, home, cwd })));
}

function savedRuns(home: string): string[] {
  const directory = join(home, 'runs');
  return existsSync(directory) ? readdirSync(directory) : [];
}

function noStack(stderr: string): void {
  expect(stderr).not.toMatch(/^\s+at /m);
}

/** A model that plants the sequences everywhere it writes: desk text, the Director's JSON, a tool name, a 400 body. */
function hostileModel(): ReplyHandler {
  return byAgent({
    director: [
      textAnswer(JSON.stringify({ ...plan, thesis: `Momentum ${hostile}` })),
      textAnswer(
        JSON.stringify({
          ...decision,
          rationale: `Buy it ${hostile}`,
          keyRisks: [`risk ${hostile}`],
          timeHorizon: `1–3 months ${hostile}`,
        }),
      ),
    ],
    quant: [textAnswer(`Quant: trend up ${hostile}`)],
    risk: [toolCallAnswer([{ id: 'call_x', name: `exa_search${hostile}`, arguments: { query: 'x' } }])],
    execution: [errorReply(400, { message: `bad request ${hostile}` })],
    sentiment: [
      toolCallAnswer([
        { id: 'call_search', name: 'exa_search', arguments: { query: 'Acme news', numResults: 3, daysBack: 30 } },
      ]),
      textAnswer(`Sentiment: upbeat ${hostile} (https://news.example.com/acme)`),
    ],
  });
}

describe.skipIf(!built)('hostile input on the built CLI', () => {
  it('control sequences in desk text, Director JSON, an Exa title/URL, a tool name, a 400 body and a company name reach no output raw; our colours still work', async () => {
    const server = await openai(hostileModel());
    const stub = await exa();
    const home = freshHome(`Acme ${hostile} Inc`);
    const out = mkdtempSync(join(tmpdir(), 'autohedge-out-'));
    const env = {
      OPENAI_API_KEY: openaiCanary,
      OPENAI_BASE_URL: server.url,
      EXA_API_KEY: exaCanary,
      EXA_BASE_URL: stub.baseURL,
      FORCE_COLOR: '1',
    };

    const run = await runBuiltCli(['analyze', 'ACME', '--trace', '--out', out], env, { home });
    // Risk asked for a tool it does not have and Execution got a 400: two desks failed, the run is degraded.
    expect(run.code, run.stderr).toBe(3);
    expect(stub.requests).toHaveLength(1);
    const [runId, ...others] = savedRuns(home);
    expect(others).toEqual([]);
    const saved = JSON.parse(readFileSync(join(home, 'runs', runId!, 'result.json'), 'utf8')) as AnalysisResult;
    expect(saved.status).toBe('degraded');
    const failed = Object.fromEntries(saved.reports.map((report) => [report.agent, report.error]));
    expect(failed.risk).toContain('exa_search␛[2J␛]0;pwned␇');
    expect(failed.execution).toContain('bad request ␛[2J');
    // The hostile text arrived, inert: visible, not obeyed.
    expect(saved.decision?.rationale).toBe(
      `Buy it ␛[2J␛]0;pwned␇␛]52;c;ZXZpbA==␇␛]8;;https://evil.example/␛\\click␛]8;;␛\\\ufffd31m␍X`,
    );
    expect(run.stdout).toContain('Buy it ␛[2J');
    expect(run.stdout).toContain('Acme soars ');
    expect(run.stdout).toMatch(new RegExp(ownColours.source));
    expect(run.stderr).toMatch(new RegExp(ownColours.source));

    const shown = await runBuiltCli(['runs', 'show', runId!], { FORCE_COLOR: '1' }, { home });
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain('Buy it ␛[2J');
    const listed = await runBuiltCli(['runs'], {}, { home });
    expect(listed.code).toBe(0);
    const json = await runBuiltCli(['runs', 'show', runId!, '--json'], {}, { home });
    expect(json.code).toBe(0);

    const artifacts = {
      stdout: run.stdout,
      stderr: run.stderr,
      'runs show': shown.stdout,
      'runs show stderr': shown.stderr,
      'runs show --json': json.stdout,
      runs: listed.stdout,
      ...filesUnder(join(home, 'runs')),
      ...Object.fromEntries(Object.entries(filesUnder(out)).map(([name, text]) => [`--out ${name}`, text])),
    };
    expectInert(artifacts);
    expectNoFragments(artifacts);
    noStack(run.stderr);
  });

  it('`market` with a hostile company name in its cache: text and --json inert', async () => {
    const home = freshHome(`Acme ${hostile} Inc`);
    const text = await runBuiltCli(['market', 'ACME'], { FORCE_COLOR: '1' }, { home });
    const json = await runBuiltCli(['market', 'ACME', '--json'], {}, { home });
    expect([text.code, json.code], text.stderr + json.stderr).toEqual([0, 0]);
    expect(text.stdout).toContain('Acme ␛[2J');
    expect((JSON.parse(json.stdout) as { identity: { name: string } }).identity.name).toBe(`Acme ${hostile} Inc`);
    expectInert({ 'market stdout': text.stdout, 'market stderr': text.stderr, 'market --json': json.stdout });
  });

  it('the same run without colour: no escape character at all on stdout or stderr', async () => {
    const server = await openai(hostileModel());
    const stub = await exa();
    const env = {
      OPENAI_API_KEY: openaiCanary,
      OPENAI_BASE_URL: server.url,
      EXA_API_KEY: exaCanary,
      EXA_BASE_URL: stub.baseURL,
      NO_COLOR: '1',
    };
    const run = await runBuiltCli(['analyze', 'ACME', '--trace'], env);
    expect(run.code, run.stderr).toBe(3);
    expect(run.stdout).not.toContain('\u001b');
    expect(run.stderr).not.toContain('\u001b');
    expectInert({ stdout: run.stdout, stderr: run.stderr, ...filesUnder(join(run.home, 'runs')) });
    expect(savedRuns(run.home)).toHaveLength(1);
  });

  describe('secrets in URLs and arguments', () => {
    for (const variable of ['OPENAI_BASE_URL', '--base-url']) {
      it(`userinfo in ${variable}: refused with exit 2 naming OPENAI_API_KEY, nothing sent, nothing leaked`, async () => {
        const server = await openai(byAgent());
        const url = server.url.replace('http://', `http://user:${openaiCanary}@`);
        const args =
          variable === '--base-url' ? ['analyze', 'ACME', '--json', '--base-url', url] : ['analyze', 'ACME', '--json'];
        const env: Record<string, string> = variable === '--base-url' ? {} : { OPENAI_BASE_URL: url };
        const run = await runBuiltCli(args, env);
        expect(run.code).toBe(2);
        expect(run.stderr).toBe(
          `autohedge: ${variable} must not carry credentials (user:password@host): put the key in OPENAI_API_KEY, which is sent as the Authorization header\n`.replace(
            'UsageError',
            variable === '--base-url' ? 'UsageError' : 'ConfigError',
          ),
        );
        expect(run.stdout).toBe('');
        expect(server.requests).toHaveLength(0);
        expect(savedRuns(run.home)).toEqual([]);
      });
    }

    it('a query token in the base URL is scrubbed wherever the URL is printed or saved', async () => {
      const closed = await closedPortURL();
      const run = await runBuiltCli(
        ['analyze', 'ACME', '--json', '--base-url', `${closed}/v1?key=${openaiCanary}&token=${exaCanary}`],
        { OPENAI_API_KEY: 'sk-other-0123456789abcdef' },
      );
      expect(run.code, run.stderr).toBe(1);
      const result = JSON.parse(run.stdout) as AnalysisResult;
      expect(result.status).toBe('failed');
      expect(run.stdout).toMatch(/could not connect to http:\/\/127\.0\.0\.1:\d+\/v1\?key=REDACTED&token=REDACTED/);
      expect(savedRuns(run.home)).toHaveLength(1);
      expectNoFragments({ stdout: run.stdout, stderr: run.stderr, ...filesUnder(join(run.home, 'runs')) });
      noStack(run.stderr);
    });

    it('a key pasted as --model sk-…: scrubbed on stderr and in every file, like stdout', async () => {
      const server = await openai(byAgent());
      const run = await runBuiltCli(['analyze', 'ACME', '--json', '--model', openaiCanary, '--trace'], {
        OPENAI_API_KEY: 'sk-other-0123456789abcdef',
        OPENAI_BASE_URL: server.url,
      });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toContain('(model REDACTED');
      expect(savedRuns(run.home)).toHaveLength(1);
      expectNoFragments({ stdout: run.stdout, stderr: run.stderr, ...filesUnder(join(run.home, 'runs')) });
    });

    it('AUTOHEDGE_MODEL_QUANT with a line break: exit 2 naming the variable, nothing sent', async () => {
      const server = await openai(byAgent());
      const run = await runBuiltCli(['analyze', 'ACME'], {
        OPENAI_API_KEY: openaiCanary,
        OPENAI_BASE_URL: server.url,
        AUTOHEDGE_MODEL_QUANT: 'gpt-4.1\u001b[2J',
      });
      expect({ code: run.code, stderr: run.stderr }).toEqual({
        code: 2,
        stderr: 'autohedge: AUTOHEDGE_MODEL_QUANT must not contain control characters or line breaks\n',
      });
      expect(server.requests).toHaveLength(0);
    });

    it("an unknown flag holding a control sequence: commander's usage error arrives inert", async () => {
      const run = await runBuiltCli(['analyze', 'ACME', `--x\u001b]0;pwned\u0007`], {});
      expect(run.code).toBe(2);
      expect(run.stderr).toContain("autohedge: unknown option '--x␛]0;pwned␇'");
      expectInert({ stderr: run.stderr });
    });

    it('OPENAI_BASE_URL that is not http(s): exit 2 naming the variable', async () => {
      const run = await runBuiltCli(['analyze', 'ACME', '--json'], {
        OPENAI_API_KEY: openaiCanary,
        OPENAI_BASE_URL: 'file:///etc/passwd',
      });
      expect({ code: run.code, stderr: run.stderr, stdout: run.stdout }).toEqual({
        code: 2,
        stderr: 'autohedge: OPENAI_BASE_URL must be an http(s) URL, not file:\n',
        stdout: '',
      });
    });

    it('--model with a newline (a forged "[ACME] decision:" line): exit 2, one line, nothing sent', async () => {
      const server = await openai(byAgent());
      const run = await runBuiltCli(['analyze', 'ACME', '--model', 'gpt-4.1\n[ACME] decision: BUY 100%'], {
        OPENAI_API_KEY: openaiCanary,
        OPENAI_BASE_URL: server.url,
      });
      expect({ code: run.code, stderr: run.stderr, stdout: run.stdout }).toEqual({
        code: 2,
        stderr: 'autohedge: --model must not contain control characters or line breaks\n',
        stdout: '',
      });
      expect(server.requests).toHaveLength(0);
    });
  });

  describe('parsing', () => {
    it(".env read by Node's parser: quotes, a trailing comment, export and CRLF are not part of the key", async () => {
      const server = await openai(byAgent());
      const cwd = mkdtempSync(join(tmpdir(), 'autohedge-cwd-'));
      writeFileSync(
        join(cwd, '.env'),
        `# keys\r\nexport OPENAI_API_KEY="${openaiCanary}" # the real one\r\nOPENAI_BASE_URL='${server.url}'\r\n`,
      );
      const run = await runBuiltCli(['analyze', 'ACME', '--json', '--quiet'], {}, { cwd });
      expect(run.code, run.stderr).toBe(0);
      expect(server.requests.length).toBeGreaterThan(0);
      for (const request of server.requests) expect(request.headers.authorization).toBe(`Bearer ${openaiCanary}`);
      expectNoFragments({ stdout: run.stdout, stderr: run.stderr, ...filesUnder(join(run.home, 'runs')) });
    });

    it('--model constructor --max-cost 0.01: no inherited "price", exit 2 before any call', async () => {
      const server = await openai(byAgent());
      const run = await runBuiltCli(['analyze', 'ACME', '--json', '--model', 'constructor', '--max-cost', '0.01'], {
        OPENAI_API_KEY: openaiCanary,
        OPENAI_BASE_URL: server.url,
      });
      expect({ code: run.code, stderr: run.stderr }).toEqual({
        code: 2,
        stderr:
          "autohedge: --max-cost needs a price for every model, and none is known for 'constructor': add it to AUTOHEDGE_PRICES (inline JSON or a JSON file's path)\n",
      });
      expect(server.requests).toHaveLength(0);
      expect(savedRuns(run.home)).toEqual([]);
    });

    it('a cassette nested 200,000 levels deep: CassetteError, exit 2, no stack overflow', async () => {
      const cwd = mkdtempSync(join(tmpdir(), 'autohedge-cwd-'));
      const depth = 200_000;
      const cassette = join(cwd, 'deep.cassette.json');
      writeFileSync(
        cassette,
        `{"format":"autohedge-cassette","version":1,"autohedgeVersion":"0.1.0","asOf":"2026-11-28T12:00:00Z","argv":[],"recordedAt":"2026-11-28T12:00:00Z","interactions":[{"method":"GET","url":"http://x/","status":200,"responseBody":${'['.repeat(depth)}${']'.repeat(depth)}}]}`,
      );
      const run = await runBuiltCli(['analyze', 'ACME', '--replay', cassette], {}, { cwd });
      expect({ code: run.code, stderr: run.stderr, stdout: run.stdout }).toEqual({
        code: 2,
        stderr: `autohedge: cannot replay '${cassette}': nested more than 256 levels deep (at interactions.0.responseBody.0); not a recording autohedge made\n`,
        stdout: '',
      });
    });

    it('a saved run nested 200,000 levels deep: `runs show` and `runs` name it corrupt, no stack overflow', async () => {
      const home = mkdtempSync(join(tmpdir(), 'autohedge-hostile-'));
      const directory = join(home, 'runs', '20261128T120000Z-ACME-deep00');
      mkdirSync(directory, { recursive: true });
      const depth = 200_000;
      writeFileSync(
        join(directory, 'result.json'),
        `{"runId":"20261128T120000Z-ACME-deep00","ticker":"ACME","warnings":${'['.repeat(depth)}${']'.repeat(depth)}}`,
      );
      const shown = await runBuiltCli(['runs', 'show', '20261128T120000Z-ACME-deep00'], {}, { home });
      expect({ code: shown.code, stderr: shown.stderr, stdout: shown.stdout }).toEqual({
        code: 1,
        stderr:
          'autohedge: run 20261128T120000Z-ACME-deep00 is corrupt: result.json nests more than 256 levels deep (at warnings.0.0.0)\n',
        stdout: '',
      });
      const listed = await runBuiltCli(['runs'], {}, { home });
      expect(listed.code).toBe(0);
      // The table on stdout lists it as corrupt; the reason goes to stderr.
      expect(listed.stdout).toMatch(/20261128T120000Z-ACME-deep00 .* corrupt/);
      expect(listed.stderr).toContain(
        '20261128T120000Z-ACME-deep00: corrupt: result.json nests more than 256 levels deep',
      );
    });
  });

  // A recording of a US listing without AUTOHEDGE_SEC_USER_AGENT says first that it has no SEC fundamentals.
  const edgarNotConfigured = `autohedge: warning: ${notConfiguredLine}\n`;

  describe('--record failures say why', () => {
    it('a parent that is a file: the cause on stderr, exit 2, the run itself still printed and saved', async () => {
      const server = await openai(byAgent());
      const cwd = mkdtempSync(join(tmpdir(), 'autohedge-cwd-'));
      writeFileSync(join(cwd, 'not-a-directory'), '');
      const target = join(cwd, 'not-a-directory', 'run.cassette.json');
      const run = await runBuiltCli(
        ['analyze', 'ACME', '--json', '--quiet', '--record', target],
        { OPENAI_API_KEY: openaiCanary, OPENAI_BASE_URL: server.url },
        { cwd, yahoo: true },
      );
      expect(run.code).toBe(2);
      expect(run.stderr).toBe(
        `${edgarNotConfigured}autohedge: cannot write cassette '${target}': a parent of that path is not a directory (EEXIST)\n`,
      );
      expect((JSON.parse(run.stdout) as AnalysisResult).status).toBe('ok');
      expect(savedRuns(run.home)).toHaveLength(1);
    });
  });

  const mounted = [
    { name: 'the disk is full', options: 'size=8k', cause: 'the disk is full (ENOSPC)' },
    { name: 'the file system is read-only', options: 'ro', cause: 'the file system is read-only (EROFS)' },
  ];
  describe.skipIf(!probe).each(mounted)('--record when $name', ({ options, cause }) => {
    it('says so on stderr, exit 2; the run itself is still printed and saved', async () => {
      const mount = mountTmpfs(options)!;
      try {
        const server = await openai(byAgent());
        const target = join(mount.path, 'run.cassette.json');
        const run = await runBuiltCli(
          ['analyze', 'ACME', '--json', '--quiet', '--record', target],
          { OPENAI_API_KEY: openaiCanary, OPENAI_BASE_URL: server.url },
          { yahoo: true },
        );
        expect(run.code).toBe(2);
        expect(run.stderr).toBe(`${edgarNotConfigured}autohedge: cannot write cassette '${target}': ${cause}\n`);
        expect((JSON.parse(run.stdout) as AnalysisResult).status).toBe('ok');
        expect(savedRuns(run.home)).toHaveLength(1);
        expect(readdirSync(mount.path)).toEqual([]);
      } finally {
        mount.unmount();
      }
    });
  });

  describe('--trace cuts long arguments and results', () => {
    it('a 1 MB tool argument: one line, cut, saying the full size', async () => {
      const query = 'q'.repeat(1_000_000);
      const server = await openai(
        byAgent({
          sentiment: [
            toolCallAnswer([{ id: 'call_big', name: 'exa_search', arguments: { query } }]),
            textAnswer('Sentiment: nothing found.'),
          ],
        }),
      );
      const stub = await exa();
      const run = await runBuiltCli(['analyze', 'ACME', '--json', '--trace', '--agent', 'sentiment'], {
        OPENAI_API_KEY: openaiCanary,
        OPENAI_BASE_URL: server.url,
        EXA_API_KEY: exaCanary,
        EXA_BASE_URL: stub.baseURL,
        NO_COLOR: '1',
      });
      expect(run.code, run.stderr.slice(0, 2_000)).toBe(0);
      const argumentsLine = run.stderr.split('\n').find((line) => line.includes('function.arguments'))!;
      expect(argumentsLine).toMatch(/… \[cut: 1,000,012 characters in all\]$/);
      expect(argumentsLine.length).toBeLessThan(600);
      expect(Math.max(...run.stderr.split('\n').map((line) => line.length))).toBeLessThan(2_000);
    });
  });
});
