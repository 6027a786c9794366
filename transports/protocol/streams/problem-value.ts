import { MAX_READ_ERRORS, ReadError, type ReadErrorEntry } from '../../../core/errors/read-error.ts';
import type { ErrorCode } from '../../../core/errors/codes.ts';
import { PROBLEM_BASE_MEMBERS, statusText, type ProblemDocument } from '../problem.ts';

/**
 * The problem document of a stream's error frame, from its decoded value: an object whose `status`
 * is an error status (400 to 599). `type` defaults to `about:blank` and `title` to the status's
 * text; other members are kept when they are text or numbers, and `errors` when its entries are
 * `{ code, path, message }` texts (at most `MAX_READ_ERRORS`). Throws `ReadError` (at the root)
 * for anything else.
 */
export function problemFromValue(value: unknown): ProblemDocument {
  const fail = (what: string): never => {
    throw new ReadError(
      'type_mismatch',
      '',
      `the error that ends the stream is ${what}, not a problem document, at the root`,
    );
  };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return fail('no object');
  const doc = value as Record<string, unknown>;
  const status = doc.status;
  if (typeof status !== 'number' || !Number.isInteger(status) || status < 400 || status > 599)
    return fail('without an error status');
  const out: ProblemDocument = {
    type: typeof doc.type === 'string' ? doc.type : 'about:blank',
    title: typeof doc.title === 'string' ? doc.title : statusText(status),
    status,
  };
  if (typeof doc.detail === 'string') out.detail = doc.detail;
  for (const key of Object.keys(doc)) {
    if (PROBLEM_BASE_MEMBERS.has(key) || key === 'errors' || key === '__proto__') continue;
    const member = doc[key];
    if (typeof member === 'string' || (typeof member === 'number' && Number.isFinite(member))) out[key] = member;
  }
  const errors = entries(doc.errors);
  if (errors !== undefined) out.errors = errors;
  return out;
}

function entries(errors: unknown): ReadErrorEntry[] | undefined {
  if (!Array.isArray(errors)) return undefined;
  const out: ReadErrorEntry[] = [];
  for (const e of errors) {
    if (out.length === MAX_READ_ERRORS) break;
    if (typeof e !== 'object' || e === null) continue;
    const { code, path, message } = e as Record<string, unknown>;
    if (typeof code === 'string' && typeof path === 'string' && typeof message === 'string')
      out.push({ code: code as ErrorCode, path, message });
  }
  return out;
}
