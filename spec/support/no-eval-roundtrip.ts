// Run with --disallow-code-generation-from-strings: proves the codecs never need eval or new Function.
import { t } from '../../index.ts';
import { json } from '../../codecs/json/index.ts';

const User = t.object({ id: t.u64(), name: t.string(), weight: t.f32() });
const text = json.encode(User, json.decode(User, '{"id":18446744073709551615,"name":"é","weight":0.1}'));
let codegen = 'codegen allowed';
try {
  new Function('return 1');
} catch {
  codegen = 'codegen blocked';
}
console.log(text, codegen);
