export { appendRunToLedger, type LedgerAppendInput } from './entry.js';
export { appendToLedger, type AppendOutcome } from './append.js';
export {
  verifyLedgerFile,
  verifyHomeLedger,
  checkRuns,
  readLedgerFile,
  type VerifyReport,
  type VerifyRequest,
} from './check.js';
export { verifyChain, type BadReason, type BadRecord, type VerifyKey } from './verify.js';
export { ledgerPaths, type LedgerPaths } from './paths.js';
export { LedgerError } from './errors.js';
export {
  canonicalJson,
  genesisPrev,
  ledgerFormatVersion,
  ledgerRecordSchema,
  recordHash,
  sha256Hex,
  type LedgerRecord,
} from './record.js';
