// The payloads of the benchmark: the specification's records, as lacquer descriptors and as the peers' schemas.
import { t, type Infer, type Type } from '../index.ts';
import { BookSearchResponse, User } from '../examples/records.ts';

/** 64-bit ids, half of them beyond 2^53 where a double would lose digits. */
export const Ledger = t.object({
  entries: t.array(t.object({ id: t.u64(), account: t.u64(), amount: t.i64(), at: t.u64() })),
});

function books(n: number): Infer<typeof BookSearchResponse> {
  const list = Array.from({ length: n }, (_, i) => ({
    id: i + 1,
    title: `The Book Number ${i + 1}`,
    author: i % 3 === 0 ? 'Ursula K. Le Guin' : 'Frank Herbert',
    isbn: `978-0-${String(100000 + i).padStart(6, '0')}-${i % 10}`,
    year: 1950 + (i % 70),
  }));
  return { books: list, total_count: n * 3, has_more: true };
}

function ledger(n: number): Infer<typeof Ledger> {
  const entries = Array.from({ length: n }, (_, i) => {
    const big = i % 2 === 0;
    return {
      id: big ? 2n ** 60n + BigInt(i) : BigInt(i),
      account: big ? 9007199254740993n * 1000n + BigInt(i) : BigInt(1000 + i),
      amount: big ? -(2n ** 62n) + BigInt(i) : BigInt(-i * 100),
      at: 1700000000000n + BigInt(i),
    };
  });
  return { entries };
}

export interface Payload {
  name: string;
  type: Type;
  value: unknown;
}

export const PAYLOADS: Payload[] = [
  { name: 'User', type: User, value: { id: 123456789n, name: 'Ann Example', weight: Math.fround(72.5) } },
  { name: 'BookSearchResponse×10', type: BookSearchResponse, value: books(10) },
  { name: 'BookSearchResponse×1000', type: BookSearchResponse, value: books(1000) },
  { name: 'Ledger×100 (u64)', type: Ledger, value: ledger(100) },
];

/** A point of the shapes below. */
export const Point = t.object({ x: t.f64(), y: t.f64() }, { name: 'Point' });

/** Three shapes, the discriminant `kind` first in each, then members of various kinds. */
export const Circle = t.object(
  { kind: t.literal('circle'), id: t.u32(), center: Point, radius: t.f64(), label: t.string() },
  { name: 'Circle' },
);
export const Rect = t.object(
  {
    kind: t.literal('rect'),
    id: t.u32(),
    origin: Point,
    width: t.f64(),
    height: t.f64(),
    filled: t.bool(),
    layer: t.i32(),
  },
  { name: 'Rect' },
);
export const Polygon = t.object(
  { kind: t.literal('polygon'), id: t.u32(), points: t.array(Point), closed: t.bool(), label: t.string() },
  { name: 'Polygon' },
);
export const Shape = t.variant('kind', [Circle, Rect, Polygon]);
export const Drawing = t.object({ shapes: t.array(Shape) }, { name: 'Drawing' });

function shape(i: number): Infer<typeof Shape> {
  const at = (k: number) => ({ x: k * 1.5 - 40, y: 100 - k * 0.25 });
  switch (i % 3) {
    case 0:
      return { kind: 'circle', id: i, center: at(i), radius: 2.5 + i, label: `circle ${i}` };
    case 1:
      return {
        kind: 'rect',
        id: i,
        origin: at(i),
        width: 10.5 + i,
        height: 4.25,
        filled: i % 2 === 0,
        layer: 3 - (i % 7),
      };
    default:
      return {
        kind: 'polygon',
        id: i,
        points: [at(i), at(i + 1), at(i + 2), at(i + 3)],
        closed: true,
        label: `polygon ${i}`,
      };
  }
}

/** An event with four timestamps, all with milliseconds; `born` is before 1970. */
export const Event = t.object(
  {
    id: t.u32(),
    name: t.string(),
    createdAt: t.timestamp(),
    updatedAt: t.timestamp(),
    startsAt: t.timestamp(),
    born: t.timestamp(),
  },
  { name: 'Event' },
);
export const EventLog = t.object({ events: t.array(Event) }, { name: 'EventLog' });

function event(i: number): Infer<typeof Event> {
  const base = 1_700_000_000_123 + i * 86_400_017;
  return {
    id: i,
    name: `event ${i}`,
    createdAt: new Date(base),
    updatedAt: new Date(base + 3_600_456),
    startsAt: new Date(base + 90 * 86_400_000 + 789),
    born: new Date(-868_000_000_000 - i * 31_557_600_321),
  };
}

/** The cases of the descriptor kinds beyond records of scalars (bench/kinds.ts). */
export const KIND_PAYLOADS = {
  shape: { name: 'Shape (variant)', type: Shape, value: shape(2) },
  shapes: {
    name: 'Drawing×100 (variant)',
    type: Drawing,
    value: { shapes: Array.from({ length: 100 }, (_, i) => shape(i)) },
  },
  event: { name: 'Event (timestamps)', type: Event, value: event(1) },
  events: {
    name: 'EventLog×100 (timestamps)',
    type: EventLog,
    value: { events: Array.from({ length: 100 }, (_, i) => event(i)) },
  },
} satisfies Record<string, Payload>;

/** The value as a peer library holds it: bigints become numbers (lossy beyond 2^53, which is the point). */
export function asPlainNumbers(value: unknown): unknown {
  if (typeof value === 'bigint') return Number(value);
  if (Array.isArray(value)) return value.map(asPlainNumbers);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, asPlainNumbers(v)]));
  }
  return value;
}
