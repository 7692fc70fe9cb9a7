import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../atomic-write.js';
import { isoDay } from '../clock.js';
import { errorCode, errorMessage } from '../errors.js';
import type { MarketSnapshot } from './types.js';

/**
 * Snapshots on disk, one file per symbol and as-of day:
 * `<cacheDir>/market/<symbol>/<YYYY-MM-DD>.json`. Vendors rate-limit heavy users, and
 * an analysis of yesterday does not need yesterday's numbers fetched again.
 *
 * Freshness: an entry written after its day ended is final and never expires (a past
 * session does not change). An entry written during its own day — the current day, or
 * a past day cached while it was still trading — is fresh for `ttlMs` after it was
 * written. The cache is an optimisation: an unreadable or corrupt file is a miss (and
 * is rewritten by the next fetch), an unwritable directory a warning.
 */

export const defaultCacheTtlMs = 15 * 60_000;

/** 2: snapshots record the vendor of each part (`vendors`) and prices are in major units. */
const cacheVersion = 2;

const nullableNumber = z.number().nullable();
const nullableText = z.string().nullable();

const barSchema = z.looseObject({
  date: z.string(),
  open: nullableNumber,
  high: nullableNumber,
  low: nullableNumber,
  close: nullableNumber,
  adjClose: nullableNumber,
  volume: nullableNumber,
});

const snapshotSchema = z.looseObject({
  symbol: z.string(),
  asOf: z.string(),
  identity: z.looseObject({
    symbol: z.string(),
    name: nullableText,
    exchange: nullableText,
    currency: nullableText,
    quoteType: nullableText,
    sector: nullableText,
    industry: nullableText,
  }),
  quote: z
    .looseObject({ price: nullableNumber, priceTime: nullableText, recommendation: nullableText })
    .catchall(z.union([z.number(), z.string(), z.null()])),
  bars: z.array(barSchema),
  indicators: z
    .looseObject({
      asOfBar: nullableText,
      lastClose: nullableNumber,
      returns: z.looseObject({
        d1: nullableNumber,
        w1: nullableNumber,
        m1: nullableNumber,
        m3: nullableNumber,
        m6: nullableNumber,
        y1: nullableNumber,
      }),
    })
    .catchall(z.union([nullableNumber, nullableText, z.record(z.string(), nullableNumber)])),
  text: z.string(),
  warnings: z.array(z.string()),
  source: z.string(),
});

const entrySchema = z.object({
  version: z.literal(cacheVersion),
  savedAt: z.iso.datetime(),
  snapshot: snapshotSchema,
});

export interface CacheLogger {
  debug(message: string): void;
  warn(message: string): void;
}

export interface SnapshotCacheOptions {
  /** `$AUTOHEDGE_HOME/cache`; entries go under its `market/` folder. */
  dir: string;
  ttlMs?: number;
  now?: () => Date;
  logger?: CacheLogger;
}

export interface SnapshotCache {
  /** The cached snapshot for this symbol and as-of day, when fresh; otherwise null. */
  read(symbol: string, asOf: Date, kind?: SnapshotKind): Promise<MarketSnapshot | null>;
  /** Store a snapshot; false (and a warning) when it could not be written. */
  write(snapshot: MarketSnapshot, asOf: Date, kind?: SnapshotKind): Promise<boolean>;
  /** Where the entry for this symbol and day lives. */
  pathFor(symbol: string, asOf: Date, kind?: SnapshotKind): string;
}

/** A live snapshot and a historical one of the same day differ (today's statistics), so they never share a file. */
export type SnapshotKind = 'live' | 'historical';

/** ENOENT, EACCES…: the code says it all; the message would repeat the path. */
function describeFsError(error: unknown): string {
  return errorCode(error) ?? errorMessage(error);
}

export function createSnapshotCache(options: SnapshotCacheOptions): SnapshotCache {
  const ttlMs = options.ttlMs ?? defaultCacheTtlMs;
  const now = options.now ?? (() => new Date());
  const logger = options.logger ?? { debug: () => {}, warn: () => {} };
  const root = path.join(options.dir, 'market');

  // encodeURIComponent keeps symbols like ^GSPC or EURUSD=X safe as folder names everywhere.
  const pathFor = (symbol: string, asOf: Date, kind: SnapshotKind = 'live') =>
    path.join(root, encodeURIComponent(symbol), `${isoDay(asOf)}${kind === 'historical' ? '.historical' : ''}.json`);

  return {
    pathFor,

    async read(symbol, asOf, kind) {
      const file = pathFor(symbol, asOf, kind);
      let content: string;
      try {
        content = await readFile(file, 'utf8');
      } catch (error) {
        if (errorCode(error) !== 'ENOENT')
          logger.debug(`market cache: cannot read ${file} (${describeFsError(error)})`);
        return null;
      }
      let entry: z.infer<typeof entrySchema>;
      try {
        entry = entrySchema.parse(JSON.parse(content));
      } catch {
        logger.debug(`market cache: ignoring corrupt entry ${file}`);
        return null;
      }
      const snapshot = entry.snapshot as unknown as MarketSnapshot;
      if (snapshot.symbol !== symbol) return null;
      const savedAt = new Date(entry.savedAt);
      const final = isoDay(savedAt) > isoDay(asOf);
      const recent = now().getTime() - savedAt.getTime() < ttlMs;
      if (!final && !recent) return null;
      return snapshot;
    },

    async write(snapshot, asOf, kind) {
      const file = pathFor(snapshot.symbol, asOf, kind);
      const entry = { version: cacheVersion, savedAt: now().toISOString(), snapshot };
      try {
        // Atomically, so a reader never sees half a file from a concurrent run.
        await writeFileAtomic(file, JSON.stringify(entry), { createParents: true });
        return true;
      } catch (error) {
        logger.warn(
          `could not write the market-data cache in ${root} (${describeFsError(error)}); continuing without it`,
        );
        return false;
      }
    },
  };
}

/** A cache in `dir`, or none when there is no directory (recording, replay, the doctor). */
export function optionalCache(
  options: Omit<SnapshotCacheOptions, 'dir'> & { dir: string | null | undefined },
): SnapshotCache | null {
  return options.dir ? createSnapshotCache({ ...options, dir: options.dir }) : null;
}
