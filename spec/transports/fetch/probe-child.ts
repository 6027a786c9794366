// Run by spec/transports/fetch/compression.spec.ts in a child process, for a fresh module graph:
// counts the CompressionStream and DecompressionStream objects made while the fetch handler's
// module is imported and the handler built (none: workerd forbids some work at module scope), and
// when the first requests are answered (the probes, once).
const made = { compression: 0, decompression: 0 };
const { CompressionStream: C, DecompressionStream: D } = globalThis;
globalThis.CompressionStream = class extends C {
  constructor(format: CompressionFormat) {
    made.compression++;
    super(format);
  }
};
globalThis.DecompressionStream = class extends D {
  constructor(format: CompressionFormat) {
    made.decompression++;
    super(format);
  }
};

const { Registry, meta, method, service, t } = await import('../../../index.ts');
const { toFetchHandler } = await import('../../../transports/fetch/index.ts');
class Echo {
  echo(text: string) {
    return text;
  }
}
meta(Echo, service({ echo: method([t.string()], t.string()) }));
const handle = toFetchHandler('/api', new Registry().on(new Echo()).endpoints);
const atStart = { ...made };
const post = (body: BodyInit, headers: Record<string, string>) =>
  handle(
    new Request('http://in-process/api/echo', {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', ...headers },
    }),
  );
const big = JSON.stringify('x'.repeat(4096));
const first = await post(big, { 'accept-encoding': 'gzip' });
await first.arrayBuffer();
const afterFirst = { ...made };
await (await post(big, { 'accept-encoding': 'gzip' })).arrayBuffer();
const afterSecond = { ...made };
process.stdout.write(
  `${JSON.stringify({ atStart, afterFirst, afterSecond, coding: first.headers.get('content-encoding') })}\n`,
);
