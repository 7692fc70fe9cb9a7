/**
 * The cassette file: one JSON document holding the run's identity (asOf, version,
 * argv) and every HTTP exchange, already scrubbed. Reading validates with zod so a
 * hand-edited or foreign file fails with one line naming it, never a stack.
 */
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { writeFileAtomic } from '../atomic-write.js';
import { CassetteError, errorMessage } from '../errors.js';
import { maximumNesting, nestingBeyond } from '../json-depth.js';
import { formatZodIssues } from '../zod-issues.js';
import { mcpSectionSchema, type McpSection } from './mcp-section.js';

export const CASSETTE_FORMAT = 'autohedge-cassette';
/**
 * 2: requests in the cacheable prompt layout (src/agent/layout.ts). A version 1 cassette
 * still replays: its run is sent in the legacy layout it recorded.
 */
export const CASSETTE_VERSION = 2;
export const CASSETTE_VERSIONS = [1, 2] as const;
export type CassetteVersion = (typeof CASSETTE_VERSIONS)[number];

export type CassetteMeta = {
  format: typeof CASSETTE_FORMAT;
  version: CassetteVersion;
  autohedgeVersion: string;
  /** The run's clock; a replay sets its clock from this. */
  asOf: string;
  argv: string[];
  recordedAt: string;
  demo?: boolean;
  note?: string;
};

type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
const jsonValueSchema: z.ZodType<JsonValue> = z.lazy(() =>
  z.union([
    z.string(),
    z.number(),
    z.boolean(),
    z.null(),
    z.array(jsonValueSchema),
    z.record(z.string(), jsonValueSchema),
  ]),
);

const interactionSchema = z.object({
  method: z.string().min(1),
  url: z.url(),
  requestHeaders: z.record(z.string(), z.string()).default({}),
  /** Parsed JSON when the body was JSON, else the raw text; absent when there was no body. */
  requestBody: jsonValueSchema.optional(),
  // fetch never surfaces 1xx, and Response rejects anything outside 200..599.
  status: z.number().int().min(200).max(599),
  statusText: z.string().optional(),
  responseHeaders: z.record(z.string(), z.union([z.string(), z.array(z.string())])).default({}),
  /**
   * Recorded bodies are the exact text (SSE streams included). A hand-written
   * cassette may give a JSON value instead; replay serialises it.
   */
  responseBody: jsonValueSchema,
  /** Set only for bodies that are not valid UTF-8, which are stored as base64. */
  responseBodyEncoding: z.literal('base64').optional(),
});

export type Interaction = z.infer<typeof interactionSchema>;

const cassetteSchema = z.object({
  format: z.literal(CASSETTE_FORMAT),
  version: z.union(CASSETTE_VERSIONS.map((version) => z.literal(version))),
  autohedgeVersion: z.string(),
  asOf: z.iso.datetime({ offset: true }),
  argv: z.array(z.string()),
  recordedAt: z.iso.datetime({ offset: true }),
  demo: z.boolean().optional(),
  note: z.string().optional(),
  interactions: z.array(interactionSchema),
  mcp: mcpSectionSchema.optional(),
});

export type Cassette = CassetteMeta & { interactions: Interaction[]; mcp?: McpSection };

function cannotReplay(path: string, reason: string, cause?: unknown): CassetteError {
  return new CassetteError(`cannot replay '${path}': ${reason}`, { cause });
}

export async function readCassette(path: string): Promise<Cassette> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw cannotReplay(path, 'file not found', error);
    if (code === 'EISDIR') throw cannotReplay(path, 'is a directory, not a cassette file', error);
    throw cannotReplay(path, `unreadable (${code ?? errorMessage(error)})`, error);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw cannotReplay(path, 'not valid JSON (truncated or corrupt?)', error);
  }
  const depth = nestingBeyond(parsed, maximumNesting);
  if (depth)
    throw cannotReplay(
      path,
      `nested more than ${maximumNesting} levels deep (at ${depth}); not a recording autohedge made`,
    );
  const format = typeof parsed === 'object' && parsed !== null ? (parsed as { format?: unknown }).format : undefined;
  if (format !== CASSETTE_FORMAT) throw cannotReplay(path, 'not an autohedge cassette');
  const version = (parsed as { version?: unknown }).version;
  if (!(CASSETTE_VERSIONS as readonly unknown[]).includes(version)) {
    throw cannotReplay(
      path,
      `unsupported cassette version ${JSON.stringify(version)} (this autohedge reads versions ${CASSETTE_VERSIONS.join(' and ')})`,
    );
  }
  const result = cassetteSchema.safeParse(parsed);
  if (!result.success) {
    throw cannotReplay(
      path,
      `invalid cassette (${formatZodIssues(result.error, { limit: 1, root: 'top level' })})`,
      result.error,
    );
  }
  return result.data;
}

/** Why a write failed, in words first (the errno message names the temporary file). */
function writeFailure(error: unknown): string {
  const reasons: Record<string, string> = {
    ENOSPC: 'the disk is full',
    EDQUOT: 'the disk quota is exhausted',
    EROFS: 'the file system is read-only',
    EACCES: 'permission denied',
    EPERM: 'permission denied',
    ENOTDIR: 'a parent of that path is not a directory',
    EISDIR: 'that path is a directory',
  };
  const { code, syscall } = error as NodeJS.ErrnoException;
  // mkdir -p over a file where a folder should be.
  if (code === 'EEXIST' && syscall === 'mkdir') return `${reasons.ENOTDIR} (EEXIST)`;
  const reason = code ? reasons[code] : undefined;
  return reason ? `${reason} (${code})` : errorMessage(error);
}

/** Atomically, so a crash mid-write never leaves a truncated cassette behind. */
export async function writeCassette(path: string, cassette: Cassette): Promise<void> {
  const checked = cassetteSchema.parse(cassette);
  const text = `${JSON.stringify(checked, null, 2)}\n`;
  try {
    await writeFileAtomic(path, text, { createParents: true, mode: 0o644 });
  } catch (error) {
    throw new CassetteError(`cannot write cassette '${path}': ${writeFailure(error)}`, { cause: error });
  }
}
