import { spawn, type ChildProcess } from 'node:child_process';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { serializeMessage } from '@modelcontextprotocol/client';
import { getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import { LineReader, maxLineBytes, type LineEvent } from './line-reader.js';

export interface StdioOptions {
  command: string;
  args: string[];
  /** Added to the SDK's default environment (HOME, PATH, …): nothing else of ours reaches the child. */
  env: Record<string, string>;
  cwd?: string;
}

/** How long a child may take to exit after stdin closes, and then after SIGTERM. */
const closeStepMs = 400;

/**
 * The SDK's stdio transport, with one difference that matters here: the child runs in
 * its own process group, and closing ends the whole group. Servers are often started
 * through `npx` or a shell, whose grandchildren the SDK's transport would orphan, and
 * a child that ignores stdin closing is killed rather than waited for.
 */
export class GroupStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private child?: ChildProcess;
  private readonly buffer = new LineReader();
  /** Requests sent and not yet answered: an oversized answer with no readable id fails the only one. */
  private readonly pending = new Set<string | number>();
  /** The child's last stderr lines, for a connection error that says why. */
  private stderrTail = '';
  /** Last resort when the process exits without closing us (process.exit on a second Ctrl-C, an uncaught error). */
  private readonly onProcessExit = () => {
    if (this.child) signalGroup(this.child, 'SIGKILL');
  };

  constructor(private readonly options: StdioOptions) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  lastStderr(): string {
    return this.stderrTail.trim().split('\n').slice(-3).join(' | ');
  }

  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      const child = spawn(this.options.command, this.options.args, {
        env: { ...getDefaultEnvironment(), ...this.options.env },
        cwd: this.options.cwd,
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: process.platform !== 'win32',
        windowsHide: true,
        shell: false,
      });
      this.child = child;
      process.once('exit', this.onProcessExit);
      child.once('error', (error) => {
        reject(error);
        this.onerror?.(error);
      });
      child.once('spawn', () => resolve());
      // The child stays known after its leader exits: close() (and the exit hook) must still
      // end its process group, where an `npx` or shell wrapper may leave a grandchild running.
      child.once('close', () => this.onclose?.());
      child.stdin?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('data', (chunk: Buffer) => this.receive(chunk));
      child.stderr?.on('data', (chunk: Buffer) => {
        this.stderrTail = `${this.stderrTail}${chunk.toString('utf8')}`.slice(-2_000);
      });
    });
  }

  private receive(chunk: Buffer): void {
    for (const event of this.buffer.push(chunk)) {
      const message = this.messageOf(event);
      if (!message) continue;
      if ('id' in message && !('method' in message)) this.pending.delete(message.id as string | number);
      this.onmessage?.(message);
    }
  }

  /**
   * An answer over the line limit fails its request at once ("too large"), rather than
   * leaving the call to wait for its whole time limit and then say "timed out".
   */
  private messageOf(event: LineEvent): JSONRPCMessage | null {
    if (event.kind === 'message') return event.message;
    if (event.kind === 'invalid') {
      this.onerror?.(new Error(`the MCP server sent ${event.reason}`));
      return null;
    }
    const id = event.id ?? (this.pending.size === 1 ? [...this.pending][0]! : null);
    const size = `${(event.bytes / 1024 / 1024).toFixed(1)} MB`;
    if (id === null) {
      this.onerror?.(
        new Error(`the MCP server sent a message of ${size}, over the ${maxLineBytes / 1024 / 1024} MB limit`),
      );
      return null;
    }
    return {
      jsonrpc: '2.0',
      id,
      error: {
        code: -32600,
        message: `the MCP server's answer was too large (${size}, over the ${maxLineBytes / 1024 / 1024} MB limit) and was dropped`,
      },
    };
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.child?.stdin;
      if (!stdin || stdin.destroyed) {
        reject(new Error('the MCP server process is not running'));
        return;
      }
      if ('method' in message && 'id' in message) this.pending.add(message.id as string | number);
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }

  /** stdin closed, then SIGTERM to the group, then SIGKILL to the group: never a child left behind. */
  async close(): Promise<void> {
    const child = this.child;
    process.removeListener('exit', this.onProcessExit);
    if (!child || child.pid === undefined) return;
    const exited = new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) resolve();
      else child.once('exit', () => resolve());
    });
    const waitExit = (ms: number) =>
      Promise.race([
        exited.then(() => true),
        new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms).unref()),
      ]);
    child.stdin?.end();
    if (!(await waitExit(closeStepMs))) {
      signalGroup(child, 'SIGTERM');
      if (!(await waitExit(closeStepMs))) {
        signalGroup(child, 'SIGKILL');
        await waitExit(closeStepMs);
      }
    }
    // The leader may have exited while a grandchild it started lives on in the group.
    signalGroup(child, 'SIGKILL');
    child.stdout?.destroy();
    child.stderr?.destroy();
    this.buffer.clear();
  }
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    if (process.platform === 'win32') child.kill(signal);
    else process.kill(-child.pid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
}
