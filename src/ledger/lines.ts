/**
 * ledger.jsonl as lines. Every record ends with a newline, written in one append; bytes
 * after the last newline are what a crash mid-append left — a torn line, not a record.
 */

export interface LedgerLines {
  /** Complete lines, without their newline. */
  lines: string[];
  /** The bytes after the last newline, when there are any. */
  torn: string | null;
}

export function splitLedger(text: string): LedgerLines {
  const end = text.lastIndexOf('\n');
  const complete = end === -1 ? '' : text.slice(0, end);
  const rest = text.slice(end + 1);
  return { lines: complete === '' && end === -1 ? [] : complete.split('\n'), torn: rest === '' ? null : rest };
}
