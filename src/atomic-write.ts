import { randomUUID } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

export interface AtomicWriteOptions {
  /** Create missing parent folders first. */
  createParents?: boolean;
  /** Permission bits of a newly created file (before the umask). */
  mode?: number;
}

/**
 * Write beside the target, then rename over it: a reader (a concurrent run, `autohedge
 * runs`, a replay) sees the old file or the whole new one, never half of it. The temp
 * name carries the pid and a random part, so concurrent writers never share one; on
 * failure it is removed and the error rethrown as is.
 */
export async function writeFileAtomic(path: string, content: string, options: AtomicWriteOptions = {}): Promise<void> {
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.${randomUUID().slice(0, 8)}.tmp`);
  try {
    if (options.createParents) await mkdir(dirname(path), { recursive: true });
    await writeFile(
      temporary,
      content,
      options.mode === undefined ? { encoding: 'utf8' } : { encoding: 'utf8', mode: options.mode },
    );
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true }).catch(() => {});
    throw error;
  }
}
