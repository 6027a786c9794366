// One fast-path mechanism for every reader and writer: generated code named by a sourceURL, its
// source printable, and problems with it reported once while the closure path still answers.
import { expect } from 'chai';
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import {
  ReadError,
  generatedSource,
  onGeneratedCodeError,
  t,
  type GeneratedCodeError,
  type Type,
} from '../../../index.ts';
import { specHooks } from '../../../core/codegen/fast-path.ts';
import { readTree } from '../../../core/read/read.ts';
import { canGenerateCode } from '../../../core/codegen/codegen.ts';
import { cbor } from '../../../codecs/cbor/index.ts';
import { json } from '../../../codecs/json/index.ts';
import { msgpack } from '../../../codecs/msgpack/index.ts';

const root = fileURLToPath(new URL('../../..', import.meta.url));

/** The stack at the first read of `name`: which code read the value. */
function spy(value: Record<string, unknown>): { value: Record<string, unknown>; stack: () => string } {
  let stack = '';
  const spied = { ...value };
  Object.defineProperty(spied, 'name', {
    enumerable: true,
    get() {
      stack ||= new Error().stack ?? '';
      return value.name;
    },
  });
  return { value: spied, stack: () => stack };
}

/** Every way a codec reads or writes `type`, with outcomes comparable by deep equality. */
function exercise(type: Type): unknown[] {
  const outcome = (run: () => unknown) => {
    try {
      return { value: run() };
    } catch (e) {
      if (!(e instanceof ReadError)) throw e;
      return { code: e.code, path: e.path, message: e.message };
    }
  };
  const good = { id: 2n ** 63n, name: 'Ada', tags: ['x'] };
  const strict = { errorOnMissingKeys: true };
  const results: unknown[] = [
    json.encode(type, good as never),
    outcome(() => json.decode(type, json.encode(type, good as never))),
    outcome(() => json.decode(type, '{"name":"Ada","id":1,"tags":[]}')),
    outcome(() => json.decode(type, '{"id":1,"tags":[2]}', strict)),
    outcome(() => json.decode(type, '{"id":1,"name":"Ada","tags":[],"extra":0}')),
  ];
  for (const codec of [msgpack, cbor]) {
    const bytes = codec.encode(type, good as never);
    results.push(
      bytes,
      outcome(() => codec.decode(type, bytes)),
      outcome(() => codec.decode(type, codec.encode(t.object({ id: t.u64() }), { id: 1n }), strict)),
    );
  }
  return results;
}

const fields = () => ({ id: t.u64(), name: t.string(), tags: t.array(t.string()) });

