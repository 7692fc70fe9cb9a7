import { onBasisOf, splitFactorBetween } from '../../fundamentals-basis.js';
import type { SplitEvent } from '../../fundamentals-types.js';
import { endOfFilingDay } from './acceptance.js';
import type { CompanyFacts, FactRow, Filing } from './documents.js';
import { seriesNames, seriesSpecs, type SeriesName, type SeriesSpec } from './concepts.js';

/**
 * The as-filed rule. A fact is known at day D's close if and only if the filing that
 * carried it was accepted at or before that close. For each (line item, unit, period
 * start, period end) the latest value known at D is the one shown; a later filing of the
 * same period that changed it is a restatement, marked with the first value. A period is
 * its dates: `fy`/`fp` describe the filing (a 10-K tags its comparatives with its own
 * year) and `frame` marks SEC's pick among vintages, so neither is read.
 */

/** One value as a filing reported it, on D's share basis. */
export interface KnownValue {
  start?: string;
  end: string;
  value: number;
  form: string;
  accession: string;
  /** ISO UTC. */
  acceptedAt: string;
  restated?: { firstValue: number; firstForm: string; firstAcceptedAt: string };
}

/** Each line item's values known at D, by period key (`start..end`, or `..end` for an instant). */
export type KnownSeries = Record<SeriesName, Map<string, KnownValue>>;

export function periodKey(start: string | undefined, end: string): string {
  return `${start ?? ''}..${end}`;
}

interface Reported extends KnownValue {
  /** The tag's place in the line item's preference order (0 is first). */
  preference: number;
}

export interface AsFiledContext {
  /** Accession number → filing, from submissions (all pages read). */
  filings: ReadonlyMap<string, Filing>;
  /** ISO UTC instant of D's close. */
  close: string;
  /** YYYY-MM-DD of D. */
  day: string;
  splits: readonly SplitEvent[];
}

/** When the filing carrying a row became public: its acceptance time, else the end of its filing day. */
function acceptanceOf(row: FactRow, context: AsFiledContext): string {
  return context.filings.get(row.accn)?.acceptedAt ?? endOfFilingDay(row.filed);
}

function reportedRows(facts: CompanyFacts, spec: SeriesSpec, context: AsFiledContext): Reported[] {
  const close = Date.parse(context.close);
  return spec.tags.flatMap((tag, preference) => {
    const rows = facts.facts[spec.taxonomy]?.[tag]?.units[spec.unit] ?? [];
    return rows.flatMap((row): Reported[] => {
      if (spec.period === 'duration' && row.start === undefined) return [];
      const acceptedAt = acceptanceOf(row, context);
      if (Date.parse(acceptedAt) > close) return [];
      const factor = splitFactorBetween(context.splits, acceptedAt, context.day);
      return [
        {
          ...(spec.period === 'duration' ? { start: row.start } : {}),
          end: row.end,
          value: onBasisOf(row.val, spec.kind, factor),
          form: row.form,
          accession: row.accn,
          acceptedAt,
          preference,
        },
      ];
    });
  });
}

/** Values equal but for rounding: per-share amounts to the cent (39.75 ÷ 7 = 5.679 is 5.68), others to a millionth. */
function sameValue(left: number, right: number, spec: SeriesSpec): boolean {
  const difference = Math.abs(left - right);
  if (spec.kind === 'per-share') return difference <= 0.006;
  return difference <= 1e-6 * Math.max(Math.abs(left), Math.abs(right));
}

/** Oldest filing first; within one filing, the preferred tag last (so it wins). */
function byAcceptance(left: Reported, right: Reported): number {
  const time = Date.parse(left.acceptedAt) - Date.parse(right.acceptedAt);
  return time !== 0 ? time : right.preference - left.preference;
}

function latestPerPeriod(rows: Reported[], spec: SeriesSpec): Map<string, KnownValue> {
  const groups = new Map<string, Reported[]>();
  for (const row of rows) {
    const key = periodKey(row.start, row.end);
    const group = groups.get(key);
    if (group) group.push(row);
    else groups.set(key, [row]);
  }
  const known = new Map<string, KnownValue>();
  for (const [key, group] of groups) {
    group.sort(byAcceptance);
    const first = group[0]!;
    const { preference: _preference, ...latest } = group[group.length - 1]!;
    const restated = !sameValue(first.value, latest.value, spec)
      ? { firstValue: first.value, firstForm: first.form, firstAcceptedAt: first.acceptedAt }
      : undefined;
    known.set(key, restated ? { ...latest, restated } : latest);
  }
  return known;
}

/** Every line item's latest values known at D's close, on D's share basis. */
export function knownSeries(facts: CompanyFacts, context: AsFiledContext): KnownSeries {
  const series = {} as KnownSeries;
  for (const name of seriesNames) {
    const spec = seriesSpecs[name];
    series[name] = latestPerPeriod(reportedRows(facts, spec, context), spec);
  }
  return series;
}
