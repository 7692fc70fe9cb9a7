import type { Bar } from '../market/types.js';
import type { Decision, GuardrailFinding } from '../result/types.js';
import type { DeskBlock } from './desk-text.js';
import type { Source } from './sources.js';

/**
 * The report as data (`reportView(result)` in view.ts): every sentence, label and
 * formatted number of a report is decided there once; the terminal, markdown and
 * HTML renderers only lay it out and escape it for their medium.
 */

/** How a value reads: renderers map it to colour (terminal), emphasis or a CSS class. */
export type Tone = 'plain' | 'good' | 'bad' | 'warning' | 'muted';

export interface Fact {
  /** Stable name, for renderers that place a fact by hand and for tests. */
  key: string;
  label: string;
  value: string;
  /** A unit the tables print after the value (the quote currency); the compact terminal header leaves it out. */
  unit?: string;
  /** The label where space is short (the terminal's lines of facts): "P/E" for "P/E (trailing)". */
  short?: string;
  /** The fact as words in a line of facts, where "label value" reads badly: "limit order", "size 5.0% of portfolio". */
  inline?: string;
  /** A compact form of the value (the terminal): "FAILED", "86.62–184.48". */
  compact?: string;
  tone?: Tone;
  /** Shown as code (a run id, a hash). */
  code?: boolean;
  /** How full a bar drawn beside the fact is, 0–100, where a renderer draws one (conviction). */
  bar?: number;
}

export interface Column {
  key: string;
  label: string;
  numeric?: boolean;
  /** Prose whose long words (a run id) may break anywhere, so the table fits a phone. */
  wrap?: boolean;
}

export interface Table {
  key: string;
  /** A sub-heading above the table ("Levels"); none for the section's own table. */
  title?: string;
  columns: Column[];
  /** Display strings, one per column. */
  rows: string[][];
  /** What each row is, where a renderer must tell rows apart (usage: an agent's id, or "search"). */
  rowKeys?: string[];
  /** A last row set apart (totals). */
  total?: string[]; /** On a phone, each row a card of labelled cells instead of a row wider than the screen. */
  stack?: boolean;
}

/** One number of the prose checked against the data (src/claims fills these; see docs/reports.md). */
export interface ClaimMark {
  /** The number as the prose wrote it, e.g. "RSI 61". */
  text: string;
  verdict: 'verified' | 'unsourced' | 'contradicted';
  /** Where it was checked: "quote.price", a source URL. */
  source?: string;
  /** What the data says when it disagrees. */
  detail?: string;
}

/** How a renderer marks one checked figure in the prose (src/claims; docs/claims.md). */
export interface FigureMark {
  status: 'verified' | 'derived' | 'unsourced' | 'contradicted';
  /** The number of its note (`ReportView.notes`): a footnote in markdown, a link in HTML. */
  note: number;
  /** The note's text, also the HTML hover title: "verified: snapshot.indicators.rsi14 = 53.6314". */
  title: string;
  /** A contradicted figure's true value, written like the figure ("61.0"). */
  truth?: string;
}

/** Prose split at its checked figures: plain stretches and marked figures, in order. */
export type Marked = Array<{ text: string; mark?: FigureMark }>;

export interface FigureNote {
  number: number;
  status: FigureMark['status'];
  text: string;
}

export interface ToolCallLine {
  name: string;
  /** The arguments on one line, uncut: the terminal shortens them to its width. */
  arguments: string;
  /** The arguments cut to what a file report shows (200 characters). */
  excerpt: string;
  /** The call's duration, or "error: …". */
  outcome: string;
  failed: boolean;
}

export type Part =
  /** `row`: facts that read across, as one table row (the decision); otherwise label and value pairs. */
  | { kind: 'facts'; key: string; facts: Fact[]; layout?: 'row' }
  | { kind: 'table'; table: Table }
  /** `marked`: the text with its checked figures, where the claims cover it. */
  | { kind: 'text'; key: string; text: string; label?: string; tone?: Tone; marked?: Marked }
  | { kind: 'list'; key: string; items: ListItem[]; label?: string; title?: string; tone?: Tone }
  | { kind: 'findings'; findings: GuardrailFinding[] }
  /**
   * `marked`, parallel to `blocks`: a heading's text, each line or list item, as Marked
   * (null for a code block, whose figures are shown as written).
   */
  | { kind: 'desk-text'; raw: string; blocks: DeskBlock[]; marked?: Array<Marked[] | null> }
  | { kind: 'tool-calls'; calls: ToolCallLine[] }
  | { kind: 'sources'; sources: Array<Source & { note: string | null }> }
  | {
      kind: 'chart';
      bars: Bar[];
      /** The run's as-of instant: the chart marks its day. */
      asOf: string;
      levels: Decision | null;
      title: string;
      currency?: string;
      caption: string;
    };

export interface ListItem {
  text: string;
  /** A bold lead ("Quant:"), when the item belongs to someone. */
  label?: string;
  /** The text with its checked figures, where the claims cover it. */
  marked?: Marked;
}

export type SectionId =
  | 'market'
  | 'decision'
  | 'plan'
  | 'guardrails'
  | 'review'
  | 'desks'
  | 'desk'
  | 'sources'
  | 'usage'
  | 'warnings'
  | 'status'
  | (string & {});

export interface Section {
  id: SectionId;
  /** Tells apart sections of one id (the desk's agent id for `desk` and `sources`). */
  key: string;
  title: string;
  /** Beside the title: a desk's status, model and time. */
  detail?: Fact[];
  parts: Part[];
  /** Each renderer prints these after the section's parts, marked by verdict. */
  claims?: ClaimMark[];
  subsections?: Section[];
  /** Extra attributes for the HTML (`data-agent`, a failed desk's class). */
  tone?: Tone;
}

export interface Notice {
  /** demo, historical, and whatever opens a report next (blind, flagged): one line each, at the top. */
  key: string;
  text: string;
  /** Where the full line would wrap (narrow terminals). */
  short?: string;
  tone: Tone;
}

export interface ReportView {
  /** "Acme Robotics Corp (ACME): BUY, conviction 72/100". */
  title: string;
  /** "Acme Robotics Corp (ACME)". */
  subject: string;
  notices: Notice[];
  /** The run in one line: id, as of, status, mode, wall time. */
  meta: Fact[];
  sections: Section[];
  /** The notes the checked figures point to, numbered in reading order (empty for a run saved before claims). */
  notes: FigureNote[];
  disclaimer: string;
}
