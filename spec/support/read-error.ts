import { ReadError } from '../../index.ts';

/** Runs `read` and returns the ReadError it throws; fails the test when it throws nothing (or something else). */
export function readErrorOf(read: () => unknown): ReadError {
  try {
    read();
  } catch (e) {
    if (e instanceof ReadError) return e;
    throw e;
  }
  throw new Error('expected a ReadError, but reading succeeded');
}
