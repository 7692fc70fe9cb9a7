import type { Claim, ClaimCounts } from '../result/claims.js';
import type { AnalysisResult } from '../result/types.js';
import { agentTitle } from './format.js';
import type { ClaimMark, FigureNote, Marked, Section } from './view-types.js';

/**
 * The claims of a run (docs/claims.md) as the renderers show them: each figure of a text found
 * again in the text as rendered, with a numbered note saying where it came from. One note per
 * distinct explanation, numbered in reading order.
 */

/** A stretch of rendered text: plain, or one checked figure with its note's number. */
export interface ClaimPiece {
  text: string;
  claim?: Claim;
  note?: number;
}

/** A source value for a note: at most 4 decimals (RSI 53.6314, not 53.631406310933600). */
const round = (value: number | string | undefined) =>
  typeof value === 'number' ? String(Number(value.toFixed(4))) : (value ?? '');

/** The source value, in percent where the figure is a percentage (fractions are held in percent). */
const valueText = (claim: Claim) => `${round(claim.sourceValue)}${claim.unit === 'percent' ? ' %' : ''}`;

/** What the note of a figure says: its status and its source, or the true value. */
export function claimNoteText(claim: Claim): string {
  switch (claim.status) {
    case 'verified':
      return `verified: ${claim.source} = ${valueText(claim)}`;
    case 'derived':
      return `derived: ${claim.source} = ${valueText(claim)}`;
    case 'contradicted':
      return `contradicted: the data has ${claim.sourceText ?? valueText(claim)} (${claim.source} = ${valueText(claim)})`;
    case 'unsourced':
      return claim.via
        ? `unsourced: no value of the run matches (also stated in ${claim.via})`
        : 'unsourced: no value of the run matches';
  }
}

/** Where a figure stands in a rendered text: not inside a longer number (9 % in 2.09 %). */
function findFigure(text: string, figure: string, from: number): number {
  for (let at = text.indexOf(figure, from); at >= 0; at = text.indexOf(figure, at + 1)) {
    const before = text[at - 1] ?? '';
    const after = text.slice(at + figure.length, at + figure.length + 2);
    if (!/[\d.,]/.test(before) && !/^\d|^[.,]\d/.test(after)) return at;
  }
  return -1;
}

/** The notes of one rendering, and the figures of each text to mark. */
export class ClaimMarks {
  private readonly pending = new Map<string, Claim[]>();
  private readonly numbers = new Map<string, FigureNote>();

  constructor(claims: readonly Claim[] | undefined) {
    for (const claim of claims ?? []) {
      const key = `${claim.agent}\u0000${claim.field}`;
      this.pending.set(key, [...(this.pending.get(key) ?? []), claim]);
    }
  }

  /**
   * One rendered piece of a text (a line, a list item, the rationale), split at its figures.
   * Figures are taken in their order; one not in this piece waits for the next.
   */
  pieces(agent: string, field: string, text: string): ClaimPiece[] {
    const key = `${agent}\u0000${field}`;
    const waiting = this.pending.get(key) ?? [];
    const pieces: ClaimPiece[] = [];
    const marked = new Set<Claim>();
    let cursor = 0;
    for (const claim of waiting) {
      const at = findFigure(text, claim.text, cursor);
      if (at < 0) continue;
      if (at > cursor) pieces.push({ text: text.slice(cursor, at) });
      pieces.push({ text: claim.text, claim, note: this.noteFor(claim).number });
      cursor = at + claim.text.length;
      marked.add(claim);
    }
    if (cursor < text.length || pieces.length === 0) pieces.push({ text: text.slice(cursor) });
    this.pending.set(
      key,
      waiting.filter((claim) => !marked.has(claim)),
    );
    return pieces;
  }

