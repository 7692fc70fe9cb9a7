import type {
  FilingEntry,
  FundamentalFigure,
  FundamentalPeriod,
  Fundamentals,
  ValuationFigure,
} from './fundamentals-types.js';
import type { Bar } from './types.js';

/**
 * Fundamentals for a blind run: the figures kept, scaled into blind units like the prices
 * (every money amount and per-share figure ÷ the price scale, so P/E, margins and yields are
 * unchanged and market cap = shares × blind close still holds), share counts as they are.
 * Periods become relative (`Q-0` the latest quarter, `FY-1` the year before the latest);
 * acceptance times become session offsets; no CIK, accession number, filing date or
 * company name survives.
 */

export interface BlindFundamentalsContext {
  /** real ÷ blind. */
  scale: number;
  /** The snapshot's bars, oldest first, with their real days. */
  bars: readonly Bar[];
  /** Texts to hide in notes (the ticker, the company's name). */
  hidden: readonly string[];
  alias: string;
}

/** `D-12` for the session of an instant (the last bar on or before its day), `before D-251` before the first. */
function sessionOf(instant: string, bars: readonly Bar[]): string {
  const day = instant.slice(0, 10);
  let index = -1;
  for (let position = 0; position < bars.length; position += 1) if (bars[position]!.date <= day) index = position;
  return index < 0 ? `before D-${Math.max(bars.length - 1, 0)}` : `D-${bars.length - 1 - index}`;
}

const datePattern = /\d{4}-\d{2}-\d{2}/g;

function blindFigure(figure: FundamentalFigure, label: string, context: BlindFundamentalsContext): FundamentalFigure {
  const scaled = (value: number) => (figure.unit === 'shares' ? value : value / context.scale);
  return {
    concept: figure.concept,
    value: scaled(figure.value),
    unit: figure.unit,
    periodEnd: label,
    form: figure.form,
    acceptedAt: sessionOf(figure.acceptedAt, context.bars),
    ...(figure.restated
      ? {
          restated: {
            firstValue: scaled(figure.restated.firstValue),
            firstForm: figure.restated.firstForm,
            firstAcceptedAt: sessionOf(figure.restated.firstAcceptedAt, context.bars),
          },
        }
      : {}),
  };
}

function blindPeriod(period: FundamentalPeriod, index: number, context: BlindFundamentalsContext): FundamentalPeriod {
  const label = `${period.kind === 'year' ? 'FY' : 'Q'}-${index}`;
  return {
    ...period,
    periodStart: label,
    periodEnd: label,
    label: `${label} (${period.kind === 'year' ? 'fiscal year' : 'quarter'}, ${index} before the latest filed)`.replace(
      ', 0 before the latest filed',
      ', the latest filed',
    ),
    figures: period.figures.map((figure) => blindFigure(figure, label, context)),
  };
}

const blindInputs: Record<ValuationFigure['name'], string> = {
  marketCap: 'cover-page shares outstanding × the close',
  peTrailing: 'the close ÷ trailing-twelve-month diluted EPS',
  priceToSales: 'market cap ÷ trailing-twelve-month revenue',
  priceToBook: 'market cap ÷ equity',
  fcfYield: 'trailing-twelve-month free cash flow ÷ market cap',
};

function blindValuation(figure: ValuationFigure, scale: number): ValuationFigure {
  const value = figure.name === 'marketCap' && figure.value !== null ? figure.value / scale : figure.value;
  const note = figure.note?.replace(datePattern, 'a hidden date');
  return { name: figure.name, value, ...(note ? { note } : {}), inputs: blindInputs[figure.name] };
}

function blindFiling(entry: FilingEntry, bars: readonly Bar[]): FilingEntry {
  return {
    form: entry.form,
    acceptedAt: sessionOf(entry.acceptedAt, bars),
    ...(entry.items ? { items: entry.items } : {}),
  };
}

function blindNote(note: string, context: BlindFundamentalsContext): string {
  let text = note.replace(datePattern, 'D-0');
  for (const hidden of context.hidden) if (hidden) text = text.split(hidden).join(context.alias);
  return text;
}

export function blindFundamentals(fundamentals: Fundamentals, context: BlindFundamentalsContext): Fundamentals {
  return {
    vendor: fundamentals.vendor,
    vendorLabel: `${fundamentals.vendorLabel}, blinded`,
    currency: 'blind units',
    quarters: fundamentals.quarters.map((period, index) => blindPeriod(period, index, context)),
    years: fundamentals.years.map((period, index) => blindPeriod(period, index, context)),
    valuation: fundamentals.valuation.map((figure) => blindValuation(figure, context.scale)),
    filings: fundamentals.filings.map((entry) => blindFiling(entry, context.bars)),
    insiderFilings90d: fundamentals.insiderFilings90d,
    notes: fundamentals.notes.map((note) => blindNote(note, context)),
  };
}
