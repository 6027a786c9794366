// A regular expression for the decimal texts of the integers in a range: the `pattern` of a 64-bit
// integer JSON carries as a string (`t.u64({ json: 'string' })`).

/** The decimal text of an integer as JSON readers take it in a string: no sign but `-`, no leading zero. */
export const DECIMAL_INTEGER = /^-?(?:0|[1-9][0-9]*)$/;

/**
 * An anchored regular expression (ECMA-262, as JSON Schema's `pattern`) that matches exactly the
 * texts of {@link DECIMAL_INTEGER} whose value lies in `min..max`, `-0` included when 0 does. An
 * empty range gives a pattern that matches nothing.
 */
export function decimalRangePattern(min: bigint, max: bigint): string {
  if (min > max) return '^(?!)$';
  const alternatives: string[] = [];
  // "-k" stands for -k: it is in range for k in max(0, -max)..-min ("-0" too, when 0 is).
  if (min <= 0n) alternatives.push(`-${group(natural(max < 0n ? -max : 0n, -min))}`);
  if (max >= 0n) alternatives.push(natural(min > 0n ? min : 0n, max));
  return `^(?:${alternatives.join('|')})$`;
}

/** The texts (without sign or leading zeros) of the integers `a..b`, 0 <= a <= b. */
function natural(a: bigint, b: bigint): string {
  const parts: string[] = [];
  if (a === 0n) {
    parts.push('0');
    if (b === 0n) return '0';
    a = 1n;
  }
  // Lengths whose every number is in range are one alternative: [1-9][0-9]{p,q}.
  let fullFrom = 0;
  const flush = (to: number) => {
    if (fullFrom > 0) parts.push(`[1-9]${repeatDigits(fullFrom - 1, to - 1)}`);
    fullFrom = 0;
  };
  const lastLength = String(b).length;
  for (let length = String(a).length; length <= lastLength; length++) {
    const first = 10n ** BigInt(length - 1);
    const last = 10n ** BigInt(length) - 1n;
    const low = a > first ? a : first;
    const high = b < last ? b : last;
    if (low === first && high === last) {
      if (fullFrom === 0) fullFrom = length;
      continue;
    }
    flush(length - 1);
    parts.push(sameLength(String(low), String(high)));
  }
  flush(lastLength);
  return parts.join('|');
}

function repeatDigits(min: number, max: number): string {
  if (max === 0) return '';
  if (min === max) return max === 1 ? '[0-9]' : `[0-9]{${max}}`;
  return `[0-9]{${min},${max}}`;
}

/** The digit strings from `x` to `y`, both of one length, `x <= y`. */
function sameLength(x: string, y: string): string {
  if (x === y) return x;
  const n = x.length;
  if (n === 1) return digits(+x, +y);
  if (x[0] === y[0]) return x[0] + group(sameLength(x.slice(1), y.slice(1)));
  const lowRest = x.slice(1);
  const highRest = y.slice(1);
  const lowFull = /^0*$/.test(lowRest);
  const highFull = /^9*$/.test(highRest);
  const parts: string[] = [];
  let from = +x[0]!;
  let to = +y[0]!;
  if (!lowFull) {
    parts.push(x[0] + group(sameLength(lowRest, '9'.repeat(n - 1))));
    from++;
  }
  if (!highFull) to--;
  if (from <= to) parts.push(digits(from, to) + anyDigits(n - 1));
  if (!highFull) parts.push(y[0] + group(sameLength('0'.repeat(n - 1), highRest)));
  return parts.join('|');
}

function digits(from: number, to: number): string {
  return from === to ? String(from) : `[${from}-${to}]`;
}

function anyDigits(n: number): string {
  return n === 0 ? '' : n === 1 ? '[0-9]' : `[0-9]{${n}}`;
}

function group(s: string): string {
  return s.includes('|') ? `(?:${s})` : s;
}
