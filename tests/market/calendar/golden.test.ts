import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { exchangeCalendar, type Session } from '../../../src/market/calendar/index.js';

/**
 * Every session from 2000 on that exchange_calendars recorded for NYSE, London, Xetra
 * and Tokyo (its own test resources, in ../shared): the days, the opens, the closes
 * (early closes included) and the lunch breaks, compared row by row with ours.
 */

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const goldenDir = path.resolve(repoRoot, '..', 'shared', 'fixtures', 'recorded', 'calendars', 'exchange_calendars');
const hasGolden = existsSync(goldenDir);

interface GoldenRow {
  date: string;
  open: string;
  close: string;
  breakStart: string;
  breakEnd: string;
}

function readGolden(file: string): GoldenRow[] {
  const lines = readFileSync(path.join(goldenDir, file), 'utf8').trim().split('\n').slice(1);
  return lines.map((line) => {
    const [date = '', open = '', close = '', breakStart = '', breakEnd = ''] = line.split(',');
    return { date: date.slice(0, 10), open, close, breakStart, breakEnd };
  });
}

/** exchange_calendars writes instants as 2000-01-03T14:30:00Z; ours carry milliseconds. */
function asGolden(session: Session): GoldenRow {
  const trim = (instant: string | undefined) => (instant === undefined ? '' : instant.replace('.000Z', 'Z'));
  return {
    date: session.date,
    open: trim(session.open),
    close: trim(session.close),
    breakStart: trim(session.breakStart),
    breakEnd: trim(session.breakEnd),
  };
}

describe.skipIf(!hasGolden)(`calendars against exchange_calendars' golden sessions (${goldenDir})`, () => {
  for (const mic of ['XNYS', 'XLON', 'XETR', 'XTKS']) {
    it(`${mic}: every session from 2000 to the end of the file, with its hours`, () => {
      const golden = readGolden(`${mic.toLowerCase()}.csv`).filter((row) => row.date >= '2000-01-01');
      const last = golden.at(-1)?.date ?? '2000-01-01';
      const ours = exchangeCalendar(mic).sessions('2000-01-01', last).map(asGolden);
      const goldenDays = new Set(golden.map((row) => row.date));
      const ourDays = new Set(ours.map((row) => row.date));
      expect({
        missing: [...goldenDays].filter((day) => !ourDays.has(day)),
        extra: [...ourDays].filter((day) => !goldenDays.has(day)),
      }).toEqual({ missing: [], extra: [] });
      expect(ours.filter((row, index) => JSON.stringify(row) !== JSON.stringify(golden[index]))).toEqual([]);
      expect(golden.length).toBeGreaterThan(5000);
    });
  }
});

if (!hasGolden) {
  describe('calendars against exchange_calendars golden sessions', () => {
    it.skip(`skipped: ${goldenDir} is absent (recorded fixtures live beside the repository)`, () => {});
  });
}
