import { errorMessage } from '../errors.js';
import { appendFile } from 'node:fs/promises';
import { stringifyJsonSafely } from '../sanitize.js';
import { scrubDeep } from '../scrub.js';
import type { WatchReport } from './delta.js';

/**
 * Delivery of a cycle's delta: a POST of the report as JSON — with a plain `text` field, so
 * a Slack- or Discord-compatible incoming webhook shows it — retried with back-off, and/or
 * a JSONL line appended to a file. Scrubbed of every secret the session knows first. A
 * failed delivery is reported, never thrown: the cycle is saved all the same.
 */

export interface NotifyOptions {
  url?: string;
  file?: string;
  secrets: readonly string[];
  fetch?: typeof fetch;
  /** Attempts in all for the webhook, and the wait before the second (doubling after). */
  attempts?: number;
  backoffMs?: number;
  /** Each attempt's deadline: a hanging server cannot hold the watch. */
  timeoutMs?: number;
}

export interface Delivery {
  channel: 'webhook' | 'file';
  ok: boolean;
  attempts: number;
  detail: string;
}

export async function deliver(report: WatchReport, text: string, options: NotifyOptions): Promise<Delivery[]> {
  const payload = scrubDeep({ ...report, text }, options.secrets);
  const body = stringifyJsonSafely(payload);
  const deliveries: Delivery[] = [];
  if (options.file) deliveries.push(await appendLine(options.file, body));
  if (options.url) deliveries.push(await post(options.url, body, options));
  return deliveries;
}

async function appendLine(file: string, body: string): Promise<Delivery> {
  try {
    await appendFile(file, `${body}\n`, 'utf8');
    return { channel: 'file', ok: true, attempts: 1, detail: `appended to ${file}` };
  } catch (error) {
    return {
      channel: 'file',
      ok: false,
      attempts: 1,
      detail: `could not append to ${file}: ${errorMessage(error)}`,
    };
  }
}

async function post(url: string, body: string, options: NotifyOptions): Promise<Delivery> {
  const attempts = options.attempts ?? 3;
  const send = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  let detail = '';
  for (let attempt = 1; attempt <= attempts; attempt += 1) {
    try {
      const response = await send(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
        signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
        redirect: 'error',
      });
      await response.body?.cancel().catch(() => {});
      if (response.ok) return { channel: 'webhook', ok: true, attempts: attempt, detail: `HTTP ${response.status}` };
      detail = `HTTP ${response.status}`;
      // A 4xx other than 408/429 will not change on a retry.
      if (response.status < 500 && response.status !== 408 && response.status !== 429) break;
    } catch (error) {
      detail = (error as Error).name === 'TimeoutError' ? 'no answer in time' : (error as Error).message;
    }
    if (attempt < attempts) await sleep((options.backoffMs ?? 1_000) * 2 ** (attempt - 1));
  }
  return { channel: 'webhook', ok: false, attempts, detail: `not delivered: ${detail}` };
}

function sleep(ms: number): Promise<void> {
  // Not unref'd: a `watch --once` must live until every delivery has settled (retries included).
  return new Promise((resolve) => setTimeout(resolve, ms));
}
