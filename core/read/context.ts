import type { ResolvedReadOptions } from '../options.ts';

/** How the codec hands over binary data: base64 text (JSON) or `Uint8Array` (binary formats, plain values). */
export type BytesForm = 'base64' | 'binary';

/** Everything a compiled reader depends on besides its descriptor. */
export interface ReaderContext extends ResolvedReadOptions {
  readonly bytes: BytesForm;
}

/** A compiled reader: checks one input value against its descriptor and returns the clean value. */
export type Reader = (input: unknown) => unknown;
