import { formOf } from './visit.ts';
import { Type, type Infer, type InferInput } from './type.ts';

/**
 * A sequence of values, each described by `item`: what a method answers item by item
 * (`method([], t.stream(Tick))`). It is no value itself, so it goes nowhere else: not inside an
 * object, an array or any other descriptor (TypeScript refuses that, and every walker over
 * descriptors throws on it). `Infer` of it is an `AsyncIterable` of the items.
 */
export class StreamType<T extends Type = Type> {
  readonly kind = 'stream';
  /** Type-level only: what reading a stream gives. */
  declare readonly '~out': AsyncIterable<Infer<T>>;
  /** Type-level only: what a writer of a stream takes. */
  declare readonly '~in': AsyncIterable<InferInput<T>> | Iterable<InferInput<T>>;

  constructor(readonly item: T) {
    if (!(item instanceof Type))
      throw new TypeError('t.stream(): the item must be a descriptor (t.*), and a stream is not one');
    const form = formOf(item);
    // The framings end a stream with a value no item can be: no item may be absent.
    if (form === 'optional' || form === 'void')
      throw new TypeError(`t.stream(): an item is a value; t.${form}() cannot be one`);
    Object.freeze(this);
  }
}
