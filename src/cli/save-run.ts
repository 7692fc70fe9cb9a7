import { errorMessage } from '../errors.js';
import type { AnalysisResult } from '../result/types.js';
import type { RunFiles } from '../store/run-store.js';

/**
 * Until the run service (src/run/, runAndSave) lands, the one save path the shells share:
 * save the run, then append its decision to the ledger (#26). A ledger failure does not
 * unsave the run: it is said, as a warning, and the run stays saved.
 */
export async function saveRunAndRecord(
  home: string,
  result: AnalysisResult,
  files: RunFiles,
  context: { secrets: readonly string[]; warn: (message: string) => void },
): Promise<{ dir: string }> {
  const { saveRun } = await import('../store/index.js');
  const { dir, resultJson } = await saveRun(home, result, files);
  try {
    const { appendRunToLedger } = await import('../ledger/entry.js');
    await appendRunToLedger({ home, result, resultJson, secrets: context.secrets });
  } catch (error) {
    context.warn(`run ${result.runId} was saved but not recorded in the ledger: ${errorMessage(error)}`);
  }
  return { dir };
}
