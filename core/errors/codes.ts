/** Why a value could not be read or written. */
export type ErrorCode =
  | 'syntax_error'
  | 'type_mismatch'
  | 'out_of_range'
  | 'invalid_format'
  | 'missing_key'
  | 'unknown_key'
  | 'limit_exceeded';
