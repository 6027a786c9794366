// A service of stream methods for the stream specs: items as they are produced, a failure after
// some items, a failure before the first, a slow producer, and one that counts what was pulled and
// whether its `finally` ran.
import {
  HttpError,
  Registry,
  meta,
  method,
  service,
  t,
  type Call,
  type Infer,
  type RegistryOptions,
} from '../../../index.ts';

export const Tick = t.object({ n: t.u32(), id: t.u64(), label: t.string() }, { name: 'Tick' });
export type Tick = Infer<typeof Tick>;

export const tick = (n: number): Tick => ({ n, id: 2n ** 64n - 1n - BigInt(n), label: `tick ${n}: grüße` });

export const TicksApi = service({
  listTicks: method([], t.stream(Tick)),
  countTicks: method({ count: t.u32() }, t.stream(Tick)),
  failAfter: method({ count: t.u32() }, t.stream(Tick), { verb: 'GET' }),
  failSecretly: method([], t.stream(Tick), { verb: 'GET' }),
  refuseFirst: method([], t.stream(Tick), { verb: 'GET' }),
  endless: method([], t.stream(Tick), { verb: 'GET' }),
  badItem: method([], t.stream(Tick), { verb: 'GET' }),
  fromArray: method([], t.stream(t.string()), { verb: 'GET' }),
  slowFirst: method([], t.stream(Tick), { verb: 'GET' }),
});

/** What the endless producer has done, for the backpressure and cancellation specs. */
export interface Production {
  pulled: number;
  finished: boolean;
  aborted: boolean;
}

export class Ticks {
  readonly production: Production = { pulled: 0, finished: false, aborted: false };
  async *listTicks(): AsyncIterable<Tick> {
    for (let n = 0; n < 3; n++) yield tick(n);
  }
  async *countTicks({ count }: { count: number }): AsyncIterable<Tick> {
    for (let n = 0; n < count; n++) yield tick(n);
  }
  async *failAfter({ count }: { count: number }): AsyncIterable<Tick> {
    for (let n = 0; n < count; n++) yield tick(n);
    throw new HttpError(409, `stopped after ${count}`);
  }
  async *failSecretly(): AsyncIterable<Tick> {
    yield tick(0);
    throw new Error('the vault key is swordfish');
  }
  refuseFirst(): AsyncIterable<Tick> {
    // biome-ignore lint/correctness/useYield: a stream that fails before its first item
    return (async function* () {
      throw new HttpError(429, 'slow down', { headers: { 'retry-after': '3' } });
    })();
  }
  async *endless(call: Call): AsyncIterable<Tick> {
    const production = this.production;
    call.signal.addEventListener('abort', () => {
      production.aborted = true;
    });
    try {
      for (let n = 0; ; n++) {
        production.pulled++;
        yield { ...tick(n), label: 'x'.repeat(1024) };
      }
    } finally {
      production.finished = true;
    }
  }
  async *badItem(): AsyncIterable<Tick> {
    yield tick(0);
    yield { n: -1, id: 0n, label: '' } as Tick;
  }
  /** Its first item comes after 300 ms; `production.finished` once its `finally` ran. */
  async *slowFirst(): AsyncIterable<Tick> {
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      yield tick(0);
      yield tick(1);
    } finally {
      this.production.finished = true;
    }
  }
  fromArray(): string[] {
    return ['a', 'b'];
  }
}
meta(Ticks, TicksApi);

export function ticksRegistry(options: RegistryOptions = {}): { registry: Registry; ticks: Ticks; errors: unknown[] } {
  const ticks = new Ticks();
  const errors: unknown[] = [];
  const registry = new Registry({ onError: (e) => errors.push(e), ...options }).on(ticks);
  return { registry, ticks, errors };
}
