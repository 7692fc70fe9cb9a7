import { readdirSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';

export const repoRoot = resolve(import.meta.dirname, '..', '..');

/** The TypeScript sources below a folder of the repository, as repo-relative paths with forward slashes. */
export function sourceFiles(folder: string): string[] {
  return readdirSync(join(repoRoot, folder), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.(ts|mts)$/.test(entry.name) && !entry.name.endsWith('.d.ts'))
    .map((entry) => relative(repoRoot, join(entry.parentPath, entry.name)).split(sep).join('/'));
}
