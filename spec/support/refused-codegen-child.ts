// A platform that allows `new Function` while it starts and refuses it afterwards, as workerd does
// during a request: the refusal is simulated by replacing the global `Function` (what `new
// Function` looks up). Prints one JSON line for spec/core/codegen/refused-codegen.spec.ts.
import { cbor } from '../../codecs/cbor/index.ts';
import { json } from '../../codecs/json/index.ts';
import { msgpack } from '../../codecs/msgpack/index.ts';
import { Registry, generatedSource, meta, method, onGeneratedCodeError, service, t } from '../../index.ts';
import { answerText } from './answer-body.ts';

const reports: unknown[] = [];
onGeneratedCodeError((problem) => reports.push(problem.sourceUrl));

const Early = t.object({ id: t.u64(), name: t.string() }, { name: 'Early' });
const Late = t.object({ id: t.u64(), tags: t.array(t.string()) }, { name: 'Late' });
class EarlyService {
  echo(value: { id: bigint; name: string }) {
    return value;
  }
}
meta(EarlyService, service({ echo: method([Early], Early) }));
// Registered at start-up: its readers and writers are compiled now, in every codec.
const registry = new Registry().on(new EarlyService());

// Made before the refusal: Node loads its fetch classes (undici) on first use, and they capture
// members of the global Function as they load.
const headers = new Headers({ 'content-type': 'application/json' });

const original = globalThis.Function;
globalThis.Function = function refused() {
  throw new EvalError('Code generation from strings disallowed for this context');
} as unknown as FunctionConstructor;

const value = { id: 2n ** 64n - 1n, tags: ['a', 'é'] };
const results: Record<string, unknown> = {};
for (const codec of [json, msgpack, cbor]) {
  const late = codec.decode(Late, codec.encode(Late, value));
  results[codec.name] = late.id === value.id && late.tags.join() === value.tags.join();
}
const answer = await registry.endpoints.handle({
  method: 'POST',
  path: '/echo',
  headers,
  body: new TextEncoder().encode('{"id": 7, "name": "x"}'),
});
globalThis.Function = original;
console.log(
  JSON.stringify({
    results,
    endpoint: [answer.status, answerText(answer.body)],
    earlyGenerated:
      generatedSource(Early, 'json') !== '' &&
      generatedSource(Early, 'msgpack') !== '' &&
      generatedSource(Early, 'read') !== '',
    lateGenerated: generatedSource(Late) !== '',
    reports,
  }),
);
