// OpenTelemetry with its real SDK on both transports: one SERVER span per request that reaches an
// endpoint, failures before the method included, named and attributed after the stable HTTP
// semantic conventions, the caller's traceparent as parent, status and exceptions on 5xx; one span
// per call of a JSON-RPC batch; the duration histogram; and nothing at all without telemetry.
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { expect } from 'chai';
import {
  HttpError,
  JSONRPC,
  Registry,
  bearerAuth,
  contextKey,
  meta,
  method,
  service,
  t,
  type RegistryOptions,
} from '../../../index.ts';
import type { Served } from '../../support/fetch-server.ts';
import { send } from '../../support/http-client.ts';
import { TRANSPORTS } from '../both-transports.ts';
import { otelSdk, settled } from './otel-setup.ts';

const Note = t.object({ id: t.u64(), text: t.string() }, { name: 'Note' });
const WHO = contextKey<string>('who');

class Notes {
  getNote({ id }: { id: bigint }) {
    if (id === 0n) throw new HttpError(404, 'no note 0');
    return { id, text: 'hi' };
  }
  addNote({ text }: { text: string }) {
    return { id: 1n, text };
  }
  crash(): string {
    throw new TypeError('the disk is on fire');
  }
  secret(): string {
    return 'psst';
  }
}
meta(
  Notes,
  service({
    getNote: method({ id: t.u64() }, Note, { route: 'GET /notes/:id' }),
    addNote: method({ text: t.string() }, Note, { route: 'POST /notes' }),
    crash: method([], t.string()),
    secret: method([], t.string(), { security: ['bearer'] }),
  }),
);

const TRACE_ID = '0af7651916cd43dd8448eb211c80319c';
const PARENT_ID = 'b7ad6b7169203331';

