// Where a schema walk is, for its errors: the place a walk started (an operation's body, a named
// object) and the steps taken from there, written as the caller writes paths.

/** One step into a descriptor: an object member, an array's items, a map's values, a tuple element, a variant member. */
export type PathStep =
  | { readonly key: string }
  | { readonly index: number }
  | { readonly member: number }
  | 'items'
  | 'values';

/**
 * How a path is written: `'pointer'`, a JSON Pointer into the schema being built
 * (`/properties/children/items`); `'access'`, the value's members as code reaches them
 * (`.children[]`, `{}` for a map's values, `[1]` a tuple element, `<0>` a variant member).
 */
export type PathNotation = 'pointer' | 'access';

/** A place in a walk: a linked list of steps back to where the walk started. */
export class SchemaPath {
  private constructor(
    /** What is being described, said before the path: `UserService.createUser's body`, or `''`. */
    readonly where: string,
    /** The path's text where the walk started: `''`, `/$defs/Tree`, `Tree`. */
    private readonly start: string,
    private readonly parent: SchemaPath | undefined,
    private readonly step: PathStep | undefined,
  ) {}

  /** The start of a walk: `where` it describes, and the path text it starts from. */
  static root(where: string, start = ''): SchemaPath {
    return new SchemaPath(where, start, undefined, undefined);
  }

  /** The place one step further. */
  to(step: PathStep): SchemaPath {
    return new SchemaPath(this.where, this.start, this, step);
  }

  /** The path as `notation` writes it; `''` where the walk started. */
  text(notation: PathNotation): string {
    const steps: PathStep[] = [];
    for (let p: SchemaPath | undefined = this; p?.step !== undefined; p = p.parent) steps.push(p.step);
    let out = this.start;
    for (let i = steps.length - 1; i >= 0; i--) out += (notation === 'pointer' ? pointerStep : accessStep)(steps[i]!);
    return out;
  }
}

function pointerStep(step: PathStep): string {
  if (step === 'items') return '/items';
  if (step === 'values') return '/additionalProperties';
  if ('key' in step) return `/properties/${step.key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
  if ('index' in step) return `/prefixItems/${step.index}`;
  return `/oneOf/${step.member}`;
}

function accessStep(step: PathStep): string {
  if (step === 'items') return '[]';
  if (step === 'values') return '{}';
  if ('key' in step) return /^[A-Za-z_$][\w$]*$/.test(step.key) ? `.${step.key}` : `[${JSON.stringify(step.key)}]`;
  if ('index' in step) return `[${step.index}]`;
  return `<${step.member}>`;
}

/**
 * The error of a descriptor a schema cannot be made of, at `at`:
 * `openApi(): UserService.createUser's body, at .next: <message>`, `jsonSchema(): at /items: <message>`.
 */
export function schemaError(caller: string, notation: PathNotation, at: SchemaPath, message: string): TypeError {
  const path = at.text(notation);
  const place = [at.where, path === '' ? '' : `at ${path}`].filter((s) => s !== '').join(', ');
  return new TypeError(`${caller}(): ${place === '' ? '' : `${place}: `}${message}`);
}
