// Descriptors that describe no value, or that would make reading unsafe, are refused with a
// TypeError: a t.lazy cycle without a container, a t.lazy used before its descriptor exists, and
// string patterns that are invalid or can backtrack exponentially.
import { expect } from 'chai';
import { jsonSchema, t, type Type } from '../../../index.ts';
import { json } from '../../../codecs/json/index.ts';

describe('core/descriptors: refused when made or first resolved', () => {
  it('a t.lazy that comes back to itself through t.lazy, t.optional and t.nullable alone', () => {
    const Self: Type = t.lazy(() => Self);
    expect(() => json.decode(Self, '1')).to.throw(TypeError, 'describes no value');
    const Loop: Type = t.lazy(() => t.optional(t.nullable(Loop)));
    expect(() => jsonSchema(Loop)).to.throw(TypeError, 'describes no value');
    const A: Type = t.lazy(() => B);
    const B: Type = t.lazy(() => A);
    expect(() => json.encode(A, 1 as never)).to.throw(TypeError, 'describes no value');
  });

  it('a cycle through a container is a recursive descriptor, not a refusal', () => {
    const Nested: Type = t.lazy(() => t.array(Nested));
    expect(json.decode(Nested, '[[],[[]]]')).to.deep.equal([[], [[]]]);
  });

  it('a t.lazy whose function returns no descriptor, naming the likely cause', () => {
    const Early = t.lazy(() => undefined as unknown as Type);
    expect(() => json.decode(Early, '1')).to.throw(TypeError, 'declared after its use');
  });

  it('an invalid pattern, and one that repeats a group holding an unbounded quantifier', () => {
    expect(() => t.string({ pattern: '(' })).to.throw(TypeError, 'is not a valid regular expression');
    for (const pattern of ['(a+)+', '(\\w*)*$', '^(?:x|y+)*z', '((ab)*c)+', '(a{2,})+']) {
      expect(() => t.string({ pattern }), pattern).to.throw(TypeError, 'exponential time');
    }
    for (const pattern of ['^[a-z]+$', '(ab)+', '(a+){3}', '\\(a+\\)+', '[(+]+', '^(\\d+)-(\\d+)$']) {
      expect(() => t.string({ pattern }), pattern).not.to.throw();
    }
  });

  it('constraints that no value could meet, or of the wrong form', () => {
    expect(() => t.string({ minLength: 3, maxLength: 2 })).to.throw(TypeError, 'minLength (3) is above maxLength (2)');
    expect(() => t.i32({ minimum: 5, maximum: 1 })).to.throw(TypeError, 'the lower bound 5 is above the upper bound 1');
    expect(() => t.u64({ minimum: 0.5 })).to.throw(TypeError, 'minimum is a bigint or a safe integer');
    expect(() => t.array(t.bool(), { minItems: -1 })).to.throw(TypeError, 'minItems is a whole number of 0 or more');
    expect(() => t.string({ format: 'phone' as never })).to.throw(
      TypeError,
      'format is one of email, uuid, uri, date-time',
    );
    expect(() => t.string({ maxlength: 3 } as never)).to.throw(TypeError, 'unknown option "maxlength"');
  });

  it('a variant whose members cannot be told apart', () => {
    const A = t.object({ kind: t.literal('a') });
    expect(() => t.variant('kind', [A, t.object({ kind: t.literal('a'), x: t.i32() })] as never)).to.throw(
      TypeError,
      'two members have "a"',
    );
    expect(() => t.variant('kind', [t.object({ kind: t.string() })] as never)).to.throw(TypeError, 't.literal');
    expect(() => t.variant('kind', [t.object({ kind: t.literal(null) })] as never)).to.throw(
      TypeError,
      'literal(null)',
    );
    expect(() => t.variant('kind', [])).to.throw(TypeError, 'at least one member');
  });
});
