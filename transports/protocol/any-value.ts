import { t } from '../../core/descriptors/index.ts';

/**
 * `t.unknown()`, made once: a codec compiles its readers and writers per descriptor, so a new one
 * made per message (a JSON-RPC envelope's `id`, a stream's problem frame) would be compiled anew.
 */
export const ANY_VALUE = t.unknown();
