/** One line of `autohedge doctor`: what was checked and how it went. */
export type CheckStatus = 'ok' | 'warn' | 'fail' | 'skip';

export interface Check {
  /** A short stable id, e.g. `server`, `tool-calls`, for --json readers. */
  id: string;
  label: string;
  status: CheckStatus;
  /** One line for a person; never a key. */
  detail: string;
  /** A failure the user fixes in their configuration (key, base URL, model name): exit 2. */
  configuration?: boolean;
}

export interface DoctorReport {
  baseURL: string;
  model: string;
  checks: Check[];
  /** The limits each exchange ran under (longer for a loopback server). */
  limits?: string;
  /** True for `doctor --conformance`. */
  conformance?: boolean;
  /** 0 when everything analyze needs works, 2 for a configuration problem, 1 otherwise. */
  exitCode: 0 | 1 | 2;
}

export const check = (
  id: string,
  label: string,
  status: CheckStatus,
  detail: string,
  configuration = false,
): Check => ({
  id,
  label,
  status,
  detail,
  ...(configuration ? { configuration } : {}),
});