for (const transport of TRANSPORTS) {
  describe(`transports: OpenTelemetry server spans (${transport.kind})`, () => {
    let served: Served;
    let sdk: ReturnType<typeof otelSdk>;
    const serve = async (options: RegistryOptions = { telemetry: sdk.telemetry }) => {
      const security = { bearer: bearerAuth({ key: WHO, verify: (token) => (token === 'ok' ? 'ada' : undefined) }) };
      served = await transport.serve(
        '/api',
        new Registry({ security, onError: () => {}, ...options }).on(new Notes()).endpoints,
        {},
        [['/rpc', new Registry({ security, onError: () => {}, ...options }, JSONRPC).on(new Notes()).endpoints]],
      );
    };
    beforeEach(async () => {
      sdk = otelSdk();
      await serve();
    });
    afterEach(() => served.stop());

    it('makes one SERVER span named {verb} {route}, with the HTTP attributes', async () => {
      const reply = await send(`${served.url}/api/notes/5`);
      expect(reply.status).to.equal(200);
      await settled();
      const [span, more] = sdk.spans();
      expect(more).to.equal(undefined);
      expect(span!.name).to.equal('GET /api/notes/:id');
      expect(span!.kind).to.equal(SpanKind.SERVER);
      expect(span!.instrumentationScope.name).to.equal('lacquerjs');
      expect(span!.attributes).to.include({
        'http.request.method': 'GET',
        'http.route': '/api/notes/:id',
        'url.path': '/api/notes/5',
        'http.response.status_code': 200,
      });
      expect(span!.status.code).to.equal(SpanStatusCode.UNSET);
      expect(span!.attributes).not.to.have.property('error.type');
    });

    it('takes the W3C traceparent of the request as its parent', async () => {
      await send(`${served.url}/api/notes/5`, { headers: { traceparent: `00-${TRACE_ID}-${PARENT_ID}-01` } });
      await settled();
      const [span] = sdk.spans();
      expect(span!.spanContext().traceId).to.equal(TRACE_ID);
      expect(span!.parentSpanContext?.spanId).to.equal(PARENT_ID);
      expect(span!.parentSpanContext?.isRemote).to.equal(true);
    });

    it('starts a new trace for a traceparent that does not parse', async () => {
      await send(`${served.url}/api/notes/5`, { headers: { traceparent: `00-${TRACE_ID}-nothex-01` } });
      await settled();
      const [span] = sdk.spans();
      expect(span!.spanContext().traceId).not.to.equal(TRACE_ID);
      expect(span!.parentSpanContext).to.equal(undefined);
    });

    it('spans the failures before the method: 400, 401, 406, 413, 415, each with its status and no error', async () => {
      await send(`${served.url}/api/notes/x`);
      await send(`${served.url}/api/secret`, { method: 'POST' });
      await send(`${served.url}/api/notes/5`, { headers: { accept: 'text/html' } });
      await send(`${served.url}/api/notes`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hi' });
      await send(`${served.url}/api/notes`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ text: 'x'.repeat(2 * 1024 * 1024) }),
      });
      await settled();
      const statuses = sdk.spans().map((s) => [s.name, s.attributes['http.response.status_code'], s.status.code]);
      expect(statuses).to.have.deep.members([
        ['GET /api/notes/:id', 400, SpanStatusCode.UNSET],
        ['POST /api/secret', 401, SpanStatusCode.UNSET],
        ['GET /api/notes/:id', 406, SpanStatusCode.UNSET],
        ['POST /api/notes', 415, SpanStatusCode.UNSET],
        ['POST /api/notes', 413, SpanStatusCode.UNSET],
      ]);
    });

    it('marks a 5xx as an error, with error.type and the exception recorded; a thrown 4xx is no error', async () => {
      await send(`${served.url}/api/crash`, { method: 'POST' });
      await send(`${served.url}/api/notes/0`);
      await settled();
      const crash = sdk.spans().find((s) => s.name === 'POST /api/crash')!;
      expect(crash.status.code).to.equal(SpanStatusCode.ERROR);
      expect(crash.attributes).to.include({ 'http.response.status_code': 500, 'error.type': '500' });
      const exception = crash.events.find((e) => e.name === 'exception');
      expect(exception?.attributes).to.include({
        'exception.type': 'TypeError',
        'exception.message': 'the disk is on fire',
      });
      const missing = sdk.spans().find((s) => s.name === 'GET /api/notes/:id')!;
      expect(missing.attributes['http.response.status_code']).to.equal(404);
      expect(missing.status.code).to.equal(SpanStatusCode.UNSET);
    });

    it('makes no span for a request no endpoint takes (404, 405)', async () => {
      await send(`${served.url}/api/nothing`);
      await send(`${served.url}/api/notes/5`, { method: 'DELETE' });
      await settled();
      expect(sdk.spans()).to.deep.equal([]);
    });

    it('makes one span per request, many requests at once', async () => {
      await Promise.all(Array.from({ length: 20 }, (_, i) => send(`${served.url}/api/notes/${i + 1}`)));
      await settled();
      expect(sdk.spans()).to.have.length(20);
      expect(new Set(sdk.spans().map((s) => s.spanContext().spanId)).size).to.equal(20);
    });

    it('records http.server.request.duration in seconds, by method, route and status', async () => {
      await send(`${served.url}/api/notes/5`);
      await send(`${served.url}/api/notes/6`);
      await send(`${served.url}/api/crash`, { method: 'POST' });
      await settled();
      const points = await sdk.histogram('http.server.request.duration');
      const ok = points.find((p) => p.attributes['http.route'] === '/api/notes/:id')!;
      expect(ok.attributes).to.deep.equal({
        'http.request.method': 'GET',
        'http.route': '/api/notes/:id',
        'http.response.status_code': 200,
      });
      expect(ok.value.count).to.equal(2);
      expect(ok.value.sum).to.be.above(0).and.below(1);
      const failed = points.find((p) => p.attributes['http.route'] === '/api/crash')!;
      expect(failed.attributes['error.type']).to.equal('500');
    });

    it('makes one span per call of a JSON-RPC batch, named by its method', async () => {
      await send(`${served.url}/rpc`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', traceparent: `00-${TRACE_ID}-${PARENT_ID}-01` },
        body: '[{"jsonrpc":"2.0","method":"getNote","params":{"id":5},"id":1},{"jsonrpc":"2.0","method":"crash","id":2},{"jsonrpc":"2.0","method":"secret","id":3}]',
      });
      await settled();
      const spans = sdk
        .spans()
        .map((s) => [
          s.name,
          s.kind,
          s.attributes['rpc.system'],
          s.attributes['rpc.method'],
          s.attributes['http.response.status_code'],
          s.status.code,
          s.spanContext().traceId,
        ]);
      expect(spans).to.have.deep.members([
        ['getNote', SpanKind.SERVER, 'jsonrpc', 'getNote', 200, SpanStatusCode.UNSET, TRACE_ID],
        ['crash', SpanKind.SERVER, 'jsonrpc', 'crash', 500, SpanStatusCode.ERROR, TRACE_ID],
        ['secret', SpanKind.SERVER, 'jsonrpc', 'secret', 401, SpanStatusCode.UNSET, TRACE_ID],
      ]);
      expect((await sdk.histogram('rpc.server.call.duration')).map((p) => p.attributes['rpc.method'])).to.have.members([
        'getNote',
        'crash',
        'secret',
      ]);
    });

    it("reports a JSON-RPC call's url.path as requested: /rpc, and /rpc/ for /rpc/", async () => {
      for (const path of ['/rpc', '/rpc/']) {
        await send(`${served.url}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"jsonrpc":"2.0","method":"getNote","params":[5],"id":1}',
        });
      }
      await settled();
      expect(sdk.spans().map((s) => [s.attributes['url.path'], s.attributes['http.route']])).to.deep.equal([
        ['/rpc', '/rpc'],
        ['/rpc/', '/rpc'],
      ]);
    });

    it('makes no span at all without telemetry, even with a global tracer provider', async () => {
      await served.stop();
      trace.setGlobalTracerProvider(sdk.tracerProvider);
      try {
        await serve({});
        await send(`${served.url}/api/notes/5`);
        await send(`${served.url}/rpc`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"jsonrpc":"2.0","method":"getNote","params":[5],"id":1}',
        });
        await settled();
        expect(sdk.spans()).to.deep.equal([]);
      } finally {
        trace.disable();
      }
    });
  });
}

describe('transports: OpenTelemetry, the registry option', () => {
  it('refuses a telemetry that is not one', () => {
    expect(() => new Registry({ telemetry: {} as never })).to.throw(TypeError, 'openTelemetry()');
  });
});
