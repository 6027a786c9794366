// Generated code receives its constants as `c0`, `c1`, …; its printed source (`generatedSource`)
// opens with one comment line per constant saying what it is, so a reader of the source (or a
// debugger) need not guess what `c4(x0)` calls.
import { expect } from 'chai';
import fc from 'fast-check';
import { generatedSource, t } from '../../../index.ts';
import { json } from '../../../codecs/json/index.ts';
import { Constants, buildFunction } from '../../../core/codegen/codegen.ts';
import { RawNumber } from '../../../core/kinds/raw-number.ts';

/** Each function of `source`: its parameters and the comment lines that open its body. */
function functionsOf(source: string): { params: string[]; heading: string[]; body: string }[] {
  return source
    .split(/^(?=function anonymous\()/m)
    .filter((piece) => piece.startsWith('function anonymous('))
    .map((piece) => {
      const [, params = '', rest = ''] = /^function anonymous\(([^)]*)\n\) \{\n([\s\S]*)$/.exec(piece) ?? [];
      const lines = rest.split('\n');
      const heading = lines.filter(
        (line, i) => line.startsWith('// c') && lines.slice(0, i).every((l) => l.startsWith('// c')),
      );
      return { params: params === '' ? [] : params.split(','), heading, body: lines.slice(heading.length).join('\n') };
    });
}

/** The label of `value` as the printed source of a function built with it shows it. */
function labelOf(value: unknown, label?: string): string {
  const constants = new Constants();
  constants.ref(value, label);
  return functionsOf(buildFunctionSource(constants))[0]!.heading[0]!;
}

/** The whole source `buildFunction` makes for `constants` (the factory's `toString()`). */
function buildFunctionSource(constants: Constants): string {
  return String(buildFunction<() => unknown>(constants, 'return arguments.callee;'));
}

describe('core: the printed source of generated code names its constants', () => {
  it("a generated reader's source opens with one line per constant, in order, each saying what it is", () => {
    const Tag = t.object({ name: t.string({ pattern: '^[a-z]+$' }), size: t.u64().default(3n) }, { name: 'Tag' });
    expect(json.decode(Tag, '{"name":"ab"}')).to.deep.equal({ name: 'ab', size: 3n });
    const functions = functionsOf(generatedSource(Tag, 'read'));
    expect(functions).to.have.length(2); // the reader, and its entry
    for (const { params, heading } of functions) {
      expect(params).not.to.deep.equal([]);
      expect(heading.map((line) => line.slice(3, line.indexOf(':')))).to.deep.equal(params);
    }
    const [reader, entry] = functions;
    const pattern = reader!.heading.find((line) => line.endsWith(': function string constraints (pattern "^[a-z]+$")'));
    expect(pattern, reader!.heading.join('\n')).not.to.equal(undefined);
    // The constant so labelled is the one the check of `name` calls.
    expect(reader!.body).to.include(`${pattern!.slice(3, pattern!.indexOf(':'))}(x0) === undefined`);
    expect(reader!.heading).to.include('// c0: function bail');
    expect(entry!.heading).to.deep.equal([
      '// c0: the fast path, lacquer/read/Tag.js',
      '// c1: the closure path: answers what the fast path bails on',
      '// c2: Symbol(lacquer.bail)',
      '// c3: afterThrow: the closure path answers, and a throw it does not share is reported',
      '// c4: this fast path, named in reports',
    ]);
  });

  it('labels a constant by what it is: a function by its name or source, a class, a regular expression, a collection, a descriptor, a primitive', () => {
    function quote(): string {
      return '';
    }
    expect(labelOf(quote)).to.equal('// c0: function quote');
    const zero = () => 0n;
    expect(labelOf(zero)).to.equal('// c0: function zero');
    expect(labelOf([zero][0]!.bind(null))).to.equal('// c0: function bound zero');
    const anonymous = [() => 0n][0]!;
    expect(labelOf(anonymous)).to.equal(`// c0: function ${String(anonymous)}`);
    expect(labelOf(RawNumber)).to.equal('// c0: class RawNumber');
    expect(labelOf(/^[a-z]+$/u)).to.equal('// c0: RegExp /^[a-z]+$/u');
    expect(labelOf(new Set(['a', 'b']))).to.equal('// c0: Set of 2');
    expect(labelOf(new Map([[1, 2]]))).to.equal('// c0: Map of 1');
    expect(labelOf(['a'])).to.equal('// c0: array of 1');
    expect(labelOf(new Uint8Array(3))).to.equal('// c0: 3 bytes');
    expect(labelOf(t.object({ a: t.bool() }, { name: 'Point' }))).to.equal('// c0: descriptor t.object() "Point"');
    expect(labelOf(t.array(t.bool()))).to.equal('// c0: descriptor t.array()');
    expect(labelOf(Symbol('lacquer.bail'))).to.equal('// c0: Symbol(lacquer.bail)');
    expect(labelOf(12n)).to.equal('// c0: 12n');
    expect(labelOf({ at: 1, shown: 'x' })).to.equal('// c0: object { at, shown }');
    expect(labelOf('x'.repeat(50))).to.equal(`// c0: the string "${'x'.repeat(40)}"…`);
    expect(labelOf(1, 'the answer')).to.equal('// c0: the answer');
  });

  it('a label stays on its one comment line whatever it holds (no line terminator ends it early)', () => {
    const sentinel = {};
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary' }),
        fc.constantFrom('\n', '\r', '\u2028', '\u2029'),
        (text, terminator) => {
          // Were the label to leave its comment, `return 1` would run instead of the body.
          const label = `${text}${terminator}return 1;${terminator}${text}`;
          const constants = new Constants();
          constants.ref(sentinel, label);
          constants.ref(t.object({}, { name: label }));
          expect(buildFunction<unknown>(constants, 'return c0;')).to.equal(sentinel);
          const [built] = functionsOf(buildFunctionSource(constants));
          expect(built!.heading).to.have.length(2);
          expect(built!.body.split('\n')[0]).to.equal('return arguments.callee;');
        },
      ),
    );
  });
});
