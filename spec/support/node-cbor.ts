// node-cbor (the `cbor` package), an implementation of CBOR we did not write, which the specs read
// and are read by. Its `encode` and `encodeOne` read their output with one `read()` of a piped
// stream, which on Node 26 returns the first chunk only (a map's header byte: hildjj/node-cbor#93;
// the package's maintainer now points to cbor2). The same Encoder, its chunks read until none is
// left, writes the same bytes on every Node.
import cborPackage from 'cbor';

/** The CBOR node-cbor writes for `value` (`options` as its Encoder takes them). */
export function nodeCborEncode(
  value: unknown,
  options?: ConstructorParameters<typeof cborPackage.Encoder>[0],
): Uint8Array {
  const encoder = new cborPackage.Encoder(options);
  encoder.pushAny(value);
  encoder.end();
  const chunks: Uint8Array[] = [];
  for (let chunk: Uint8Array | null = encoder.read(); chunk !== null; chunk = encoder.read()) chunks.push(chunk);
  return new Uint8Array(Buffer.concat(chunks));
}
