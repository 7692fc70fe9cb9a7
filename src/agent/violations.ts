import type { z } from 'zod';
import { formatIssuePath, valueAt } from '../zod-issues.js';

/** How many violations one re-ask names: enough to fix a reply, short enough to read. */
const shownViolations = 5;

/**
 * The exact violations of a structured answer, each with what the model sent:
 * "stopLoss must be > 0; you sent 0". A re-ask that only says "invalid" lets a
 * deterministic local model send the same answer again; naming the field, the rule
 * and the value gives it something to change. Nothing is repaired here: a money field
 * that breaks its rule is sent back, never adjusted.
 */
export function describeViolations(error: z.ZodError, sent: unknown): string {
  return error.issues
    .slice(0, shownViolations)
    .map((issue) => {
      const path = issue.path.length > 0 ? formatIssuePath(issue.path) : 'the reply';
      return `${path} ${ruleOf(issue)}; ${sentText(issue, valueAt(sent, issue.path))}`;
    })
    .join('. ');
}

function ruleOf(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'too_small':
      return lowerBound(issue.origin, Number(issue.minimum), issue.inclusive !== false);
    case 'too_big':
      return upperBound(issue.origin, Number(issue.maximum), issue.inclusive !== false);
    case 'invalid_type':
      return `must be ${article(issue.expected)}`;
    case 'invalid_value':
      return `must be one of ${issue.values.map((value) => JSON.stringify(value)).join(', ')}`;
    case 'unrecognized_keys':
      return `must not have the field${issue.keys.length === 1 ? '' : 's'} ${issue.keys.join(', ')}`;
    default:
      return `is not valid (${issue.message})`;
  }
}

function lowerBound(origin: string, minimum: number, inclusive: boolean): string {
  if (origin === 'string') return minimum <= 1 ? 'must not be empty' : `must have at least ${minimum} characters`;
  if (origin === 'array') return `must have at least ${minimum} item${minimum === 1 ? '' : 's'}`;
  return `must be ${inclusive ? '>=' : '>'} ${minimum}`;
}

function upperBound(origin: string, maximum: number, inclusive: boolean): string {
  if (origin === 'string') return `must have at most ${maximum} characters`;
  if (origin === 'array') return `must have at most ${maximum} items`;
  return `must be ${inclusive ? '<=' : '<'} ${maximum}`;
}

function article(expected: string): string {
  if (expected === 'nonoptional') return 'present';
  return /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`;
}

function sentText(issue: z.core.$ZodIssue, value: unknown): string {
  if (issue.code === 'unrecognized_keys') return 'you sent them';
  if (value === undefined) return 'you left it out';
  const text = JSON.stringify(value) ?? String(value);
  return `you sent ${text.length > 60 ? `${text.slice(0, 59)}…` : text}`;
}
