// What a unit under test threw, as the service's clients see it: the identifier, the field and
// the message. Loads only the error vocabulary (no app, no database), for test/unit.
import { ServiceError } from '../../src/core/errors';

export interface Thrown {
  code: string;
  field: string | undefined;
  message: string;
}

/** The ServiceError fn throws; fails the test when it throws nothing or something else. */
export function serviceErrorOf(fn: () => unknown): Thrown {
  try {
    fn();
  } catch (err) {
    if (err instanceof ServiceError) return { code: err.code, field: err.field, message: err.message };
    throw err;
  }
  throw new Error('expected a ServiceError, nothing was thrown');
}
