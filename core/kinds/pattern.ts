/**
 * Refuses a `pattern` whose backtracking can take exponential time: a group holding an unbounded
 * quantifier (`*`, `+`, `{n,}`) that is itself repeated without bound, as in `(a+)+`, `(\w*)*`,
 * `(?:x|y+)*$`. Matching such a pattern against a long string that almost matches can take
 * seconds to years, inside one request.
 *
 * What is left, and bounded only by `maxLength` (checked before the pattern): overlapping
 * alternatives under one quantifier (`(a|a)*`, `(\w|\d)+`), adjacent quantifiers over the same
 * characters (`\d*\d*\d*`, polynomial), and backreferences. Give strings with a pattern a
 * `maxLength`.
 */
export function refuseSlowPattern(pattern: string): void {
  // One frame per open group: whether something inside it is repeated without bound.
  const frames: boolean[] = [false];
  let i = 0;
  const n = pattern.length;
  while (i < n) {
    const c = pattern[i]!;
    let atomHeldUnbounded = false;
    if (c === '\\') {
      i += 2;
      // \u{...}, \p{...}, \P{...}, \k<name>: skip to the end of the braces or angle brackets.
      const open = pattern[i - 1] === 'k' ? '<' : '{';
      if (pattern[i] === open) i = Math.max(i, pattern.indexOf(open === '<' ? '>' : '}', i) + 1);
    } else if (c === '[') {
      i++;
      while (i < n && pattern[i] !== ']') i += pattern[i] === '\\' ? 2 : 1;
      i++;
    } else if (c === '(') {
      frames.push(false);
      i++;
      if (pattern[i] === '?') {
        // (?:, (?=, (?!, (?<=, (?<!, (?<name>
        i++;
        if (pattern[i] === '<' && pattern[i + 1] !== '=' && pattern[i + 1] !== '!') i = pattern.indexOf('>', i) + 1;
        else i += pattern[i] === '<' ? 2 : 1;
      }
      continue;
    } else if (c === ')') {
      atomHeldUnbounded = frames.pop() ?? false;
      if (frames.length === 0) frames.push(false);
      i++;
    } else if (c === '|') {
      i++;
      continue;
    } else {
      i++;
    }
    // A quantifier after the atom.
    const q = quantifierAt(pattern, i);
    if (q !== undefined) {
      if (q.unbounded && atomHeldUnbounded) {
        throw new TypeError(
          `t.string(): pattern ${JSON.stringify(pattern)} repeats a group that holds an unbounded quantifier, which can take exponential time to match; rewrite it without the nesting`,
        );
      }
      if (q.unbounded || atomHeldUnbounded) frames[frames.length - 1] = true;
      i = q.end;
    } else if (atomHeldUnbounded) {
      frames[frames.length - 1] = true;
    }
  }
}

/** The quantifier starting at `i` (with its lazy `?`), if any. */
function quantifierAt(p: string, i: number): { unbounded: boolean; end: number } | undefined {
  const c = p[i];
  let end: number;
  let unbounded: boolean;
  if (c === '*' || c === '+') {
    unbounded = true;
    end = i + 1;
  } else if (c === '?') {
    unbounded = false;
    end = i + 1;
  } else if (c === '{') {
    const m = /^\{(\d+)(,(\d*))?\}/.exec(p.slice(i));
    if (m === null) return undefined;
    unbounded = m[2] !== undefined && m[3] === '';
    end = i + m[0].length;
  } else {
    return undefined;
  }
  if (p[end] === '?') end++;
  return { unbounded, end };
}
