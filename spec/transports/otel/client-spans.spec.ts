// The typed client with OpenTelemetry: a CLIENT span per attempt, its context sent as traceparent,
// so that the server's SERVER span is its child in one trace; failures mark the client span.
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { expect } from 'chai';
import { HttpError, Registry, meta, method, service, t } from '../../../index.ts';
import { createClient } from '../../../transports/client/index.ts';
import { json } from '../../../codecs/json/index.ts';
import type { Served } from '../../support/fetch-server.ts';
import { TRANSPORTS } from '../both-transports.ts';
import { otelSdk, settled } from './otel-setup.ts';

const Note = t.object({ id: t.u32(), text: t.string() }, { name: 'Note' });
const NotesApi = service({
  getNote: method({ id: t.u32() }, Note, { route: 'GET /notes/:id' }),
});
class Notes {
  failures = 0;
  getNote({ id }: { id: number }) {
    if (id === 0) throw new HttpError(404, 'no note 0');
    if (id === 9 && this.failures++ < 1) throw new HttpError(503, 'busy');
    return { id, text: 'hi' };
  }
}
meta(Notes, NotesApi);

for (const transport of TRANSPORTS) {
  describe(`transports: OpenTelemetry client spans (${transport.kind})`, () => {
    let served: Served;
    let sdk: ReturnType<typeof otelSdk>;
    beforeEach(async () => {
      sdk = otelSdk();
      served = await transport.serve(
        '/api',
        new Registry({ telemetry: sdk.telemetry, onError: () => {} }).on(new Notes()).endpoints,
      );
    });
    afterEach(() => served.stop());

    it("makes a CLIENT span whose context the server's span continues: one trace across both", async () => {
      const api = createClient(NotesApi, { baseUrl: `${served.url}/api`, codec: json, telemetry: sdk.telemetry });
      expect(await api.getNote({ id: 5 })).to.deep.equal({ id: 5, text: 'hi' });
      await settled();
      const client = sdk.spans().find((s) => s.kind === SpanKind.CLIENT)!;
      const server = sdk.spans().find((s) => s.kind === SpanKind.SERVER)!;
      expect(client.name).to.equal('GET');
      expect(client.attributes).to.include({
        'http.request.method': 'GET',
        'url.full': `${served.url}/api/notes/5`,
        'http.response.status_code': 200,
        'rpc.method': 'getNote',
      });
      expect(server.spanContext().traceId).to.equal(client.spanContext().traceId);
      expect(server.parentSpanContext?.spanId).to.equal(client.spanContext().spanId);
      expect(client.status.code).to.equal(SpanStatusCode.UNSET);
    });

    it('marks a call answered 4xx as an error on the client span', async () => {
      const api = createClient(NotesApi, { baseUrl: `${served.url}/api`, codec: json, telemetry: sdk.telemetry });
      await api.getNote({ id: 0 }).then(
        () => expect.fail('resolved'),
        () => {},
      );
      await settled();
      const client = sdk.spans().find((s) => s.kind === SpanKind.CLIENT)!;
      expect(client.status.code).to.equal(SpanStatusCode.ERROR);
      expect(client.attributes).to.include({ 'http.response.status_code': 404, 'error.type': '404' });
    });

    it('makes a span per attempt of a retried call, each the parent of its server span', async () => {
      const api = createClient(NotesApi, {
        baseUrl: `${served.url}/api`,
        codec: json,
        telemetry: sdk.telemetry,
        retry: { baseDelayMs: 1 },
      });
      expect(await api.getNote({ id: 9 })).to.deep.equal({ id: 9, text: 'hi' });
      await settled();
      const clients = sdk.spans().filter((s) => s.kind === SpanKind.CLIENT);
      const servers = sdk.spans().filter((s) => s.kind === SpanKind.SERVER);
      expect(clients.map((s) => s.attributes['http.response.status_code'])).to.deep.equal([503, 200]);
      expect(servers.map((s) => s.parentSpanContext?.spanId).sort()).to.deep.equal(
        clients.map((s) => s.spanContext().spanId).sort(),
      );
    });

    it('records a call that got no answer with the error that ended it', async () => {
      const api = createClient(NotesApi, { baseUrl: 'http://127.0.0.1:9/api', codec: json, telemetry: sdk.telemetry });
      await api.getNote({ id: 5 }).then(
        () => expect.fail('resolved'),
        () => {},
      );
      const [client] = sdk.spans();
      expect(client!.status.code).to.equal(SpanStatusCode.ERROR);
      expect(client!.attributes['error.type']).to.equal('TypeError');
      expect(client!.events.some((e) => e.name === 'exception')).to.equal(true);
    });
  });
}

describe('transports: OpenTelemetry, the client option', () => {
  it('refuses a telemetry that makes no client spans', () => {
    expect(() =>
      createClient(NotesApi, { baseUrl: 'http://x', codec: json, telemetry: { serverSpan: () => ({ end() {} }) } }),
    ).to.throw(TypeError, 'openTelemetry()');
  });
});
