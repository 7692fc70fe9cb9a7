import { createReadStream } from 'node:fs';

/**
 * ledger.jsonl as lines. Every record ends with a newline, written in one append; bytes
 * after the last newline are what a crash mid-append left — a torn line, not a record
 * (unless they are a whole record that only lost its newline: see completeTail).
 */

export interface LedgerLines {
  /** Complete lines, without their newline. */
  lines: string[];
  /** The bytes after the last newline, when there are any. */
  torn: string | null;
  /** Indexes of lines longer than any record, kept as '' (never read whole). */
  tooLong?: number[];
}

/** Longer than this, a line is not a ledger record (a record is a few kilobytes). */
export const maxLineBytes = 1024 * 1024;

export function splitLedger(text: string): LedgerLines {
  const end = text.lastIndexOf('\n');
  const complete = end === -1 ? '' : text.slice(0, end);
  const rest = text.slice(end + 1);
  return { lines: complete === '' && end === -1 ? [] : complete.split('\n'), torn: rest === '' ? null : rest };
}

/** Collects lines from chunks, holding at most `maxLineBytes` of any one line. */
class LineCollector {
  readonly lines: string[] = [];
  readonly tooLong: number[] = [];
  private parts: Buffer[] = [];
  private length = 0;
  private overflow = false;

  push(chunk: Buffer): void {
    let start = 0;
    for (let end = chunk.indexOf(0x0a); end !== -1; end = chunk.indexOf(0x0a, start)) {
      this.take(chunk.subarray(start, end));
      this.finish();
      start = end + 1;
    }
    this.take(chunk.subarray(start));
  }

  private take(bytes: Buffer): void {
    if (this.overflow || bytes.length === 0) return;
    if (this.length + bytes.length > maxLineBytes) {
      this.overflow = true;
      this.parts = [];
      return;
    }
    this.parts.push(bytes);
    this.length += bytes.length;
  }

  private finish(): void {
    if (this.overflow) this.tooLong.push(this.lines.length);
    this.lines.push(this.overflow ? '' : Buffer.concat(this.parts).toString('utf8'));
    this.parts = [];
    this.length = 0;
    this.overflow = false;
  }

  /** What follows the last newline (null: nothing). */
  rest(): string | null {
    if (this.overflow) return '\u0000(a torn line too long to be a record)';
    return this.length === 0 ? null : Buffer.concat(this.parts).toString('utf8');
  }
}

/** A ledger file read as a stream, so a junk line of any size costs at most `maxLineBytes`. */
export async function readLedgerLines(file: string): Promise<LedgerLines> {
  const collector = new LineCollector();
  for await (const chunk of createReadStream(file)) collector.push(chunk as Buffer);
  return {
    lines: collector.lines,
    torn: collector.rest(),
    ...(collector.tooLong.length ? { tooLong: collector.tooLong } : {}),
  };
}
