/**
 * Lookahead through the model itself: a model trained on text written after a run's
 * as-of day may remember what the stock did next. A historical run is labelled
 * `contaminated` when its day precedes the training cutoff of any model it used,
 * `unknown` when a model's cutoff is not in this table, and `clean` otherwise. A live
 * run is clean by construction: its model was trained before it ran.
 *
 * The cutoffs are the vendors' published knowledge cutoffs, as the last day of the
 * month they name (a model "trained to June 2024" may know all of June).
 */

import type { Contamination } from '../result/types.js';

export type { Contamination, ContaminationLabel, ModelCutoff } from '../result/types.js';

/** Model id (or id prefix, matched longest first) → knowledge cutoff. */
export const trainingCutoffs: Readonly<Record<string, string>> = {
  'gpt-3.5-turbo': '2021-09-30',
  'gpt-4': '2021-09-30',
  'gpt-4-turbo': '2023-12-31',
  'gpt-4o': '2023-10-31',
  'gpt-4o-mini': '2023-10-31',
  'gpt-4.1': '2024-06-30',
  'gpt-4.1-mini': '2024-06-30',
  'gpt-4.1-nano': '2024-06-30',
  'gpt-4.5-preview': '2023-10-31',
  'gpt-5': '2024-09-30',
  'gpt-5-mini': '2024-05-31',
  'gpt-5-nano': '2024-05-31',
  o1: '2023-10-31',
  'o1-mini': '2023-10-31',
  'o3-mini': '2023-10-31',
  o3: '2024-06-30',
  'o4-mini': '2024-06-30',
};

/** The cutoff of a model id: exact, else the longest table key it extends with a dash (gpt-4o-2024-08-06 → gpt-4o). */
export function cutoffFor(model: string, table: Readonly<Record<string, string>> = trainingCutoffs): string | null {
  const id = model
    .trim()
    .toLowerCase()
    .replace(/^openai\//, '');
  if (Object.hasOwn(table, id)) return table[id]!;
  const prefix = Object.keys(table)
    .filter((key) => id.startsWith(`${key}-`))
    .sort((left, right) => right.length - left.length)[0];
  return prefix === undefined ? null : table[prefix]!;
}

/** The label of a run as of `day` (YYYY-MM-DD) made with these models; `historical: false` is a live run. */
export function contaminationOf(day: string, models: readonly string[], historical: boolean): Contamination {
  const entries = [...new Set(models)].sort().map((model) => ({ model, cutoff: cutoffFor(model) }));
  if (!historical)
    return { label: 'clean', models: entries, reason: 'a live run: its models were trained before it ran' };
  const after = entries.filter((entry) => entry.cutoff !== null && day <= entry.cutoff);
  if (after.length > 0) {
    const named = after.map((entry) => `${entry.model} (trained to ${entry.cutoff})`).join(', ');
    return {
      label: 'contaminated',
      models: entries,
      reason: `as of ${day}, before the training cutoff of ${named}: the model may remember what happened next`,
    };
  }
  const unknown = entries.filter((entry) => entry.cutoff === null);
  if (unknown.length > 0) {
    return {
      label: 'unknown',
      models: entries,
      reason: `the training cutoff of ${unknown.map((entry) => entry.model).join(', ')} is unknown: it may have seen what happened after ${day}`,
    };
  }
  return { label: 'clean', models: entries, reason: `as of ${day}, after the training cutoff of every model used` };
}
