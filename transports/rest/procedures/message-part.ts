/** One part of a parsed message (a call's `params`), as the read pass takes it. */
export interface MessagePart {
  readonly tree: unknown;
  /** The rules it is read by: JSON's, or a binary format's. */
  readonly source: 'json' | 'binary';
  /** The same part parsed with every integer exact (JSON), when the message may have lost digits. */
  readonly exact?: () => unknown;
}
