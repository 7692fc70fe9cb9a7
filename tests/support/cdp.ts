/**
 * Headless Chromium driven over the DevTools protocol through a pipe
 * (`--remote-debugging-pipe`: JSON messages ending in a NUL on fds 3 and 4, no
 * WebSocket needed): open a page at a given width, collect its console errors, uncaught
 * exceptions, CSP reports and failed requests, and evaluate expressions in it (the
 * protocol's evaluate is not a page script, so a CSP that forbids scripts does not stop
 * it). Started in its own process group with a fresh profile, stopped by its id.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { chromiumPath, headlessFlags } from './chromium.js';

interface Message {
  id?: number;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { message: string };
  sessionId?: string;
}

export interface OpenedPage {
  /** Console errors, exceptions, CSP violations and log errors, as text. */
  errors: string[];
  /** Requests that failed or answered 4xx/5xx. */
  failed: string[];
  evaluate<T>(expression: string): Promise<T>;
  screenshot(): Promise<Buffer>;
  close(): Promise<void>;
}

export class Browser {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (value: Message) => void; reject: (error: Error) => void }>();
  private readonly listeners = new Set<(message: Message) => void>();
  private buffer = '';

  private constructor(
    private readonly child: ChildProcess,
    private readonly profile: string,
  ) {
    const output = child.stdio[4] as Readable;
    output.on('data', (chunk: Buffer) => this.receive(chunk.toString('utf8')));
  }

  static launch(): Browser {
    const binary = chromiumPath();
    if (!binary) throw new Error('chromium is not installed');
    const profile = mkdtempSync(join(tmpdir(), 'autohedge-cdp-'));
    const args = [
      ...headlessFlags,
      '--hide-scrollbars',
      '--allow-file-access-from-files',
      `--user-data-dir=${profile}`,
      '--remote-debugging-pipe',
      'about:blank',
    ];
    const child = spawn(binary, args, { detached: true, stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'] });
    return new Browser(child, profile);
  }

  private receive(text: string): void {
    this.buffer += text;
    let end: number;
    while ((end = this.buffer.indexOf('\0')) !== -1) {
      const message = JSON.parse(this.buffer.slice(0, end)) as Message;
      this.buffer = this.buffer.slice(end + 1);
      if (message.id !== undefined && this.pending.has(message.id)) {
        const waiter = this.pending.get(message.id)!;
        this.pending.delete(message.id);
        if (message.error) waiter.reject(new Error(message.error.message));
        else waiter.resolve(message);
      } else for (const listener of this.listeners) listener(message);
    }
  }

  send(method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<Record<string, unknown>> {
    const id = this.nextId++;
    const input = this.child.stdio[3] as Writable;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve: (message) => resolve(message.result ?? {}), reject });
      input.write(`${JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) })}\0`);
    });
  }

  /** Opens `url` in a new tab `width` px wide and waits for its load event (and a little after). */
  async open(url: string, width: number, height = 900): Promise<OpenedPage> {
    const { targetId } = (await this.send('Target.createTarget', { url: 'about:blank' })) as { targetId: string };
    const { sessionId } = (await this.send('Target.attachToTarget', { targetId, flatten: true })) as {
      sessionId: string;
    };
    const errors: string[] = [];
    const failed: string[] = [];
    let loaded: () => void = () => undefined;
    const load = new Promise<void>((resolve) => (loaded = resolve));
    const listener = (message: Message) => {
      if (message.sessionId !== sessionId) return;
      const params = message.params ?? {};
      if (message.method === 'Page.loadEventFired') loaded();
      if (message.method === 'Runtime.exceptionThrown')
        errors.push(`exception: ${JSON.stringify(params.exceptionDetails)}`);
      if (message.method === 'Runtime.consoleAPICalled' && (params.type === 'error' || params.type === 'assert'))
        errors.push(`console: ${JSON.stringify(params.args)}`);
      if (message.method === 'Log.entryAdded') {
        const entry = params.entry as { level: string; text: string; url?: string };
        if (entry.level === 'error' || entry.level === 'warning')
          errors.push(`log ${entry.level}: ${entry.text} ${entry.url ?? ''}`);
      }
      if (message.method === 'Network.loadingFailed')
        failed.push(`${String(params.errorText)} ${String(params.requestId)} ${String(params.blockedReason ?? '')}`);
      if (message.method === 'Network.responseReceived') {
        const response = params.response as { status: number; url: string };
        if (response.status >= 400) failed.push(`${response.status} ${response.url}`);
      }
    };
    this.listeners.add(listener);
    for (const domain of ['Page', 'Runtime', 'Log', 'Network']) await this.send(`${domain}.enable`, {}, sessionId);
    await this.send(
      'Emulation.setDeviceMetricsOverride',
      { width, height, deviceScaleFactor: 1, mobile: width < 600 },
      sessionId,
    );
    await this.send('Page.navigate', { url }, sessionId);
    await Promise.race([load, new Promise((resolve) => setTimeout(resolve, 15_000))]);
    await new Promise((resolve) => setTimeout(resolve, 150));
    return {
      errors,
      failed,
      evaluate: async <T>(expression: string) => {
        const result = (await this.send(
          'Runtime.evaluate',
          { expression, returnByValue: true, awaitPromise: true },
          sessionId,
        )) as { result: { value: T }; exceptionDetails?: unknown };
        if (result.exceptionDetails) throw new Error(`evaluate failed: ${JSON.stringify(result.exceptionDetails)}`);
        return result.result.value;
      },
      screenshot: async () => {
        const { data } = (await this.send(
          'Page.captureScreenshot',
          { format: 'png', captureBeyondViewport: true },
          sessionId,
        )) as {
          data: string;
        };
        return Buffer.from(data, 'base64');
      },
      close: async () => {
        this.listeners.delete(listener);
        await this.send('Target.closeTarget', { targetId });
      },
    };
  }

  close(): void {
    if (this.child.pid !== undefined) {
      try {
        process.kill(-this.child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    rmSync(this.profile, { recursive: true, force: true });
  }
}
