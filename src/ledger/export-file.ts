import { z } from 'zod';
import type { LedgerLines } from './lines.js';
import { canonicalJson } from './record.js';

/**
 * An exported ledger: one header line — the format, when it was exported, how many
 * records, the head, the public key — then the records, byte for byte as in the ledger.
 * `ledger verify --ledger <file>` reads either form.
 */

export const exportFormatVersion = 1;

export const exportHeaderSchema = z.strictObject({
  autohedgeLedgerExport: z.literal(exportFormatVersion),
  exportedAt: z.iso.datetime(),
  records: z.number().int().min(0),
  head: z.string().nullable(),
  publicKey: z.string().nullable(),
  keyId: z.string().nullable(),
});

export type ExportHeader = z.infer<typeof exportHeaderSchema>;

export interface ParsedLedgerFile {
  header: ExportHeader | null;
  ledger: LedgerLines;
}

/** A ledger file or an export; a first line that claims to be a header but is not one is an error. */
export function parseLedgerLines(ledger: LedgerLines): ParsedLedgerFile | { problem: string } {
  const first = ledger.lines[0];
  if (first === undefined || !first.includes('"autohedgeLedgerExport"')) return { header: null, ledger };
  let raw: unknown;
  try {
    raw = JSON.parse(first);
  } catch {
    return { header: null, ledger };
  }
  if (typeof raw !== 'object' || raw === null || !('autohedgeLedgerExport' in raw)) return { header: null, ledger };
  const parsed = exportHeaderSchema.safeParse(raw);
  if (!parsed.success) return { problem: 'its first line is not an export header this version reads' };
  const tooLong = ledger.tooLong?.map((index) => index - 1);
  return {
    header: parsed.data,
    ledger: { lines: ledger.lines.slice(1), torn: ledger.torn, ...(tooLong ? { tooLong } : {}) },
  };
}

export function exportText(
  lines: readonly string[],
  key: { publicPem: string; keyId: string } | null,
  head: string | null,
  exportedAt: Date,
): string {
  const header: ExportHeader = {
    autohedgeLedgerExport: exportFormatVersion,
    exportedAt: exportedAt.toISOString(),
    records: lines.length,
    head,
    publicKey: key?.publicPem ?? null,
    keyId: key?.keyId ?? null,
  };
  return [canonicalJson(header), ...lines].map((line) => `${line}\n`).join('');
}
