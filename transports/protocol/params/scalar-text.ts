// The text form of each scalar kind, for path segments and query values: the text a value of the
// kind has in JSON, without quotes. Reading turns the text into the value a binary parser would
// give (a number, a bigint, bytes, a timestamp) and hands it to the core's reader of the
// descriptor, which checks the kind's range and the descriptor's constraints; writing checks the
// value with the core's writer checks, then gives its text.
import { Failure, allowedText, quoteText } from '../../../core/errors/failure.ts';
import { BIGINT_RULES } from '../../../core/kinds/bigint.ts';
import { BYTES } from '../../../core/kinds/bytes.ts';
import { FLOAT_RULES } from '../../../core/kinds/float.ts';
import { INT_RULES } from '../../../core/kinds/integer.ts';
import { TIMESTAMP, WireTimestamp } from '../../../core/kinds/timestamp.ts';
import { compileReader } from '../../../core/read/compile-reader.ts';
import type { Reader, ReaderContext } from '../../../core/read/context.ts';
import { resolveReadOptions } from '../../../core/options.ts';
import { visit, type Visitor } from '../../../core/descriptors/visit.ts';
import type { Type } from '../../../core/descriptors/type.ts';
import type { EnumType, LiteralType } from '../../../core/descriptors/index.ts';
import { encodeBase64 } from '../../../core/util/base64.ts';
import { bigIntCheckerOf, floatCheckerOf, intCheckerOf, stringChecker } from '../../../core/write/check-descriptor.ts';
import {
  checkBool,
  checkBytes,
  checkTimestamp,
  oneOfChecker,
  timestampText,
} from '../../../core/write/check-scalars.ts';
import { formatF32, formatF64 } from '../../../codecs/json/format-f32.ts';

/** How one scalar descriptor reads from text and writes to text. */
export interface TextForm {
  /** The value of `text` (checked against the descriptor and its constraints), or a thrown `Failure`. */
  read(text: string): unknown;
  /** The text of a value that fits the descriptor, or a thrown `Failure` (as a writer's). */
  write(value: unknown): string;
}

/** The descriptor's text form, or why it has none (a sentence naming the kind). */
export function textFormOf(type: Type): TextForm | string {
  let form = forms.get(type);
  if (form === undefined) forms.set(type, (form = visit(type, textForms)));
  return form;
}

const forms = new WeakMap<Type, TextForm | string>();

/** The core's readers of scalars take the values binary parsers give: numbers, bigints, bytes, timestamps. */
const SCALARS: ReaderContext = { ...resolveReadOptions(undefined), source: 'binary' };

/** A text form whose text is parsed by `parse`, then read by the core's reader of `type`. */
function form(type: Type, parse: (text: string) => unknown, write: (value: unknown) => string): TextForm {
  const check: Reader = compileReader(type, SCALARS);
  return { read: (text) => check(parse(text)), write };
}

function notText(expected: string, text: string): Failure {
  return new Failure('type_mismatch', `expected ${expected}, got ${quoteText(text)}`);
}

/** An integer in canonical decimal: no sign but `-`, no leading zero, no `-0`, no spaces. */
const DECIMAL = /^(?:0|-?[1-9][0-9]*)$/;
/** Up to this many characters a decimal is a safe integer, and a `number` holds it exactly. */
const SAFE_DIGITS = 15;
/** Longer than this no 64-bit integer is (`-9223372036854775808` has 20 characters, `u64`'s maximum 20). */
const MAX_INTEGER_CHARS = 21;

/** Reads the canonical decimal text of an integer kind; the core's reader checks its range. */
function integerText(rule: {
  readonly expected: string;
  outOfRange(shown: string): string;
}): (text: string) => unknown {
  const expected = `${rule.expected} in decimal digits`;
  return (text) => {
    if (!DECIMAL.test(text)) throw notText(expected, text);
    if (text.length <= SAFE_DIGITS) return +text;
    // A long run of digits is out of range without building its bigint.
    if (text.length > MAX_INTEGER_CHARS)
      throw new Failure('out_of_range', rule.outOfRange(`${quoteText(text)} (${text.length} characters)`));
    return BigInt(text);
  };
}

/** A JSON number. */
const JSON_NUMBER = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;

/** The text of an enum's or a literal's value: a string as it is, a number, boolean or null as JSON writes it. */
function valueText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** An enum or a literal: each value read from its text; two values with one text have no text form. */
function oneOfForm(type: EnumType | LiteralType, values: readonly unknown[]): TextForm | string {
  const byText = new Map<string, unknown>();
  for (const value of values) {
    const text = valueText(value);
    if (byText.has(text)) {
      return `the values ${JSON.stringify(byText.get(text))} and ${JSON.stringify(value)} of ${type.kind === 'enum' ? 't.enum()' : 't.literal()'} have the same text`;
    }
    byText.set(text, value);
  }
  const expected = allowedText(values);
  const check = oneOfChecker(values);
  return form(
    type,
    (text) => {
      const value = byText.get(text);
      if (value === undefined && !byText.has(text)) throw notText(expected, text);
      return value;
    },
    (value) => valueText(check(value)),
  );
}

const none =
  (what: string, why = '') =>
  () =>
    `${what} has no text form${why}`;

/** The text form of each scalar form; containers, wrappers and `t.unknown()` have none. */
const textForms: Visitor<TextForm | string> = {
  string: (d) => form(d, (text) => text, stringChecker(d)),
  bool: (d) =>
    form(
      d,
      (text) => {
        if (text === 'true') return true;
        if (text === 'false') return false;
        throw notText('true or false', text);
      },
      (value) => (checkBool(value) ? 'true' : 'false'),
    ),
  int: (d) => {
    const check = intCheckerOf(d);
    return form(d, integerText(INT_RULES[d.kind]), (value) => String(check(value)));
  },
  bigint: (d) => {
    const check = bigIntCheckerOf(d);
    return form(d, integerText(BIGINT_RULES[d.kind]), (value) => String(check(value)));
  },
  float: (d) => {
    const check = floatCheckerOf(d);
    const expected = `${FLOAT_RULES[d.kind].expected} as a JSON number`;
    return form(
      d,
      (text) => {
        if (!JSON_NUMBER.test(text)) throw notText(expected, text);
        return +text;
      },
      d.kind === 'f32' ? (value) => formatF32(check(value)) : (value) => formatF64(check(value)),
    );
  },
  bytes: (d) =>
    form(
      d,
      (text) => {
        const bytes = BYTES.fromText(text);
        if (bytes === undefined) throw notText(BYTES.expectedText, text);
        return bytes;
      },
      (value) => encodeBase64(checkBytes(value)),
    ),
  timestamp: (d) =>
    form(
      d,
      (text) => {
        const ms = TIMESTAMP.fromText(text);
        if (ms === undefined) throw notText(TIMESTAMP.expectedText, text);
        return new WireTimestamp(ms, quoteText(text));
      },
      (value) => timestampText(checkTimestamp(value)),
    ),
  literal: (d) => oneOfForm(d, [d.value]),
  enum: (d) => oneOfForm(d, d.values),
  optional: none('an optional value (t.optional)'),
  nullable: none('a nullable value (t.nullable)', ': null could not be told from the text "null"'),
  unknown: none('t.unknown()'),
  void: none('t.void()'),
  array: none('an array (t.array)'),
  map: none('a map (t.map)'),
  tuple: none('a tuple (t.tuple)'),
  object: none('an object (t.object)'),
  variant: none('a variant (t.variant)'),
  lazy: none('t.lazy()'),
};
