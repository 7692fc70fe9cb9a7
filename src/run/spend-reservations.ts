/**
 * Spend reserved in the home by runs in flight, so that processes sharing one home see each
 * other's admissions: three `watch --budget-usd 0.5` started together once spent $1.41, each
 * counting only the runs already saved. An admission takes the home's lock, reads what other
 * processes have reserved (and, inside the same lock, what is saved), admits within the budget
 * and writes its own reservations — the worst case of each admitted run — before the lock is
 * let go. A run's reservation is released after the run is saved, so at every moment a run's
 * spend is visible either as saved or as reserved. A reservation of a process that is gone
 * (or one older than a day) no longer counts.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../atomic-write.js';
import { ConfigError, errorMessage } from '../errors.js';

const reservationSchema = z.object({
  id: z.string(),
  pid: z.number().int(),
  usd: z.number().nonnegative().finite(),
  at: z.string(),
});
const fileSchema = z.object({ reservations: z.array(reservationSchema) });

export type Reservation = z.infer<typeof reservationSchema>;

const staleAfterMs = 24 * 3_600_000;

export interface SpendReservations {
  /**
   * Under the home's lock: `decide(reservedUsd)` is told what runs of other processes have
   * reserved and returns what it admits with the USD to reserve for each; those are written
   * before the lock is released. Returns the decision and the ids to release later.
   */
  admit<Decision>(
    decide: (reservedUsd: number) => Promise<{ decision: Decision; reserveUsd: number[] }>,
  ): Promise<{ decision: Decision; ids: string[] }>;
  /** Releases these reservations (their runs are saved, or never ran). */
  release(ids: readonly string[]): Promise<void>;
}

export function homeSpendReservations(home: string, now: () => Date = () => new Date()): SpendReservations {
  const file = join(home, 'spend-reservations.json');
  const locked = async <T>(work: (current: Reservation[]) => Promise<{ next: Reservation[]; value: T }>) => {
    await mkdir(home, { recursive: true });
    const { lock } = await import('proper-lockfile');
    const release = await lock(home, {
      lockfilePath: join(home, 'spend-reservations.lock'),
      stale: 30_000,
      realpath: false,
      retries: { retries: 600, factor: 1.2, minTimeout: 10, maxTimeout: 200, randomize: true },
    });
    try {
      const current = live(await readReservations(file), now());
      const { next, value } = await work(current);
      await writeFileAtomic(file, `${JSON.stringify({ reservations: next }, null, 2)}\n`);
      return value;
    } finally {
      await release().catch(() => undefined);
    }
  };
  return {
    admit: (decide) =>
      locked(async (current) => {
        const reservedUsd = current.reduce((sum, reservation) => sum + reservation.usd, 0);
        const { decision, reserveUsd } = await decide(reservedUsd);
        const at = now().toISOString();
        const added = reserveUsd.map((usd) => ({ id: randomUUID(), pid: process.pid, usd, at }));
        return { next: [...current, ...added], value: { decision, ids: added.map((entry) => entry.id) } };
      }),
    release: async (ids) => {
      if (ids.length === 0) return;
      const gone = new Set(ids);
      await locked(async (current) => ({ next: current.filter((entry) => !gone.has(entry.id)), value: undefined }));
    },
  };
}

/**
 * Holds `usd` in the home's reservations while `work` runs and saves its run: a shell with a
 * budget of its own (the MCP server) is seen by the watch processes that share its home.
 */
export async function whileReserved<T>(
  reservations: SpendReservations,
  usd: number,
  work: () => Promise<T>,
): Promise<T> {
  const { ids } = await reservations.admit(async () => ({ decision: null, reserveUsd: [usd] }));
  try {
    return await work();
  } finally {
    await reservations.release(ids);
  }
}

async function readReservations(file: string): Promise<Reservation[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return [];
  }
  try {
    return fileSchema.parse(JSON.parse(text)).reservations;
  } catch (error) {
    // A damaged file must not silently admit more than the budget allows.
    throw new ConfigError(
      `${file} cannot be read (${errorMessage(error)}): remove it when no watch or MCP server is running on this home`,
    );
  }
}

/** Reservations of processes still running, from the last day. */
function live(reservations: readonly Reservation[], at: Date): Reservation[] {
  return reservations.filter(
    (reservation) => at.getTime() - Date.parse(reservation.at) < staleAfterMs && processAlive(reservation.pid),
  );
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive, but another user's.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
