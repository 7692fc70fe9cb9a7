import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { repoRoot, sourceFiles } from './source-files.js';

/**
 * The rooms of the house, lowest first (docs/architecture.md): a room may import only rooms
 * of a lower layer, never one beside or above it. A new room takes the layer below everything
 * that imports it; an import that needs a room to move is a design question, not a table edit.
 * `shared` is the loose files of src/ (errors, clock, sanitize, ...); `index` is src/index.ts,
 * the public barrel, which may import everything.
 */
const layers: readonly (readonly string[])[] = [
  ['shared'],
  ['agents', 'llm', 'market', 'record'],
  ['search'],
  ['tools'],
  ['agent'],
  ['result'],
  ['guardrails', 'claims', 'store', 'ledger'],
  ['pipeline'],
  ['universe'],
  // `portfolio --analyze` reaches the run service through its command shell, not from portfolio/.
  ['evaluate', 'portfolio'],
  ['report'],
  ['run'],
  // probe runs a named and a blind analysis side by side (it will build RunRequests through run/).
  // view reads the store, the ledger and saved evaluations, and renders through report/ (#42).
  ['watch', 'doctor', 'queue', 'mcp', 'probe', 'view'],
  ['cli', 'testing'],
  ['index'],
];

/** Single files allowed to import against the layers, each with its reason. */
const exceptions: Readonly<Record<string, string>> = {
  // The event types carry a model call's request, response and usage: types only.
  'src/events.ts -> src/llm/types.ts': 'RunEvent names the chat types',
};

const rankOf = new Map(layers.flatMap((rooms, rank) => rooms.map((room) => [room, rank] as const)));

function roomOf(path: string): string | undefined {
  const parts = path.split('/');
  if (parts[0] === 'agents') return 'agents';
  if (parts[0] !== 'src') return undefined;
  if (parts.length === 2) return parts[1] === 'index.ts' ? 'index' : 'shared';
  return parts[1];
}

interface Arrow {
  from: string;
  to: string;
  fromRoom: string;
  toRoom: string;
}

/** Every relative import (static, type-only, re-export or dynamic) that leaves its room. */
function arrows(): Arrow[] {
  const found: Arrow[] = [];
  for (const file of [...sourceFiles('src'), ...sourceFiles('agents')]) {
    const text = readFileSync(join(repoRoot, file), 'utf8');
    for (const imported of ts.preProcessFile(text, true, true).importedFiles) {
      if (!imported.fileName.startsWith('.')) continue;
      const target = relative(repoRoot, resolve(repoRoot, dirname(file), imported.fileName))
        .split(sep)
        .join('/')
        .replace(/\.js$/, '.ts');
      const fromRoom = roomOf(file);
      const toRoom = roomOf(target);
      if (fromRoom === undefined || toRoom === undefined || fromRoom === toRoom) continue;
      found.push({ from: file, to: target, fromRoom, toRoom });
    }
  }
  return found;
}

describe('import direction: no room imports a room above it', () => {
  const all = arrows();

  it('reads the imports it checks (the table is not vacuous)', () => {
    expect(all.length).toBeGreaterThan(100);
    expect(all).toContainEqual(expect.objectContaining({ fromRoom: 'pipeline', toRoom: 'guardrails' }));
  });

  it('knows every room of src/', () => {
    const rooms = new Set(all.flatMap((arrow) => [arrow.fromRoom, arrow.toRoom]));
    const unknown = [...rooms].filter((room) => !rankOf.has(room));
    expect(unknown, 'add the new room to the layers in tests/architecture/import-direction.test.ts').toEqual([]);
  });

  it('has every import point down', () => {
    const upward = all
      .filter((arrow) => !(`${arrow.from} -> ${arrow.to}` in exceptions))
      .filter((arrow) => (rankOf.get(arrow.toRoom) ?? Infinity) >= (rankOf.get(arrow.fromRoom) ?? -Infinity))
      .map((arrow) => `${arrow.from} (${arrow.fromRoom}) imports ${arrow.to} (${arrow.toRoom})`);
    expect(upward).toEqual([]);
  });

  it('keeps its exceptions real: each still names an import that exists', () => {
    const present = new Set(all.map((arrow) => `${arrow.from} -> ${arrow.to}`));
    expect(Object.keys(exceptions).filter((arrow) => !present.has(arrow))).toEqual([]);
  });
});
