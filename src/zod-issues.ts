import type { z } from 'zod';

export interface IssueFormat {
  /** How many issues to show. Default 5. */
  limit?: number;
  /** Names an issue at the top level (empty path); default: the message alone. */
  root?: string;
}

/**
 * One line for a zod error: `path.to.field: message` per issue, `; ` between. The one
 * formatter for zod messages a user or a model reads.
 */
export function formatZodIssues(error: z.ZodError, format: IssueFormat = {}): string {
  const { limit = 5, root = '' } = format;
  return error.issues
    .slice(0, limit)
    .map((issue) => {
      const where = issue.path.length > 0 ? issue.path.map(String).join('.') : root;
      return where === '' ? issue.message : `${where}: ${issue.message}`;
    })
    .join('; ');
}
