import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../support/yahoo.js';

/**
 * yahoo-finance2 is imported in exactly one module, lazily, so start-up never loads it;
 * the vendor's facts, name included, live in its source folder (src/market/sources/yahoo/).
 */

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

describe('yahoo-finance2 boundary', () => {
  const files = sourceFiles(path.join(repoRoot, 'src'));

  it('only src/market/sources/yahoo/client.ts mentions the package, and only through import()', () => {
    const importers = files.filter((file) => /['"]yahoo-finance2(\/[^'"]*)?['"]/.test(readFileSync(file, 'utf8')));
    expect(importers.map((file) => path.relative(repoRoot, file))).toEqual(['src/market/sources/yahoo/client.ts']);
    const source = readFileSync(path.join(repoRoot, 'src', 'market', 'sources', 'yahoo', 'client.ts'), 'utf8');
    expect(source).not.toMatch(/^\s*import\s[^(]*['"]yahoo-finance2/m);
    expect(source).toMatch(/await Promise\.all\(\[\s*import\('yahoo-finance2'\)/);
  });

  it('the word "Yahoo" appears in src/ only in the Yahoo source folder', () => {
    const folder = path.join('src', 'market', 'sources', 'yahoo') + path.sep;
    const outside = files
      .map((file) => path.relative(repoRoot, file))
      .filter((file) => !file.startsWith(folder))
      .filter((file) => /Yahoo/.test(readFileSync(path.join(repoRoot, file), 'utf8')));
    expect(outside).toEqual([]);
  });
});
