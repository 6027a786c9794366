// Hand-made MessagePack and CBOR, for the tree parsers' specs: what no encoder of JavaScript values
// writes (repeated keys, non-string keys, indefinite lengths, chunked strings, tags) next to what
// they all write, built from a small model of the wire.
import fc from 'fast-check';
import type { AnyType, Type } from '../../index.ts';

export type WireTree =
  | { readonly k: 'int'; readonly v: number | bigint }
  | { readonly k: 'float'; readonly v: number }
  | { readonly k: 'str'; readonly v: string; readonly chunked?: boolean }
  | { readonly k: 'bytes'; readonly v: Uint8Array; readonly chunked?: boolean }
  | { readonly k: 'nil' }
  | { readonly k: 'bool'; readonly v: boolean }
  | { readonly k: 'tag'; readonly tag: number; readonly item: WireTree }
  | { readonly k: 'arr'; readonly items: readonly WireTree[]; readonly indefinite?: boolean }
  | { readonly k: 'map'; readonly entries: readonly (readonly [WireTree, WireTree])[]; readonly indefinite?: boolean };

/** Every member name of a descriptor, at any depth: keys a generated map should often use. */
export function fieldNames(type: Type, into = new Set<string>()): Set<string> {
  const d = type as AnyType;
  switch (d.kind) {
    case 'optional':
    case 'nullable':
      return fieldNames(d.inner, into);
    case 'array':
      return fieldNames(d.element, into);
    case 'map':
      return fieldNames(d.values, into);
    case 'tuple':
      d.elements.forEach((e) => fieldNames(e, into));
      return into;
    case 'object':
      for (const [key, field] of Object.entries(d.fields)) {
        into.add(key);
        fieldNames(field, into);
      }
      return into;
    default:
      return into;
  }
}

/** Wire trees whose map keys come mostly from `keys` (array-index keys and repeats included). */
export function arbWireTree(keys: readonly string[]): fc.Arbitrary<WireTree> {
  const key = fc.oneof(
    { weight: 4, arbitrary: keys.length > 0 ? fc.constantFrom(...keys) : fc.constant('a') },
    { weight: 2, arbitrary: fc.constantFrom('0', '1', '7', '10', 'x', '__proto__', 'constructor', '') },
    { weight: 1, arbitrary: fc.string({ maxLength: 3 }) },
  );
  return fc.letrec<{ tree: WireTree; leaf: WireTree }>((tie) => ({
    leaf: fc.oneof(
      fc
        .oneof(fc.integer({ min: -40, max: 300 }), fc.integer(), fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }))
        .map((v) => ({ k: 'int' as const, v })),
      fc.double({ noNaN: true }).map((v) => ({ k: 'float' as const, v })),
      fc.tuple(fc.string({ maxLength: 6 }), fc.boolean()).map(([v, chunked]) => ({ k: 'str' as const, v, chunked })),
      fc
        .tuple(fc.uint8Array({ maxLength: 6 }), fc.boolean())
        .map(([v, chunked]) => ({ k: 'bytes' as const, v, chunked })),
      fc.constant({ k: 'nil' as const }),
      fc.boolean().map((v) => ({ k: 'bool' as const, v })),
    ),
    tree: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      { weight: 4, arbitrary: tie('leaf') },
      {
        weight: 2,
        arbitrary: fc
          .tuple(fc.array(tie('tree'), { maxLength: 5 }), fc.boolean())
          .map(([items, indefinite]) => ({ k: 'arr' as const, items, indefinite })),
      },
      {
        weight: 2,
        arbitrary: fc
          .tuple(
            fc.array(
              fc.tuple(
                fc.oneof({ weight: 9, arbitrary: key.map((v) => ({ k: 'str' as const, v })) }, tie('leaf')),
                tie('tree'),
              ),
              { maxLength: 5 },
            ),
            fc.boolean(),
          )
          .map(([entries, indefinite]) => ({ k: 'map' as const, entries, indefinite })),
      },
      {
        weight: 1,
        arbitrary: fc
          .tuple(fc.constantFrom(0, 1, 2, 3, 24, 1000), tie('tree'))
          .map(([tag, item]) => ({ k: 'tag' as const, tag, item })),
      },
    ),
  })).tree;
}

class Out {
  readonly bytes: number[] = [];
  push(...b: number[]): void {
    for (const x of b) this.bytes.push(x & 0xff);
  }
  be(v: number | bigint, size: number): void {
    let n = BigInt(v);
    const b: number[] = [];
    for (let i = 0; i < size; i++, n >>= 8n) b.unshift(Number(n & 0xffn));
    this.push(...b);
  }
  raw(b: Uint8Array): void {
    for (const x of b) this.bytes.push(x);
  }
}

