import type { z } from 'zod';

export interface IssueFormat {
  /** How many issues to show. Default 5. */
  limit?: number;
  /** Names an issue at the top level (empty path); default: the message alone. */
  root?: string;
  /**
   * Between the field and its message: `: ` by default; ` ` where the messages are written
   * to follow their field as a sentence ("quantity must not be negative").
   */
  separator?: string;
  /** Name each issue's field (default); false where every message names its own, as the CLI's name their flag. */
  paths?: boolean;
  /** The value that was parsed: each issue then says what was sent at its place, `(sent -99)`. */
  input?: unknown;
}

/**
 * One line for a zod error: `items[0].name: message` per issue, `; ` between. The one
 * formatter for zod messages a user reads (the CLI, configuration and price files, holdings,
 * the guardrails, saved files) or a tool-calling model reads.
 */
export function formatZodIssues(error: z.ZodError, format: IssueFormat = {}): string {
  return error.issues
    .slice(0, format.limit ?? 5)
    .map((issue) => formatZodIssue(issue, format))
    .join('; ');
}

/** One issue as formatZodIssues writes it. */
export function formatZodIssue(issue: z.core.$ZodIssue, format: Omit<IssueFormat, 'limit'> = {}): string {
  const { root = '', separator = ': ', paths = true } = format;
  const where = !paths ? '' : issue.path.length > 0 ? formatIssuePath(issue.path) : root;
  const sent = 'input' in format ? ` ${sentText(valueAt(format.input, issue.path))}` : '';
  return `${where === '' ? '' : `${where}${separator}`}${messageOf(issue)}${sent}`;
}

/** `items[0].name`: readable by a model and by a person. */
export function formatIssuePath(path: readonly PropertyKey[]): string {
  let text = '';
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else text += text === '' ? String(segment) : `.${String(segment)}`;
  }
  return text;
}

/** A record's bad key is reported as "invalid key" with the reason one level down: the reason is what helps. */
function messageOf(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_key' || issue.code === 'invalid_element')
    return issue.issues[0]?.message ?? issue.message;
  return issue.message;
}

/** What was at `path` in `root` (undefined where nothing was). */
export function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let value = root;
  for (const segment of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[segment];
  }
  return value;
}

/** Numbers as JavaScript writes them (NaN, Infinity, 1e+308 are the cases worth seeing), the rest as short JSON. */
function sentText(value: unknown): string {
  if (value === undefined) return '(left out)';
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return `(sent ${String(value)})`;
  const text = JSON.stringify(value) ?? String(value);
  return `(sent ${text.length > 40 ? `${text.slice(0, 39)}…` : text})`;
}
