import type { z } from 'zod';

export interface IssueFormat {
  /** How many issues to show. Default 5. */
  limit?: number;
  /** Names an issue at the top level (empty path); default: the message alone. */
  root?: string;
}

/**
 * One line for a zod error: `items[0].name: message` per issue, `; ` between. The one
 * formatter for zod messages a user or a model reads.
 */
export function formatZodIssues(error: z.ZodError, format: IssueFormat = {}): string {
  const { limit = 5, root = '' } = format;
  return error.issues
    .slice(0, limit)
    .map((issue) => {
      const where = issue.path.length > 0 ? formatPath(issue.path) : root;
      return where === '' ? issue.message : `${where}: ${issue.message}`;
    })
    .join('; ');
}

/** `items[0].name`: readable by a model and by a person. */
function formatPath(path: readonly PropertyKey[]): string {
  let text = '';
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else text += text === '' ? String(segment) : `.${String(segment)}`;
  }
  return text;
}
