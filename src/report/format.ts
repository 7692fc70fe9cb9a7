/**
 * Number, money, percent, time and text helpers shared by every renderer, so the
 * terminal view, report.md and `autohedge runs` print the same value the same way.
 * Missing numbers are null (or absent in an older saved run) and print as "n/a",
 * never as zero.
 */

import { agentName } from '../../agents/index.js';
import { scaleOf } from '../market/snapshot-format.js';

/** Shown above every demo run, in the terminal and in report.md. */
export const demoBanner = 'DEMO — synthetic data, scripted analyses; not investment advice';

/** The banner where the full one would wrap (narrow terminals). */
export const shortDemoBanner = 'DEMO — synthetic data; not advice';

export type Maybe<T> = T | null | undefined;

export const notAvailable = 'n/a';

const groupedFormats = new Map<number, Intl.NumberFormat>();

function grouped(digits: number): Intl.NumberFormat {
  let format = groupedFormats.get(digits);
  if (!format) {
    format = new Intl.NumberFormat('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
    groupedFormats.set(digits, format);
  }
  return format;
}

function isNumber(value: Maybe<number>): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/** 1234.5 → "1,234.50". */
export function formatNumber(value: Maybe<number>, digits = 2): string {
  return isNumber(value) ? grouped(digits).format(value) : notAvailable;
}

/** Whole tokens, grouped: 12345 → "12,345". */
export function formatTokens(value: Maybe<number>): string {
  return formatNumber(value, 0);
}

/** A price level; the currency is named once in the header, not on every number. */
export function formatPrice(value: Maybe<number>): string {
  return formatNumber(value, 2);
}

/** A signed change: +2.31 / -0.40. */
export function formatSigned(value: Maybe<number>, digits = 2): string {
  if (!isNumber(value)) return notAvailable;
  const sign = value > 0 ? '+' : value < 0 ? '-' : '';
  return `${sign}${grouped(digits).format(Math.abs(value))}`;
}

/** A fraction as a percent: 0.0128 → "1.3%" (or "+1.3%" when signed). */
export function formatFraction(value: Maybe<number>, options: { digits?: number; signed?: boolean } = {}): string {
  if (!isNumber(value)) return notAvailable;
  const percent = value * 100;
  const digits = options.digits ?? 1;
  return `${options.signed ? formatSigned(percent, digits) : formatNumber(percent, digits)}%`;
}

/** A value already in percent: 1.28 → "1.28%". */
export function formatPercent(value: Maybe<number>, options: { digits?: number; signed?: boolean } = {}): string {
  if (!isNumber(value)) return notAvailable;
  const digits = options.digits ?? 1;
  return `${options.signed ? formatSigned(value, digits) : formatNumber(value, digits)}%`;
}

/** Large amounts in short form: 4.45e12 → "4.45T". */
export function formatCompact(value: Maybe<number>): string {
  if (!isNumber(value)) return notAvailable;
  const scale = scaleOf(value);
  return scale ? `${formatNumber(value / scale.size, 2)}${scale.suffix}` : formatNumber(value, 0);
}

/**
 * US dollars of model spend. Small amounts keep four decimals because a cheap
 * run costs fractions of a cent; null is an unknown price and says so.
 */
export function formatCost(usd: Maybe<number>): string {
  if (!isNumber(usd)) return 'cost unknown';
  if (usd === 0) return '$0.00';
  if (Math.abs(usd) < 1) return `$${usd.toFixed(4)}`;
  return `$${grouped(2).format(usd)}`;
}

/** 850 → "850 ms", 12345 → "12.3 s", 125000 → "2m 05s". */
export function formatDuration(milliseconds: Maybe<number>): string {
  if (!isNumber(milliseconds)) return notAvailable;
  if (milliseconds < 1000) return `${Math.round(milliseconds)} ms`;
  const seconds = milliseconds / 1000;
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  const whole = Math.round(seconds);
  return `${Math.floor(whole / 60)}m ${String(whole % 60).padStart(2, '0')}s`;
}

/** An ISO instant as "YYYY-MM-DD HH:MM UTC", fixed to UTC so output never depends on the machine. */
export function formatWhen(iso: Maybe<string>): string {
  if (!iso) return notAvailable;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** "YYYY-MM-DD" of an ISO instant. */
export function formatDay(iso: Maybe<string>): string {
  if (!iso) return notAvailable;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toISOString().slice(0, 10);
}

/** Cut text to at most `max` characters with a marker saying how much was left out. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max);
  // Never split a surrogate pair.
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}… [+${text.length - end} chars]`;
}

/** Whitespace runs (newlines included) as single spaces: one readable line. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * Word-wrap text to `width` columns with `indent` before each line, keeping the
 * text's own line breaks. Words longer than a line (URLs) are left whole.
 */
export function wrap(text: string, width: number, indent = ''): string[] {
  const available = Math.max(20, width - indent.length);
  const lines: string[] = [];
  for (const paragraph of text.replace(/\r\n?/g, '\n').split('\n')) {
    const trimmed = paragraph.trimEnd();
    if (trimmed === '') {
      lines.push('');
      continue;
    }
    // Keep a line's own leading spaces (lists, quoted blocks) on its first row.
    const leading = /^\s*/.exec(trimmed)?.[0] ?? '';
    const words = trimmed.slice(leading.length).split(/\s+/);
    let line = leading;
    for (const word of words) {
      if (line.trim() === '') line = leading + word;
      else if (line.length + 1 + word.length <= available) line += ` ${word}`;
      else {
        lines.push(indent + line);
        line = leading + word;
      }
    }
    lines.push(indent + line);
  }
  // Drop blank lines at the ends; keep those between paragraphs.
  while (lines.length > 0 && lines[0]!.trim() === '') lines.shift();
  while (lines.length > 0 && lines[lines.length - 1]!.trim() === '') lines.pop();
  return lines.map((line) => (line.trim() === '' ? '' : line));
}

const ansiPattern = /\u001b\[[0-9;]*m/g;

/** Text without colour codes, for measuring what a terminal shows. */
export function visibleText(text: string): string {
  return text.replace(ansiPattern, '');
}

/** Pad to a visible width (text here never carries colour codes yet). */
export function padEnd(text: string, width: number): string {
  return text.length >= width ? text : text + ' '.repeat(width - text.length);
}

export function padStart(text: string, width: number): string {
  return text.length >= width ? text : ' '.repeat(width - text.length) + text;
}

/** Display name of an agent id. */
export function agentTitle(agent: string): string {
  // The roster's display name; an id it does not know (an older run, a custom agent) is capitalised.
  const name = agentName(agent);
  return name !== agent || agent.length === 0 ? name : agent[0]!.toUpperCase() + agent.slice(1);
}
