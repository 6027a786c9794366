// The service the MCP specs serve as tools: named parameters, one object parameter, object and
// non-object returns, `t.void()`, methods that fail in each way, one behind bearer auth, and one
// that cannot be a tool (positional parameters).
import {
  HttpError,
  bearerAuth,
  contextKey,
  meta,
  method,
  service,
  t,
  type Call,
  type ErrorContext,
  type Infer,
  type ResponseReport,
} from '../../../index.ts';

export const Note = t.object(
  {
    id: t.u64(),
    title: t.string({ minLength: 1 }),
    tags: t.array(t.string()),
    added: t.timestamp(),
  },
  { name: 'Note' },
);
export type Note = Infer<typeof Note>;

export const NewNote = t.object(
  { title: t.string({ minLength: 1 }), tags: t.array(t.string()).default([]) },
  { name: 'NewNote' },
);

export const TOKEN = 'writer-token';
export const FORBIDDEN = 'forbidden-token';
export const WRITER = contextKey<string>('writer');

export const NOTE: Note = {
  id: 7n,
  title: 'Groceries',
  tags: ['home', 'ü'],
  added: new Date('2024-02-29T12:00:00.000Z'),
};

export class Notes {
  readonly calls: string[] = [];
  getNote({ id }: { id: bigint }): Note {
    this.calls.push(`getNote ${id}`);
    if (id === 0n) throw new HttpError(404, `no note ${id}`);
    return { ...NOTE, id };
  }
  addNote(note: { title: string; tags: string[] }): Note {
    this.calls.push(`addNote ${note.title}`);
    return { ...NOTE, ...note, id: 8n };
  }
  count(): number {
    return 3;
  }
  touch(): void {
    this.calls.push('touch');
  }
  crash(): Note {
    throw new Error('the disk is on fire');
  }
  /** Returns what its descriptor cannot write. */
  broken(): Note {
    return { ...NOTE, title: '' };
  }
  async whoAmI(call: Call): Promise<{ name: string }> {
    return { name: call.get(WRITER) };
  }
  pair(a: string, b: number): string {
    return `${a}:${b}`;
  }
}

export const NotesApi = meta(
  Notes,
  service({
    getNote: method({ id: t.u64() }, Note, { description: 'One note by its id.' }),
    addNote: method([NewNote], Note),
    count: method([], t.u32().describe('How many notes there are.')),
    touch: method([], t.void()),
    crash: method([], Note),
    broken: method([], Note),
    whoAmI: method([], t.object({ name: t.string() }), { security: ['bearer'] }),
    pair: method([t.string(), t.u8()], t.string()),
  }),
);

/** The tools of the service: every method but `pair`. */
export const TOOL_NAMES = ['getNote', 'addNote', 'count', 'touch', 'crash', 'broken', 'whoAmI'];

/** What a registry of the notes was told: failures by `onError`, answers by `onResponse`, what `on()` left out. */
export function observers() {
  const errors: { error: unknown; context: ErrorContext }[] = [];
  const responses: ResponseReport[] = [];
  const warnings: string[] = [];
  return {
    errors,
    responses,
    warnings,
    options: {
      onError: (error: unknown, context: ErrorContext) => void errors.push({ error, context }),
      onResponse: (report: ResponseReport) => void responses.push(report),
      onWarning: (message: string) => void warnings.push(message),
      security: {
        bearer: bearerAuth({
          key: WRITER,
          verify: (token: string) => {
            if (token === FORBIDDEN) throw new HttpError(403, 'this writer may not');
            return token === TOKEN ? 'ada' : undefined;
          },
        }),
      },
    },
  };
}
