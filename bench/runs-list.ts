/**
 * P10: MCP `runs_list` against a store of 300 saved runs, 400 calls at once (issue #34,
 * item 6). Before the run index, every call read and validated every result.json, and
 * 400 calls took the server to 3.3–3.8 GB. The runs are copies of one real `analyze ACME
 * --demo` result (its market data, reports and claims: the size a saved run really has);
 * the server is the built CLI's `autohedge mcp --demo`, driven by the SDK's own client.
 * Its peak RSS is read from /proc/<pid>/status (VmHWM) while it still runs.
 */
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { listRuns } from '../src/store/index.js';
import { median, run } from './measure.js';

export interface RunsListFigures {
  runs: number;
  calls: number;
  /** One call of the warm server, 400 sent at once: the batch's wall time ÷ 400. */
  perCallMs: number;
  /** The first call, which reads and validates every run. */
  firstCallMs: number;
  /** Reading and validating every run in this process (what each call cost before the index), median of 3. */
  fullReadMs: number;
  /** The server's peak resident set, MB; null where /proc is missing. */
  peakRssMb: number | null;
  /** Runs each call returned (all of them: limit 500). */
  listed: number;
  /** From the client closing stdin to the server's exit. */
  exitMs: number;
}

/** `count` saved runs in `home`: one demo analysis, copied under fresh run ids and times. */
export async function seedRuns(cli: string, home: string, count: number): Promise<void> {
  const demo = await run(process.execPath, [cli, 'analyze', 'ACME', '--demo', '--quiet', '--json'], {
    env: { PATH: process.env['PATH'] ?? '', AUTOHEDGE_HOME: home, NO_COLOR: '1' },
  });
  if (demo.code !== 0) throw new Error(`analyze ACME --demo exited ${demo.code}: ${demo.stderr.trim()}`);
  const runsDir = path.join(home, 'runs');
  const [original] = readdirSync(runsDir);
  const text = readFileSync(path.join(runsDir, original!, 'result.json'), 'utf8');
  const result = JSON.parse(text) as { runId: string; startedAt: string };
  for (let index = 1; index < count; index += 1) {
    const startedAt = new Date(Date.parse(result.startedAt) - index * 60_000).toISOString();
    const runId = `${result.runId}-${String(index).padStart(4, '0')}`;
    mkdirSync(path.join(runsDir, runId));
    writeFileSync(
      path.join(runsDir, runId, 'result.json'),
      `${JSON.stringify({ ...result, runId, startedAt }, null, 2)}\n`,
    );
  }
}

function peakRssMb(pid: number): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kilobytes = /^VmHWM:\s+(\d+)\s+kB/m.exec(status)?.[1];
    return kilobytes === undefined ? null : Number(kilobytes) / 1024;
  } catch {
    return null;
  }
}

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work();
  return { value, ms: performance.now() - started };
}

export async function measureRunsList(cli: string, home: string, count = 300, calls = 400): Promise<RunsListFigures> {
  await seedRuns(cli, home, count);
  const fullReads: number[] = [];
  for (let round = 0; round < 3; round += 1) fullReads.push((await timed(() => listRuns(home))).ms);

  const client = new Client({ name: 'autohedge-bench', version: '1.0.0' });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cli, 'mcp', '--demo'],
    env: { PATH: process.env['PATH'] ?? '', AUTOHEDGE_HOME: home, NO_COLOR: '1' },
    stderr: 'ignore',
  });
  await client.connect(transport);
  const pid = transport.pid!;
  const list = async () => {
    const answer = await client.callTool({ name: 'runs_list', arguments: { limit: 500 } });
    if (answer.isError) throw new Error(`runs_list failed: ${JSON.stringify(answer.content)}`);
    return (answer.structuredContent as { runs: unknown[] }).runs.length;
  };
  try {
    const first = await timed(list);
    const batch = await timed(() => Promise.all(Array.from({ length: calls }, list)));
    const listed = Math.min(first.value, ...batch.value);
    const peak = peakRssMb(pid);
    const exited = new Promise<number>((resolve) => {
      const poll = setInterval(() => {
        try {
          process.kill(pid, 0);
        } catch {
          clearInterval(poll);
          resolve(performance.now());
        }
      }, 10);
    });
    const closing = performance.now();
    await client.close();
    const exitMs = (await exited) - closing;
    return {
      runs: count,
      calls,
      perCallMs: batch.ms / calls,
      firstCallMs: first.ms,
      fullReadMs: median(fullReads),
      peakRssMb: peak,
      listed,
      exitMs,
    };
  } finally {
    await client.close().catch(() => {});
  }
}
