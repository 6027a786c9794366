import { WriteError } from '../../index.ts';

/** Runs `write` and returns the WriteError it throws; fails the test when it throws nothing (or something else). */
export function writeErrorOf(write: () => unknown): WriteError {
  try {
    write();
  } catch (e) {
    if (e instanceof WriteError) return e;
    throw e;
  }
  throw new Error('expected a WriteError, but writing succeeded');
}
