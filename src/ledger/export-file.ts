import { z } from 'zod';
import type { LedgerLines } from './lines.js';
import type { AnchorItem } from './anchor/store.js';
import { canonicalJson } from './record.js';

/** The anchors an export carries, as items to check. */
export function exportedAnchors(header: ExportHeader | null): AnchorItem[] {
  return (header?.anchors ?? []).map((item) => ({
    seq: item.seq,
    tsa: item.tsa,
    bytes: Buffer.from(item.bytes, 'base64'),
    token: Buffer.from(item.token, 'base64'),
  }));
}

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
  /** RFC 3161 anchors: the bytes stamped and the TSA's reply, base64 (anchor/store.ts). */
  anchors: z
    .array(
      z.strictObject({
        seq: z.number().int().min(0),
        tsa: z.string().regex(/^[A-Za-z0-9.-]+$/),
        bytes: z.base64(),
        token: z.base64(),
      }),
    )
    .max(100_000)
    .optional(),
  /** The roots the exporter trusted, PEM: for the reader to judge, never trusted by themselves. */
  tsaRoots: z.array(z.string()).max(100).optional(),
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
  anchors: { items: readonly AnchorItem[]; roots: readonly string[] } = { items: [], roots: [] },
): string {
  const header: ExportHeader = {
    autohedgeLedgerExport: exportFormatVersion,
    exportedAt: exportedAt.toISOString(),
    records: lines.length,
    head,
    publicKey: key?.publicPem ?? null,
    keyId: key?.keyId ?? null,
    ...(anchors.items.length > 0
      ? {
          anchors: anchors.items.map((item) => ({
            seq: item.seq,
            tsa: item.tsa,
            bytes: Buffer.from(item.bytes).toString('base64'),
            token: Buffer.from(item.token).toString('base64'),
          })),
          tsaRoots: [...anchors.roots],
        }
      : {}),
  };
  return [canonicalJson(header), ...lines].map((line) => `${line}\n`).join('');
}
