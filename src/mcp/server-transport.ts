import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/server';
import { serializeMessage } from '@modelcontextprotocol/server';
import { LineReader, maxLineBytes, type LineEvent } from './line-reader.js';

/**
 * `autohedge mcp`'s stdio transport: the SDK's StdioServerTransport with the bounds a looping
 * or hostile client needs.
 * - One line over 10 MB is answered with a JSON-RPC error (and a line on stderr) and the
 *   server goes on; the SDK's reader would close the connection and exit 0 in silence.
 * - At most `maxInFlight` requests are handled at once; later ones wait in a queue, so a
 *   client firing 400 `runs_list` calls does not have 400 of them read the run store at once.
 * - Backpressure: while stdout is not draining (a client that never reads), nothing new is
 *   handled, and once `maxQueuedBytes` of requests wait, stdin is not read at all.
 * stdin keeps being read otherwise, so its end is seen at once and the server stops.
 */
export interface ServerTransportOptions {
  stdin?: NodeJS.ReadableStream & { pause(): unknown; resume(): unknown; destroyed?: boolean; readableEnded?: boolean };
  stdout?: NodeJS.WritableStream;
  maxInFlight?: number;
  maxQueuedBytes?: number;
  /** Where a refused message is logged (stderr). */
  log?: (line: string) => void;
}

export const defaultMaxInFlight = 8;
const defaultMaxQueuedBytes = 4 * 1024 * 1024;

export class BoundedStdioServerTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private readonly reader = new LineReader();
  private readonly stdin: NonNullable<ServerTransportOptions['stdin']>;
  private readonly stdout: NodeJS.WritableStream;
  private readonly maxInFlight: number;
  private readonly maxQueuedBytes: number;
  /** Requests read but not yet handed to the server, with their sizes. */
  private readonly queue: Array<{ message: JSONRPCMessage; bytes: number }> = [];
  private queuedBytes = 0;
  private readonly log: (line: string) => void;
  private readonly inFlight = new Set<string | number>();
  private waitingForDrain = false;
  private closed = false;

  constructor(options: ServerTransportOptions = {}) {
    this.stdin = options.stdin ?? process.stdin;
    this.stdout = options.stdout ?? process.stdout;
    this.maxInFlight = options.maxInFlight ?? defaultMaxInFlight;
    this.maxQueuedBytes = options.maxQueuedBytes ?? defaultMaxQueuedBytes;
    this.log = options.log ?? ((line) => process.stderr.write(`${line}\n`));
  }

  async start(): Promise<void> {
    if (this.stdin.readableEnded || this.stdin.destroyed) setImmediate(this.onStdinClose);
    this.stdin.on('data', this.onData);
    this.stdin.on('error', this.onStdinError);
    this.stdin.on('end', this.onStdinClose);
    this.stdin.on('close', this.onStdinClose);
    this.stdout.on('error', this.onStdoutError);
  }

  private readonly onData = (chunk: Buffer) => {
    for (const event of this.reader.push(chunk)) this.accept(event);
    this.pump();
  };

  private accept(event: LineEvent): void {
    if (event.kind === 'message') {
      const bytes = JSON.stringify(event.message).length;
      this.queue.push({ message: event.message, bytes });
      this.queuedBytes += bytes;
      return;
    }
    if (event.kind === 'invalid') {
      this.log(`autohedge mcp: ignored ${event.reason}`);
      return;
    }
    const limit = `${maxLineBytes / 1024 / 1024} MB`;
    const size = `${(event.bytes / 1024 / 1024).toFixed(1)} MB`;
    this.log(`autohedge mcp: refused a message of ${size} (over the ${limit} limit)`);
    void this.send({
      jsonrpc: '2.0',
      id: event.id as string | number,
      error: { code: -32600, message: `message too large: ${size}, over the ${limit} limit` },
    }).catch(() => {});
  }

  /** Hands queued messages to the server while there is room, then reads on or pauses. */
  private pump(): void {
    if (this.closed) return;
    while (this.queue.length > 0 && !this.waitingForDrain) {
      const next = this.queue[0]!;
      const isRequest = 'method' in next.message && 'id' in next.message;
      if (isRequest && this.inFlight.size >= this.maxInFlight) break;
      this.queue.shift();
      this.queuedBytes -= next.bytes;
      if (isRequest) this.inFlight.add((next.message as { id: string | number }).id);
      this.onmessage?.(next.message);
    }
    if (this.queuedBytes > this.maxQueuedBytes) this.stdin.pause();
    else this.stdin.resume();
  }

  private readonly onStdinError = (error: Error) => this.onerror?.(error);
  private readonly onStdoutError = (error: Error) => {
    if (this.closed) return;
    this.onerror?.(error);
    void this.close();
  };
  private readonly onStdinClose = () => void this.close();

  send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return Promise.reject(new Error('the MCP transport is closed'));
    if (('result' in message || 'error' in message) && 'id' in message)
      this.inFlight.delete(message.id as string | number);
    const flushed = this.stdout.write(serializeMessage(message));
    if (!flushed && !this.waitingForDrain) {
      this.waitingForDrain = true;
      this.stdout.once('drain', () => {
        this.waitingForDrain = false;
        this.pump();
      });
    }
    queueMicrotask(() => this.pump());
    // Answers never wait on the client: what waits is the handling of its next requests.
    return Promise.resolve();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stdin.off('data', this.onData);
    this.stdin.off('error', this.onStdinError);
    this.stdin.off('end', this.onStdinClose);
    this.stdin.off('close', this.onStdinClose);
    this.stdin.pause();
    this.reader.clear();
    this.queue.length = 0;
    this.queuedBytes = 0;
    this.onclose?.();
  }
}
