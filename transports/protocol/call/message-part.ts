import type { ParsedMessage } from '../../../core/codec.ts';

/** One part of a parsed message (a call's `params`), as the read pass takes it. */
export interface MessagePart {
  readonly tree: unknown;
  /** The message it is part of: the rules it is read by, and its exact parse. */
  readonly message: ParsedMessage;
  /** Where it is in the message: `['params']`, `[2, 'params']` in a batch. */
  readonly at: readonly (string | number)[];
}

/** The same part from the message parsed with every integer exact, or `undefined` when the message has no such parse. */
export function exactPart(part: MessagePart): (() => unknown) | undefined {
  const { message, at } = part;
  if (message.exact === undefined) return undefined;
  return () => {
    let node = message.exact!();
    for (const key of at) node = (node as Record<string | number, unknown>)[key];
    return node;
  };
}

/** Whether `value`, a part of a parsed message, is an object of members (not an array, not bytes). */
export function isMessageObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array);
}
