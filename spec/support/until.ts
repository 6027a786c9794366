// Waiting for a condition a spec cannot subscribe to (a report made after the client read its answer).

/**
 * Resolves once `predicate` holds, looked at after each turn of the event loop's timers: no
 * deadline of its own, so a loaded machine cannot fail the wait; mocha's timeout bounds the test.
 */
export async function until(predicate: () => boolean): Promise<void> {
  while (!predicate()) await new Promise((resolve) => setTimeout(resolve, 5));
}
