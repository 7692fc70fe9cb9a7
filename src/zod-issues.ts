import type { z } from 'zod';

/**
 * One line for a zod error: `path: message` per issue, `; ` between, the first
 * `limit` issues. The one formatter for messages a user or a model reads.
 */
export function formatZodIssues(error: z.ZodError, limit = 5): string {
  return error.issues
    .slice(0, limit)
    .map((issue) => {
      const where = issue.path.map(String).join('.');
      return where === '' ? issue.message : `${where}: ${issue.message}`;
    })
    .join('; ');
}