describe('core/codegen', () => {
  let reports: GeneratedCodeError[];
  let previous: ReturnType<typeof onGeneratedCodeError>;
  beforeEach(function () {
    if (!canGenerateCode()) this.skip();
    reports = [];
    previous = onGeneratedCodeError((problem) => reports.push(problem));
  });
  afterEach(() => {
    delete specHooks.generate;
    if (previous !== undefined) onGeneratedCodeError(previous);
  });

  describe('generatedSource', () => {
    const Account = t.object(fields(), { name: 'FastPathAccount' });

    it('is empty before a descriptor is first used', () => {
      expect(generatedSource(t.object(fields(), { name: 'FastPathUnused' }))).to.equal('');
    });

    it('prints the code each codec generated, ending in its sourceURL, and that is the code that runs', () => {
      const value = { id: 5n, name: 'Ada', tags: ['a'] };
      const runs: [string, (v: Record<string, unknown>) => unknown][] = [
        ['json', (v) => json.encode(Account, v as never)],
        ['msgpack', (v) => msgpack.encode(Account, v as never)],
        ['cbor', (v) => cbor.encode(Account, v as never)],
        ['read', (v) => readTree(Account, v, undefined, 'binary')],
      ];
      for (const [codec, run] of runs) {
        const spied = spy(value);
        run(spied.value);
        const url = `lacquer/${codec}/FastPathAccount.js`;
        const source = generatedSource(Account, codec);
        expect(source, codec).to.include(`//# sourceURL=${url}\n`);
        // The function the codec calls: it runs the generated code, and the closure path when that bails.
        expect(source, codec).to.include(`//# sourceURL=${url.replace(/\.js$/, '.entry.js')}\n`);
        // The first read of `name` came from generated code, which the stack names by its sourceURL.
        const frame = spied
          .stack()
          .split('\n')
          .find((line) => line.includes(url));
        expect(frame, `${codec}: ${spied.stack()}`).to.be.a('string');
        // The function on that frame is one of the printed source.
        const fn = /at (\S+) \(/.exec(frame!)?.[1];
        expect(source).to.include(`function ${fn}(`);
        expect(spied.stack(), codec).to.include(`at fastPath (${url.replace(/\.js$/, '.entry.js')}:`);
      }
      for (const codec of ['json-direct', 'msgpack-direct', 'cbor-direct']) {
        expect(generatedSource(Account, codec), codec).to.equal('');
      }
      json.decode(Account, json.encode(Account, value));
      msgpack.decode(Account, msgpack.encode(Account, value));
      for (const codec of ['json-direct', 'msgpack-direct']) {
        expect(generatedSource(Account, codec)).to.include(`//# sourceURL=lacquer/${codec}/FastPathAccount.js`);
      }
      expect(generatedSource(Account)).to.include(generatedSource(Account, 'json-direct'));
      expect(reports).to.deep.equal([]);
    });

    it('names code after the kind when the descriptor has no name, and counts descriptors of the same name', () => {
      const list = t.array(t.string());
      json.encode(list, ['a']);
      expect(generatedSource(list, 'json')).to.match(/\/\/# sourceURL=lacquer\/json\/array(-\d+)?\.js/);
      const [a, b] = [
        t.object({ n: t.i32() }, { name: 'FastPathTwice' }),
        t.object({ n: t.i32() }, { name: 'FastPathTwice' }),
      ];
      json.encode(a, { n: 1 });
      json.encode(b, { n: 1 });
      expect(generatedSource(a, 'json')).to.include('//# sourceURL=lacquer/json/FastPathTwice.js');
      expect(generatedSource(b, 'json')).to.include('//# sourceURL=lacquer/json/FastPathTwice-2.js');
    });

    it('keeps a name that is not a safe path out of the code', () => {
      const Odd = t.object({ n: t.i32() }, { name: 'Odd name\n})(); throw 1; //' });
      expect(json.encode(Odd, { n: 1 })).to.equal('{"n":1}');
      const urls = generatedSource(Odd, 'json')
        .split('\n')
        .filter((line) => line.startsWith('//# sourceURL='));
      expect(urls).to.have.length(2);
      expect(urls[0]).to.match(/^\/\/# sourceURL=lacquer\/json\/Odd_name_+throw_1_+\.js$/);
      expect(reports).to.deep.equal([]);
    });
  });

  describe('problems with generated code', () => {
    it('a generator that throws while building is reported once per fast path, and the closure path answers the same', () => {
      const Broken = t.object(fields());
      specHooks.generate = (codec, type, generate) => {
        if (type === Broken) throw new Error(`no ${codec} code today`);
        return generate();
      };
      const broken = exercise(Broken);
      expect(broken).to.deep.equal(exercise(t.object(fields())));
      expect(reports.map((r) => r.phase)).to.satisfy((phases: string[]) => phases.every((p) => p === 'build'));
      expect(reports.every((r) => r.type === Broken && /^no .* code today$/.test((r.error as Error).message))).to.equal(
        true,
      );
      const urls = reports.map((r) => r.sourceUrl);
      expect(new Set(urls).size).to.equal(urls.length);
      // Writers have one fast path per descriptor; readers one per set of read options (`exercise`
      // uses two), and the read pass one per tree source (JSON.parse trees, binary trees).
      expect(urls.map((u) => u.replace(/^lacquer\/([\w-]+)\/.*$/, '$1')).sort()).to.deep.equal([
        'cbor',
        'cbor-direct',
        'cbor-direct',
        'json',
        'json-direct',
        'json-direct',
        'msgpack',
        'msgpack-direct',
        'msgpack-direct',
        'read',
        'read',
        'read',
        'read',
      ]);
      expect(exercise(Broken)).to.deep.equal(broken);
      expect(reports.map((r) => r.sourceUrl)).to.deep.equal(urls);
      expect(generatedSource(Broken)).to.equal('');
    });

    it('generated code that throws where the closure path answers is reported once, and the closure answer is used', () => {
      const Buggy = t.object(fields());
      specHooks.generate = (codec, type, generate) => {
        const built = generate();
        return type === Buggy && built !== undefined
          ? () => {
              throw new TypeError(`${codec} bug`);
            }
          : built;
      };
      const buggy = exercise(Buggy);
      expect(buggy).to.deep.equal(exercise(t.object(fields())));
      expect(reports.length).to.be.greaterThan(0);
      expect(reports.every((r) => r.phase === 'run' && r.type === Buggy && r.error instanceof TypeError)).to.equal(
        true,
      );
      const urls = reports.map((r) => r.sourceUrl);
      expect(new Set(urls).size).to.equal(urls.length);
      for (const codec of ['json', 'json-direct', 'msgpack', 'msgpack-direct', 'cbor', 'cbor-direct', 'read']) {
        expect(
          urls.some((u) => u.startsWith(`lacquer/${codec}/`)),
          codec,
        ).to.equal(true);
      }
      exercise(Buggy);
      expect(reports.map((r) => r.sourceUrl)).to.deep.equal(urls);
    });

    it('bails and read or write failures are not reported', () => {
      const Plain = t.object(fields());
      exercise(Plain);
      // Values the generated writers leave to the closures: -0, and a number for a u64.
      expect(json.encode(t.object({ x: t.f64(), id: t.u64() }), { x: -0, id: 3 as never })).to.equal('{"x":-0,"id":3}');
      expect(reports).to.deep.equal([]);
    });

    it('an error the closure path throws too (a getter that throws) is the answer, not a report', () => {
      const Plain = t.object(fields());
      const value = {
        id: 1n,
        tags: [],
        get name(): string {
          throw new RangeError('getter');
        },
      };
      for (const codec of [json, msgpack, cbor]) {
        expect(() => codec.encode(Plain, value as never)).to.throw(RangeError, 'getter');
      }
      expect(reports).to.deep.equal([]);
    });

    it('reports to console.warn by default', () => {
      onGeneratedCodeError(undefined);
      const warn = console.warn;
      const warnings: unknown[][] = [];
      console.warn = (...args: unknown[]) => warnings.push(args);
      try {
        const Broken = t.object({ n: t.i32() }, { name: 'FastPathWarned' });
        specHooks.generate = (_codec, type, generate) => {
          if (type === Broken) throw new Error('generator bug');
          return generate();
        };
        expect(json.encode(Broken, { n: 1 })).to.equal('{"n":1}');
        expect(json.encode(Broken, { n: 2 })).to.equal('{"n":2}');
      } finally {
        console.warn = warn;
      }
      expect(warnings).to.have.length(1);
      expect(String(warnings[0]![0])).to.include('lacquer/json/FastPathWarned.js');
      expect((warnings[0]![1] as Error).message).to.equal('generator bug');
    });
  });

  it('one cache: the last call is remembered, and an options object changed between calls is read afresh', () => {
    const Point = t.object({ x: t.i32(), y: t.i32() });
    const opts: { errorOnMissingKeys?: boolean; prettify?: boolean } = {};
    for (const codec of [json, msgpack, cbor]) {
      const input = codec.encode(t.object({ x: t.i32() }), { x: 1 });
      expect(codec.decode(Point, input, opts)).to.deep.equal({ x: 1, y: 0 });
      opts.errorOnMissingKeys = true;
      expect(() => codec.decode(Point, input, opts)).to.throw(ReadError, /y/);
      delete opts.errorOnMissingKeys;
      expect(codec.decode(Point, input, opts)).to.deep.equal({ x: 1, y: 0 });
    }
    expect(json.encode(Point, { x: 1, y: 2 }, opts)).to.equal('{"x":1,"y":2}');
    opts.prettify = true;
    expect(json.encode(Point, { x: 1, y: 2 }, opts)).to.equal('{\n  "x": 1,\n  "y": 2\n}');
  });

  it('`import { t }` alone bundles no code generation: Standard Schema validates with the closure reader', async () => {
    const result = await build({
      stdin: { contents: "export { t } from './index.ts';", resolveDir: root, loader: 'ts', sourcefile: 'entry.ts' },
      bundle: true,
      write: false,
      minify: true,
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
      metafile: true,
      logLevel: 'silent',
    });
    const used = Object.values(result.metafile.outputs).flatMap((output) =>
      Object.entries(output.inputs)
        .filter(([, input]) => input.bytesInOutput > 0)
        .map(([path]) => path),
    );
    expect(used.filter((p) => /generate-|codegen/.test(p))).to.deep.equal([]);
    expect(result.outputFiles[0]!.text).not.to.include('new Function');
    const User = t.object({ id: t.u64(), name: t.string() });
    expect(User['~standard'].validate({ id: 1n, name: 'Ada' })).to.deep.equal({ value: { id: 1n, name: 'Ada' } });
    expect(User['~standard'].validate({ id: 1n, name: 2 })).to.deep.equal({
      issues: [{ message: 'expected a string, got the integer 2 at /name', path: ['name'] }],
    });
  });
});
