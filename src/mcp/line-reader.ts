import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { deserializeMessage } from '@modelcontextprotocol/client';

/**
 * Newline-delimited JSON-RPC, read with a bound on the length of one line. The SDK's own
 * ReadBuffer clears itself and throws past its limit, so the message is lost without a
 * word: a server's 12 MB tool result leaves the call waiting for its whole time limit, and
 * `autohedge mcp` given a 12 MB line closes its transport and exits 0. Here an oversized
 * line is skipped to its newline, without holding it in memory, and reported as one event
 * with the JSON-RPC id found at either end of it (serialisers put `id` first or last), so
 * the caller can answer or fail that one request at once.
 */

export type LineEvent =
  | { kind: 'message'; message: JSONRPCMessage }
  | { kind: 'oversized'; bytes: number; id: string | number | null }
  | { kind: 'invalid'; reason: string };

/** What the SDK allows by default; a bigger answer is a mistake or an attack. */
export const maxLineBytes = 10 * 1024 * 1024;

/** How much of each end of an oversized line is kept to find its id. */
const edgeBytes = 256;

export class LineReader {
  private chunks: Buffer[] = [];
  private length = 0;
  /** Set while skipping an oversized line: its head, its byte count and a rolling tail. */
  private skipping: { head: Buffer; bytes: number; tail: Buffer } | null = null;

  constructor(private readonly maxBytes = maxLineBytes) {}

  /** Every complete line in `chunk` (with what came before it), as events in order. */
  push(chunk: Buffer): LineEvent[] {
    const events: LineEvent[] = [];
    let start = 0;
    for (let newline = chunk.indexOf(10, start); newline !== -1; newline = chunk.indexOf(10, start)) {
      const piece = chunk.subarray(start, newline);
      start = newline + 1;
      if (this.skipping) events.push(this.endSkip(piece));
      else if (this.length + piece.length > this.maxBytes) events.push(this.oversized(piece));
      else {
        const line = this.take(piece);
        const event = parseLine(line);
        if (event) events.push(event);
      }
    }
    this.keep(chunk.subarray(start));
    return events;
  }

  clear(): void {
    this.chunks = [];
    this.length = 0;
    this.skipping = null;
  }

  private keep(rest: Buffer): void {
    if (rest.length === 0) return;
    if (this.skipping) {
      this.skipping.bytes += rest.length;
      this.skipping.tail = lastBytes(Buffer.concat([this.skipping.tail, rest]));
      return;
    }
    if (this.length + rest.length > this.maxBytes) {
      const head = this.take(rest);
      this.skipping = { head: head.subarray(0, edgeBytes), bytes: head.length, tail: lastBytes(head) };
      return;
    }
    this.chunks.push(Buffer.from(rest));
    this.length += rest.length;
  }

  private take(piece: Buffer): Buffer {
    const line = this.chunks.length === 0 ? piece : Buffer.concat([...this.chunks, piece]);
    this.chunks = [];
    this.length = 0;
    return line;
  }

  private oversized(piece: Buffer): LineEvent {
    const line = this.take(piece);
    return { kind: 'oversized', bytes: line.length, id: findId(line.subarray(0, edgeBytes), lastBytes(line)) };
  }

  private endSkip(piece: Buffer): LineEvent {
    const skipping = this.skipping!;
    this.skipping = null;
    const tail = lastBytes(Buffer.concat([skipping.tail, piece]));
    return { kind: 'oversized', bytes: skipping.bytes + piece.length, id: findId(skipping.head, tail) };
  }
}

function parseLine(line: Buffer): LineEvent | null {
  const text = line.toString('utf8').replace(/\r$/, '');
  if (text.trim() === '') return null;
  try {
    return { kind: 'message', message: deserializeMessage(text) };
  } catch (error) {
    // Never quote the line: it may be anything the other side sent.
    return error instanceof SyntaxError
      ? { kind: 'invalid', reason: `a line of ${line.length} bytes that is not JSON` }
      : { kind: 'invalid', reason: 'a line that is not a JSON-RPC message' };
  }
}

function lastBytes(buffer: Buffer): Buffer {
  return buffer.length <= edgeBytes ? buffer : Buffer.from(buffer.subarray(buffer.length - edgeBytes));
}

const idPattern = /"id"\s*:\s*(?:(-?\d{1,15})|"((?:[^"\\]|\\.){0,100})")/;

/** The JSON-RPC id at the head (`{"jsonrpc":"2.0","id":3,…`) or the tail (`…,"id":3}`) of a line. */
function findId(head: Buffer, tail: Buffer): string | number | null {
  for (const edge of [head, tail]) {
    const text = edge.toString('utf8');
    const match = edge === tail ? lastMatch(text) : idPattern.exec(text);
    if (match) return match[1] !== undefined ? Number(match[1]) : JSON.parse(`"${match[2]}"`);
  }
  return null;
}

function lastMatch(text: string): RegExpExecArray | null {
  const all = [...text.matchAll(new RegExp(idPattern.source, 'g'))];
  return (all.at(-1) as RegExpExecArray | undefined) ?? null;
}
