/**
 * P11: `autohedge view`'s runs list over 2,000 saved runs (issue #42): the built CLI's
 * server on a home of copies of one real demo run, its first page asked cold (every
 * result.json read once, by the run index) and then warm (each run only stat'ed), and a
 * filtered page and a deep page. Answers are read over HTTP from 127.0.0.1.
 */
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { median } from './measure.js';
import { seedRuns } from './runs-list.js';

export interface ViewFigures {
  runs: number;
  /** The first /runs/index.html: the index reads every run. */
  coldMs: number;
  /** /runs/index.html again, median of 20. */
  warmMs: number;
  /** A filtered page (ticker, status, mode), median of 20. */
  filteredMs: number;
  /** The last page (page 40), median of 20. */
  lastPageMs: number;
  /** Rows the first page listed (50). */
  rows: number;
}

function get(url: string): Promise<{ ms: number; body: string; status: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    request(url, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ ms: performance.now() - started, body, status: response.statusCode ?? 0 }));
    })
      .on('error', reject)
      .end();
  });
}

async function medianOf(url: string, times: number): Promise<number> {
  const samples: number[] = [];
  for (let index = 0; index < times; index += 1) {
    const answer = await get(url);
    if (answer.status !== 200) throw new Error(`${url} answered ${answer.status}`);
    samples.push(answer.ms);
  }
  return median(samples);
}

/** Starts `autohedge view --port 0 --demo` and resolves with its URL and a stop function. */
function startView(cli: string, home: string): Promise<{ url: string; stop: () => void }> {
  const child = spawn(process.execPath, [cli, 'view', '--port', '0', '--demo'], {
    env: { PATH: process.env['PATH'] ?? '', AUTOHEDGE_HOME: home, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const url = /^(http:\/\/\S+)\n/.exec(out)?.[1];
      if (url) resolve({ url, stop: () => child.kill('SIGTERM') });
    });
    child.on('exit', (code) => reject(new Error(`autohedge view exited ${code} before it listened`)));
  });
}

export async function measureView(cli: string, home: string, count = 2_000): Promise<ViewFigures> {
  await seedRuns(cli, home, count);
  const server = await startView(cli, home);
  try {
    const cold = await get(`${server.url}runs/index.html`);
    if (cold.status !== 200) throw new Error(`the runs list answered ${cold.status}`);
    return {
      runs: count,
      coldMs: cold.ms,
      warmMs: await medianOf(`${server.url}runs/index.html`, 20),
      filteredMs: await medianOf(`${server.url}runs/index.html?ticker=ACME&status=ok&mode=full`, 20),
      lastPageMs: await medianOf(`${server.url}runs/page-${Math.ceil(count / 50)}.html`, 20),
      rows: (cold.body.match(/<tr data-run=/g) ?? []).length,
    };
  } finally {
    server.stop();
  }
}