const utf8 = (s: string) => new TextEncoder().encode(s);

/** MessagePack (no tags, no indefinite lengths: those become the plain item). */
export function toMsgpack(tree: WireTree): Uint8Array {
  const out = new Out();
  const write = (w: WireTree): void => {
    switch (w.k) {
      case 'int': {
        const v = w.v;
        if (typeof v === 'number' && v >= -32 && v <= 127) return out.push(v);
        const b = BigInt(v);
        if (b >= 0n && b < 2n ** 32n) return (out.push(0xce), out.be(b, 4));
        if (b >= -(2n ** 31n) && b < 0n) return (out.push(0xd2), out.be(b, 4));
        if (b >= 0n && b < 2n ** 64n) return (out.push(0xcf), out.be(b, 8));
        if (b >= -(2n ** 63n) && b < 0n) return (out.push(0xd3), out.be(b, 8));
        return (out.push(0xcb), out.raw(f64(Number(b))));
      }
      case 'float':
        return (out.push(0xcb), out.raw(f64(w.v)));
      case 'str': {
        const b = utf8(w.v);
        if (b.length < 32) out.push(0xa0 | b.length);
        else out.push(0xd9, b.length);
        return out.raw(b);
      }
      case 'bytes':
        return (out.push(0xc4, w.v.length), out.raw(w.v));
      case 'nil':
        return out.push(0xc0);
      case 'bool':
        return out.push(w.v ? 0xc3 : 0xc2);
      case 'tag':
        return write(w.item);
      case 'arr':
        if (w.items.length < 16) out.push(0x90 | w.items.length);
        else out.push(0xdc), out.be(w.items.length, 2);
        return w.items.forEach(write);
      case 'map':
        if (w.entries.length < 16) out.push(0x80 | w.entries.length);
        else out.push(0xde), out.be(w.entries.length, 2);
        for (const [k, v] of w.entries) write(k), write(v);
    }
  };
  write(tree);
  return Uint8Array.from(out.bytes);
}

/** CBOR, with the tree's indefinite lengths, chunked strings and tags. */
export function toCbor(tree: WireTree): Uint8Array {
  const out = new Out();
  const head = (major: number, n: number | bigint): void => {
    const v = BigInt(n);
    if (v < 24n) out.push((major << 5) | Number(v));
    else if (v < 256n) out.push((major << 5) | 24, Number(v));
    else if (v < 65536n) out.push((major << 5) | 25), out.be(v, 2);
    else if (v < 2n ** 32n) out.push((major << 5) | 26), out.be(v, 4);
    else out.push((major << 5) | 27), out.be(v, 8);
  };
  const string = (major: number, b: Uint8Array, chunked: boolean | undefined): void => {
    if (!chunked) return (head(major, b.length), out.raw(b));
    out.push((major << 5) | 31);
    // Chunks of one byte, then an empty one: text chunks must each be valid UTF-8, so text is one chunk.
    if (major === 2) for (const x of b) head(2, 1), out.push(x);
    else head(3, b.length), out.raw(b);
    head(major, 0);
    out.push(0xff);
  };
  const write = (w: WireTree): void => {
    switch (w.k) {
      case 'int': {
        const b = BigInt(w.v);
        if (b >= 0n && b < 2n ** 64n) return head(0, b);
        if (b < 0n && b >= -(2n ** 64n)) return head(1, -1n - b);
        const m = b < 0n ? -1n - b : b;
        const hex = m.toString(16);
        const bytes = Uint8Array.from((hex.length % 2 ? '0' + hex : hex).match(/../g)!.map((h) => parseInt(h, 16)));
        return (out.push(b < 0n ? 0xc3 : 0xc2), head(2, bytes.length), out.raw(bytes));
      }
      case 'float':
        return (out.push(0xfb), out.raw(f64(w.v)));
      case 'str':
        return string(3, utf8(w.v), w.chunked);
      case 'bytes':
        return string(2, w.v, w.chunked);
      case 'nil':
        return out.push(0xf6);
      case 'bool':
        return out.push(w.v ? 0xf5 : 0xf4);
      case 'tag':
        return (head(6, w.tag), write(w.item));
      case 'arr':
        if (w.indefinite) out.push(0x9f);
        else head(4, w.items.length);
        w.items.forEach(write);
        if (w.indefinite) out.push(0xff);
        return;
      case 'map':
        if (w.indefinite) out.push(0xbf);
        else head(5, w.entries.length);
        for (const [k, v] of w.entries) write(k), write(v);
        if (w.indefinite) out.push(0xff);
    }
  };
  write(tree);
  return Uint8Array.from(out.bytes);
}

function f64(v: number): Uint8Array {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setFloat64(0, v);
  return b;
}
