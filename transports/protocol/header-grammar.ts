// The grammar of the header values lacquer reads (RFC 9110 §5.6): tokens, comma-separated lists,
// and weighted lists (`Accept`, `Accept-Encoding`). Stated once here; what a member means (a media
// range, a content coding) is the business of media-type.ts and content-coding.ts. Tokens compared
// without case, where the text must not be copied, are ascii.ts's.
//
// A member's parameters are split at every `;` and members at every `,`: a quoted-string holding
// either is not recognized (no parameter lacquer reads needs one).

/** RFC 9110 §5.6.2: `token = 1*tchar`. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** RFC 9110 §12.4.2: `qvalue = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] )`. */
const QVALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

/** Whether `text` is a token: a header name, a content coding, each half of a media type. */
export function isToken(text: string): boolean {
  return TOKEN.test(text);
}

/**
 * The members of a list (`#element`, RFC 9110 §5.6.1), without the whitespace around them, empty
 * members left out: `' gzip, ,br'` gives `['gzip', 'br']`.
 */
export function listMembers(value: string): string[] {
  const out: string[] = [];
  let start = 0;
  for (;;) {
    const comma = value.indexOf(',', start);
    const member = value.slice(start, comma === -1 ? value.length : comma).trim();
    if (member !== '') out.push(member);
    if (comma === -1) return out;
    start = comma + 1;
  }
}

/** `member` without its parameters (from the first `;`), trimmed and lower-cased: `application/json`. */
export function withoutParameters(member: string): string {
  const semi = member.indexOf(';');
  return (semi === -1 ? member : member.slice(0, semi)).trim().toLowerCase();
}

/** One member of a weighted list. */
export interface WeightedMember {
  /** The member without its parameters, lower-cased: `gzip`, `application/json`, `*`. */
  readonly name: string;
  /** Its weight, 1 when it names none. */
  readonly q: number;
}

/**
 * The members of a weighted list (RFC 9110 §12.4.2): `gzip;q=0.5, br`. The weight's name is `q`
 * in any case, with a q-value (0 to 1, at most three decimals); whitespace around members, `;` and
 * `=` is allowed. A member whose weight is not a q-value (`q=2`, `q=abc`) is left out, never an
 * error, as are empty members. With `parameters`, a member may carry others, which are skipped
 * (a media range: `text/html;level=1;q=0.5`); without, the weight is its only parameter and a member
 * with any other is left out (a content coding: `gzip;level=3`). The names are not checked: each
 * header says what a name is.
 */
export function parseWeightedList(header: string, parameters: boolean): WeightedMember[] {
  const out: WeightedMember[] = [];
  let start = 0;
  for (;;) {
    const comma = header.indexOf(',', start);
    const end = comma === -1 ? header.length : comma;
    const semi = header.indexOf(';', start);
    const named = semi === -1 || semi > end ? end : semi;
    const name = header.slice(start, named).trim().toLowerCase();
    if (name !== '') {
      const q = named === end ? 1 : weight(header.slice(named + 1, end), parameters);
      if (q !== undefined) out.push({ name, q });
    }
    if (comma === -1) return out;
    start = comma + 1;
  }
}

/** The weight among a member's `params` (the text after its first `;`); `undefined` when malformed. */
function weight(params: string, parameters: boolean): number | undefined {
  let q = 1;
  let start = 0;
  for (;;) {
    const semi = params.indexOf(';', start);
    const param = params.slice(start, semi === -1 ? params.length : semi);
    const eq = param.indexOf('=');
    if (eq !== -1 && param.slice(0, eq).trim().toLowerCase() === 'q') {
      const value = param.slice(eq + 1).trim();
      if (!QVALUE.test(value)) return undefined;
      q = Number(value);
    } else if (!parameters) return undefined;
    if (semi === -1) return q;
    if (!parameters) return undefined; // a second weight: `gzip;q=0.5;q=1`
    start = semi + 1;
  }
}
