import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';

const repoRoot = join(import.meta.dirname, '..', '..');
const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
const pages = [
  'README.md',
  ...readdirSync(join(repoRoot, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

describe('the README front page', () => {
  it('keeps the quick start the install tests run, and stays short', () => {
    expect(readme).toContain('npm install && npx autohedge analyze ACME --demo');
    expect(readme).toContain('npm test ');
    expect(readme.split(/\s+/).length).toBeLessThan(2000);
  });

  it('promises no `npx autohedge` outside a clone', () => {
    expect(readme).not.toMatch(/npx -y autohedge|npm install -g autohedge(?!-)/);
  });

  it.each(pages)('every relative link in %s points to a file that exists', (page) => {
    const text = readFileSync(join(repoRoot, page), 'utf8');
    const targets = [...text.matchAll(/\]\(([^)\s]+)\)/g)]
      .map((match) => match[1]!)
      .filter((target) => !/^[a-z]+:/.test(target) && !target.startsWith('#'));
    for (const target of targets) {
      const file = target.split('#')[0]!;
      expect(existsSync(join(repoRoot, dirname(page), file)), `${page} links ${target}`).toBe(true);
    }
  });
});
