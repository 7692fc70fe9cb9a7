import { UsageError } from '../errors.js';
import type { ConstraintName } from './types.js';

/**
 * The limits cannot all be met (or the inputs cannot make a book): exit 2, naming the
 * constraint in conflict, so the user knows which option to change.
 */
export class PortfolioInfeasibleError extends UsageError {
  constructor(
    message: string,
    readonly constraint: ConstraintName | 'nav' | 'currency' | 'history',
  ) {
    super(message);
  }
}
