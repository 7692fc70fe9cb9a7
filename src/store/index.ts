export { RunStoreError, type RunStoreProblem } from './errors.js';
export { parseSavedResult, savedResultSchema } from '../result/result-schema.js';
export {
  isValidRunId,
  listRuns,
  loadRun,
  readSavedRuns,
  runFileNames,
  runsDirectory,
  saveRun,
  writeRunFiles,
  type RunFiles,
  type RunSummary,
  type SavedRunEntry,
} from './run-store.js';
export { finishedTickers } from './finished-runs.js';
export { RunIndex } from './run-index.js';
