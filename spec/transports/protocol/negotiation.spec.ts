import { expect } from 'chai';
import { decode as msgpackDecode, encode as msgpackEncode } from '@msgpack/msgpack';
import { decode as cborDecode, encode as cborEncode } from 'cbor-x';
import fc from 'fast-check';
import { cbor } from '../../../codecs/cbor/index.ts';
import { json } from '../../../codecs/json/index.ts';
import { msgpack } from '../../../codecs/msgpack/index.ts';
import { Registry, meta, method, service, t, type Codec } from '../../../index.ts';
import { acceptance, parseAccept } from '../../../transports/protocol/media-type.ts';
import { chooseResponseCodec, codecForContentType } from '../../../transports/protocol/negotiate.ts';
import { HttpServer } from '../../../transports/http/index.ts';
import { listen, send, type Reply } from '../../support/http-client.ts';
import { Item } from '../../support/services.ts';
import { answerBytes } from '../../support/answer-body.ts';

class Shop {
  echo(item: { id: bigint; name: string; weight: number }) {
    return item;
  }
  getCount() {
    return 3;
  }
  clear() {}
}
meta(Shop, service({ echo: method([Item], Item), getCount: method([], t.u8()), clear: method([], t.void()) }));

const item = { id: 7, name: 'Ada', weight: 0.5 };
const encoders: Record<string, (v: unknown) => Uint8Array | string> = {
  'application/json': (v) => JSON.stringify(v),
  'application/msgpack': (v) => msgpackEncode(v),
  'application/cbor': (v) => cborEncode(v),
};
const decoders: Record<string, (b: Buffer) => unknown> = {
  'application/json': (b) => JSON.parse(b.toString('utf8')),
  'application/msgpack': (b) => msgpackDecode(b),
  'application/cbor': (b) => cborDecode(b),
};
const TYPES = Object.keys(encoders);
const toBytes = (body: Uint8Array | string) => (typeof body === 'string' ? new TextEncoder().encode(body) : body);

/** A codec of the user's: JSON behind a marker byte, to show that any Codec plugs in. */
const marked: Codec = {
  name: 'marked',
  contentTypes: ['application/x-marked'],
  encode: (type, value, opts) => `!${json.encode(type, value, opts)}`,
  decode: (type, input, opts) => json.decode(type, new TextDecoder().decode(input as Uint8Array).slice(1), opts),
};

