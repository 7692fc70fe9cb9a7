import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { repoRoot, sourceFiles } from './source-files.js';

/**
 * No function in src/ is longer than a reader can hold at once (the team's style: about
 * 60-80 lines). A function over the limit is split by concern (fetch, normalise, note),
 * not by line count; its nested functions count towards it, as they are read with it.
 */
const maxLines = 80;

interface FunctionLength {
  where: string;
  name: string;
  lines: number;
}

function nameOf(node: ts.FunctionLikeDeclaration, source: ts.SourceFile): string {
  if (node.name) return node.name.getText(source);
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) {
    return parent.name.getText(source);
  }
  return '(anonymous)';
}

function functionLengths(path: string): FunctionLength[] {
  const source = ts.createSourceFile(path, readFileSync(join(repoRoot, path), 'utf8'), ts.ScriptTarget.Latest, true);
  const found: FunctionLength[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const where = `${path}:${first + 1}`;
      found.push({ where, name: nameOf(node as ts.FunctionLikeDeclaration, source), lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('function length', () => {
  const lengths = sourceFiles('src').flatMap(functionLengths);

  it('reads the functions of src/', () => {
    // A parser that found nothing would pass the check below for no reason.
    expect(lengths.length).toBeGreaterThan(500);
    expect(lengths.some((length) => length.name === 'reportView')).toBe(true);
  });

  it(`no function in src/ is over ${maxLines} lines`, () => {
    const long = lengths
      .filter((length) => length.lines > maxLines)
      .map((length) => `${length.where} ${length.name}: ${length.lines} lines`);
    expect(long).toEqual([]);
  });
});
