// Reading named parameters from a request target, per call: `node --import tsx bench/params.ts`.
// Not part of `npm run bench`. Each case runs 7 rounds of 200 ms after a warm-up; the figure is the
// median round's nanoseconds per call. The baselines show the floor: the regular expression and
// `BigInt` a u64 segment needs at least, and `URLSearchParams` parsing the same query (no checks).
import { t } from '../index.ts';
import { textReader } from '../transports/protocol/params/index.ts';

const ROUNDS = 7;
const ROUND_MS = 200;

function measure(name: string, run: () => unknown): void {
  let sink: unknown;
  const round = (): number => {
    let calls = 0;
    const start = performance.now();
    let now = start;
    while (now - start < ROUND_MS) {
      for (let i = 0; i < 1000; i++) sink = run();
      calls += 1000;
      now = performance.now();
    }
    return ((now - start) * 1e6) / calls;
  };
  round();
  const rounds = Array.from({ length: ROUNDS }, round).sort((a, b) => a - b);
  console.log(`${name.padEnd(58)} ${rounds[ROUNDS >> 1]!.toFixed(0).padStart(6)} ns/call`);
  if (sink === undefined) console.log('(nothing read)');
}

const byId = textReader([{ name: 'id', type: t.u64() }], []);
const byIdLoose = textReader([{ name: 'id', type: t.u64() }], [], { errorOnUnknownKeys: false });
const DECIMAL = /^(?:0|-?[1-9][0-9]*)$/;
const Search = t.object({ query: t.string(), limit: t.optional(t.u16()), tags: t.array(t.string()) });
const search = textReader(
  [],
  [
    { name: 'q', type: Search },
    { name: 'sort', type: t.enum(['new', 'old']) },
  ],
);
const QUERY = 'query=red+cats&limit=5&tags=a&tags=b%20c&sort=old';
const segments = { id: '123456789012' };

measure('GET /users/:id, one u64 path parameter, no query', () => byId(segments, ''));
measure('  floor: the decimal pattern and BigInt alone', () =>
  DECIMAL.test(segments.id) ? { id: BigInt(segments.id) } : undefined,
);
measure('GET /users/:id?utm=x, the unknown key dropped', () => byIdLoose(segments, 'utm=x'));
measure('GET /notes?query=…&limit=&tags=&tags=&sort= (spread object)', () => search({}, QUERY));
measure('  URLSearchParams of the same query, read into an object', () => {
  const q = new URLSearchParams(QUERY);
  return { query: q.get('query'), limit: q.get('limit'), tags: q.getAll('tags'), sort: q.get('sort') };
});