describe('transports/rest: content negotiation', () => {
  describe('Accept parsing', () => {
    it('reads q-values and skips malformed ranges', () => {
      expect(parseAccept('application/json;q=0.5, text/*; q=0, */*, bogus, a/b;q=2')).to.deep.equal([
        { range: 'application/json', q: 0.5, specificity: 2 },
        { range: 'text/*', q: 0, specificity: 1 },
        { range: '*/*', q: 1, specificity: 0 },
      ]);
    });
    it('lets the most specific range decide', () => {
      const ranges = parseAccept('application/*;q=0.2, application/cbor;q=0.9, */*;q=0.1');
      expect(acceptance(ranges, 'application/cbor').q).to.equal(0.9);
      expect(acceptance(ranges, 'application/json').q).to.equal(0.2);
      expect(acceptance(ranges, 'text/plain').q).to.equal(0.1);
    });
  });

  describe('remembered answers', () => {
    it('give the same choice on every call, and follow a list of codecs that changed', () => {
      const codecs: Codec[] = [json];
      for (let i = 0; i < 3; i++) {
        expect(chooseResponseCodec(codecs, 'application/x-marked, */*;q=0.1', undefined)).to.include({
          codec: json,
          contentType: 'application/json',
        });
        expect(codecForContentType(codecs, 'application/x-marked')).to.equal(undefined);
      }
      codecs.push(marked);
      expect(chooseResponseCodec(codecs, 'application/x-marked, */*;q=0.1', undefined)).to.include({
        codec: marked,
        contentType: 'application/x-marked',
      });
      expect(codecForContentType(codecs, 'application/x-marked')).to.equal(marked);
      expect(chooseResponseCodec(codecs, 'text/html', undefined)).to.equal(undefined);
      expect(chooseResponseCodec(codecs, null, marked)).to.include({ codec: marked });
    });

    it('stay correct past the bound on remembered headers', () => {
      for (let i = 0; i < 600; i++) {
        const q = (i % 10) / 10;
        expect(
          chooseResponseCodec([json, marked], `application/json;q=${q}, application/x-marked;q=0.5, x/y${i}`, undefined)
            ?.codec,
        ).to.equal(q >= 0.5 ? json : marked); // a tie goes to the first codec
      }
    });
  });

  describe('one endpoint, call after call', () => {
    const codecs = { 'application/json': json, 'application/msgpack': msgpack, 'application/cbor': cbor } as const;
    type MediaType = keyof typeof codecs;
    const call = (endpoints: Registry['endpoints'], contentType: MediaType, accept: MediaType | undefined) =>
      endpoints.handle({
        method: 'POST',
        path: '/echo',
        headers: new Headers({ 'content-type': contentType, ...(accept === undefined ? {} : { accept }) }),
        body: toBytes(encoders[contentType]!(item)),
      });

    it('property: answers each call by its own Content-Type and Accept, whatever the calls before it sent', async () => {
      const endpoints = new Registry().on(new Shop()).endpoints;
      const mediaType = fc.constantFrom(...(Object.keys(codecs) as MediaType[]));
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.tuple(mediaType, fc.option(mediaType, { nil: undefined })), { minLength: 1, maxLength: 8 }),
          async (calls) => {
            for (const [contentType, accept] of calls) {
              const answer = await call(endpoints, contentType, accept);
              const expected = accept ?? contentType;
              expect(answer.status).to.equal(200);
              expect(answer.headers['content-type']).to.equal(expected);
              expect(codecs[expected].decode(Item, answerBytes(answer.body))).to.deep.equal({ ...item, id: 7n });
            }
          },
        ),
        { numRuns: 200, seed: 20261123 },
      );
    });

    it('keeps the codecs a registry was given: changing the array afterwards changes no answer', async () => {
      const given: Codec[] = [json, msgpack];
      const endpoints = new Registry({ codecs: given }).on(new Shop()).endpoints;
      expect((await call(endpoints, 'application/json', 'application/msgpack')).headers['content-type']).to.equal(
        'application/msgpack',
      );
      given.splice(1, 1, cbor);
      expect((await call(endpoints, 'application/json', 'application/msgpack')).headers['content-type']).to.equal(
        'application/msgpack',
      );
      expect((await call(endpoints, 'application/json', 'application/cbor')).status).to.equal(406);
    });
  });

  describe('through HTTP', () => {
    const server = new HttpServer();
    server.mount('/s', new Registry().on(new Shop()).endpoints);
    server.mount('/u', new Registry({ codecs: [json, marked] }).on(new Shop()).endpoints);
    let url = '';
    before(async () => (url = await listen(server)));
    after(() => server.stop());

    const echo = (
      contentType: string,
      accept: string | undefined,
      body = encoders[contentType.split(';')[0]!.trim().toLowerCase()]?.(item),
    ) =>
      send(`${url}/s/echo`, {
        method: 'POST',
        body: body ?? '',
        headers: { 'content-type': contentType, ...(accept === undefined ? {} : { accept }) },
      });
    const expectAnswer = (reply: Reply, type: string) => {
      expect(reply.status, reply.text).to.equal(200);
      expect(reply.headers['content-type']).to.equal(type);
      expect(reply.headers.vary).to.equal('Accept');
      expect(decoders[type]!(reply.body)).to.deep.equal(item);
    };

    for (const request of TYPES) {
      for (const response of TYPES) {
        it(`reads ${request} and answers ${response}`, async () =>
          expectAnswer(await echo(request, response), response));
      }
      it(`answers ${request} in kind without Accept`, async () =>
        expectAnswer(await echo(request, undefined), request));
      it(`answers ${request} in kind for Accept: */*`, async () => expectAnswer(await echo(request, '*/*'), request));
      it(`answers ${request} in kind for Accept: application/*`, async () =>
        expectAnswer(await echo(request, 'application/*'), request));
    }

    it('answers JSON to a request without a body, without Accept or with */*', async () => {
      for (const accept of [undefined, '*/*']) {
        const reply = await send(`${url}/s/getCount`, accept === undefined ? {} : { headers: { accept } });
        expect(reply.status).to.equal(200);
        expect(reply.headers['content-type']).to.equal('application/json');
        expect(reply.text).to.equal('3');
      }
    });

    it('follows q-values', async () => {
      expectAnswer(await echo('application/json', 'application/json;q=0.5, application/cbor'), 'application/cbor');
      expectAnswer(
        await echo('application/json', 'application/msgpack;q=0.9, application/json;q=0.8'),
        'application/msgpack',
      );
      expectAnswer(await echo('application/cbor', 'application/cbor;q=0, */*'), 'application/json');
      expectAnswer(
        await echo('application/cbor', 'application/cbor;q=0, application/msgpack;q=0.1, */*;q=0.01'),
        'application/msgpack',
      );
    });

    it('prefers a type named outright to one matched by a wildcard at the same q', async () => {
      expectAnswer(await echo('application/msgpack', 'application/json, */*'), 'application/json');
    });

    it('reads the MessagePack aliases and answers in the alias the client named', async () => {
      for (const alias of ['application/x-msgpack', 'application/vnd.msgpack']) {
        const reply = await echo(alias, alias, msgpackEncode(item));
        expect(reply.headers['content-type']).to.equal(alias);
        expect(msgpackDecode(reply.body)).to.deep.equal(item);
        const inKind = await echo(alias, undefined, msgpackEncode(item));
        expect(inKind.headers['content-type']).to.equal('application/msgpack');
      }
    });

    it('ignores Content-Type parameters and case', async () => {
      expectAnswer(await echo('application/json; charset=utf-8', undefined, JSON.stringify(item)), 'application/json');
      expectAnswer(await echo('Application/JSON;charset="UTF-8"', undefined, JSON.stringify(item)), 'application/json');
    });

    it('answers 406 when nothing acceptable can be written', async () => {
      for (const accept of ['text/html', 'application/json;q=0, application/msgpack;q=0, application/cbor;q=0']) {
        const reply = await echo('application/json', accept);
        expect(reply.status).to.equal(406);
        expect(reply.headers['content-type']).to.equal('application/problem+json');
        expect(reply.headers.vary).to.equal('Accept');
        expect(reply.json()).to.include({ status: 406 });
      }
    });

    it('answers 204 to a void method whatever Accept says (there is no representation)', async () => {
      const reply = await send(`${url}/s/clear`, { method: 'POST', headers: { accept: 'text/html' } });
      expect(reply.status).to.equal(204);
      expect(reply.headers.vary).to.equal('Accept');
    });

    it('answers 415 with Accept-Post for a body it cannot read', async () => {
      for (const type of ['text/plain', 'application/xml', 'not a media type']) {
        const reply = await echo(type, undefined, JSON.stringify(item));
        expect(reply.status).to.equal(415);
        expect(reply.headers['accept-post']).to.equal(
          'application/json, application/msgpack, application/x-msgpack, application/vnd.msgpack, application/cbor',
        );
        expect(reply.json()).to.include({ status: 415, title: 'Unsupported Media Type' });
      }
    });

    it('never answers 415 to a request without a body', async () => {
      const reply = await send(`${url}/s/clear`, { method: 'POST', headers: { 'content-type': 'text/plain' } });
      expect(reply.status).to.equal(204);
      const count = await send(`${url}/s/getCount`, { headers: { 'content-type': 'text/plain' } });
      expect(count.status).to.equal(200);
    });

    it('reads a body without Content-Type as the first codec (JSON)', async () => {
      const reply = await send(`${url}/s/echo`, { method: 'POST', body: JSON.stringify(item) });
      expectAnswer(reply, 'application/json');
    });

    it('plugs in a user codec', async () => {
      const reply = await send(`${url}/u/echo`, {
        method: 'POST',
        body: `!${JSON.stringify(item)}`,
        headers: { 'content-type': 'application/x-marked' },
      });
      expect(reply.headers['content-type']).to.equal('application/x-marked');
      expect(reply.text).to.equal(`!${JSON.stringify(item)}`);
      const asJson = await send(`${url}/u/echo`, {
        method: 'POST',
        body: `!${JSON.stringify(item)}`,
        headers: { 'content-type': 'application/x-marked', accept: 'application/json' },
      });
      expect(asJson.json()).to.deep.equal(item);
      const unsupported = await echo('application/cbor', undefined);
      expect(unsupported.status).to.equal(200);
      const notHere = await send(`${url}/u/echo`, {
        method: 'POST',
        body: cborEncode(item),
        headers: { 'content-type': 'application/cbor' },
      });
      expect(notHere.status).to.equal(415);
      expect(notHere.headers['accept-post']).to.equal('application/json, application/x-marked');
    });

    it('keeps u64 exact and f32 as float32 in every codec', async () => {
      const big = { id: 18446744073709551615n, name: 'max', weight: 0.1 };
      const fromJson = await send(`${url}/s/echo`, {
        method: 'POST',
        body: '{"id": 18446744073709551615, "name": "max", "weight": 0.1}',
        headers: { 'content-type': 'application/json', accept: 'application/msgpack' },
      });
      expect(msgpackDecode(fromJson.body, { useBigInt64: true })).to.deep.equal({ ...big, weight: Math.fround(0.1) });
      const back = await send(`${url}/s/echo`, {
        method: 'POST',
        body: fromJson.body,
        headers: { 'content-type': 'application/msgpack', accept: 'application/json' },
      });
      expect(back.text).to.equal('{"id":18446744073709551615,"name":"max","weight":0.1}');
    });
  });
});