  /** One rendered piece of a text as the view carries it: its figures marked for every renderer. */
  marked(agent: string, field: string, text: string): Marked {
    return this.pieces(agent, field, text).map((piece) => {
      if (!piece.claim || piece.note === undefined) return { text: piece.text };
      const truth =
        piece.claim.status === 'contradicted' ? (piece.claim.sourceText ?? valueText(piece.claim)) : undefined;
      const title = claimNoteText(piece.claim);
      return {
        text: piece.text,
        mark: { status: piece.claim.status, note: piece.note, title, ...(truth ? { truth } : {}) },
      };
    });
  }

  private noteFor(claim: Claim): FigureNote {
    const text = claimNoteText(claim);
    const known = this.numbers.get(text);
    if (known) return known;
    const note: FigureNote = { number: this.numbers.size + 1, status: claim.status, text };
    this.numbers.set(text, note);
    return note;
  }

  /** The notes used so far, in number order. */
  notes(): FigureNote[] {
    return [...this.numbers.values()];
  }
}

const statusOrder: ReadonlyArray<keyof Omit<ClaimCounts, 'total' | 'verifiedShare'>> = [
  'verified',
  'derived',
  'unsourced',
  'contradicted',
];

/** "Quant: 14 figures — 12 verified, 1 derived, 1 unsourced" (statuses with none left out). */
export function agentClaimLine(agent: string, counts: ClaimCounts, dash = '—'): string {
  const parts = statusOrder.filter((status) => counts[status] > 0).map((status) => `${counts[status]} ${status}`);
  const figures = `${counts.total} figure${counts.total === 1 ? '' : 's'}`;
  return `${agentTitle(agent)}: ${figures}${parts.length > 0 ? ` ${dash} ${parts.join(', ')}` : ''}`;
}

/** One line per agent with figures, in the summary's order; none for a run saved before claims. */
export function claimSummaryLines(result: AnalysisResult, dash = '—'): string[] {
  const byAgent = result.claimsSummary?.byAgent ?? {};
  return Object.entries(byAgent)
    .filter(([, counts]) => counts.total > 0)
    .map(([agent, counts]) => agentClaimLine(agent, counts, dash));
}

/** The run's contradicted figures. */
export function contradictedClaims(result: AnalysisResult): Claim[] {
  return (result.claims ?? []).filter((claim) => claim.status === 'contradicted');
}

function whereLabel(claim: Claim): string {
  if (claim.field === 'report') return agentTitle(claim.agent);
  if (claim.field.startsWith('decision.keyRisks.'))
    return `Decision, key risk ${Number(claim.field.split('.')[2]) + 1}`;
  if (claim.field.startsWith('decision.')) return `Decision, ${claim.field.slice('decision.'.length)}`;
  if (claim.field.startsWith('plan.briefs.'))
    return `Plan, brief for ${agentTitle(claim.field.slice('plan.briefs.'.length))}`;
  return 'Plan, thesis';
}

/**
 * The Figures section: one line per agent, then every contradicted figure (as the view's
 * claims, which each renderer marks). Null for a run saved before claims.
 */
export function figuresSection(result: AnalysisResult, dash = '—'): Section | null {
  const summary = claimSummaryLines(result, dash);
  if (summary.length === 0) return null;
  const contradicted = contradictedClaims(result).map((claim): ClaimMark => ({
    text: `${whereLabel(claim)}: ${claim.quantity ? `${claim.quantity} ${claim.text}` : claim.text}`,
    verdict: 'contradicted',
    ...(claim.source ? { source: claim.source } : {}),
    detail: `the data has ${claim.sourceText ?? valueText(claim)}`,
  }));
  return {
    id: 'figures',
    key: 'figures',
    title: 'Figures',
    parts: [
      {
        kind: 'text',
        key: 'about',
        text: 'Every number in the prose, matched to the data: verified, derived, unsourced or contradicted (docs/claims.md).',
        tone: 'muted',
      },
      { kind: 'list', key: 'byAgent', items: summary.map((text) => ({ text })) },
    ],
    ...(contradicted.length > 0 ? { claims: contradicted } : {}),
  };
}
