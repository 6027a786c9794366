// The payloads of the benchmark: the specification's records, as lacquer descriptors and as the peers' schemas.
import { t, type Infer, type Type } from '../core/index.ts';
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

/** The value as a peer library holds it: bigints become numbers (lossy beyond 2^53, which is the point). */
export function asPlainNumbers(value: unknown): unknown {
  if (typeof value === 'bigint') return Number(value);
  if (Array.isArray(value)) return value.map(asPlainNumbers);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, asPlainNumbers(v)]));
  }
  return value;
}
