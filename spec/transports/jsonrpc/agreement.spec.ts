// A JSON-RPC call and a REST call of the same method agree, for every descriptor and value the
// arbitraries make: the same result in JSON, MessagePack and CBOR; and, for input that does not
// read, the same errors at the same paths (inside `params`, one segment deeper).
import { expect } from 'chai';
import fc from 'fast-check';
import { cbor } from '../../../codecs/cbor/index.ts';
import { json } from '../../../codecs/json/index.ts';
import { msgpack } from '../../../codecs/msgpack/index.ts';
import {
  JSONRPC,
  Registry,
  WriteError,
  meta,
  method,
  service,
  t,
  type Codec,
  type EndpointResponse,
  type Type,
} from '../../../index.ts';
import { answerBytes } from '../../support/answer-body.ts';
import { arbJsonNear, arbTyped } from '../../support/arbitraries.ts';

const CODECS: readonly Codec[] = [json, msgpack, cbor];

/** REST and JSON-RPC registries of one service echoing a value of `type`. */
function registries(type: Type) {
  class Echo {
    echo(value: unknown): unknown {
      return value;
    }
  }
  meta(Echo, service({ echo: method([type], type) }));
  const options = { errorOnUnknownKeys: true, onError: () => {} };
  return {
    rest: new Registry(options).on(new Echo()).endpoints,
    rpc: new Registry(options, JSONRPC).on(new Echo()).endpoints,
  };
}

function post(path: string, codec: Codec, body: Uint8Array | string) {
  const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : body;
  const contentType = codec.contentTypes[0]!;
  return {
    method: 'POST',
    path,
    headers: new Headers({ 'content-type': contentType, accept: contentType }),
    body: bytes,
  };
}

function bodyOf(answer: EndpointResponse): Uint8Array | string {
  const bytes = answerBytes(answer.body);
  return String(answer.headers['content-type']).endsWith('json') ? new TextDecoder().decode(bytes) : bytes;
}

describe('transports: JSON-RPC agrees with REST (property)', () => {
  it('answers the same value as the REST endpoint, in every codec', async () => {
    await fc.assert(
      fc.asyncProperty(arbTyped, async ({ type, value }) => {
        const { rest, rpc } = registries(type);
        const Call = t.object({ jsonrpc: t.literal('2.0'), method: t.string(), params: t.tuple([type]), id: t.u32() });
        const Answer = t.object({ jsonrpc: t.literal('2.0'), result: type, id: t.u32() });
        for (const codec of CODECS) {
          let body: Uint8Array | string;
          try {
            body = codec.encode(type, value as never);
          } catch (e) {
            // A value this codec cannot write (a lone surrogate in MessagePack text) is no input.
            if (e instanceof WriteError) continue;
            throw e;
          }
          const restAnswer = await rest.handle(post('/echo', codec, body));
          expect(restAnswer.status, codec.name).to.equal(200);
          const message = codec.encode(Call, { jsonrpc: '2.0', method: 'echo', params: [value], id: 1 } as never);
          const rpcAnswer = await rpc.handle(post('/', codec, message));
          expect(rpcAnswer.status, codec.name).to.equal(200);
          const result = codec.decode(Answer, bodyOf(rpcAnswer)) as { result: unknown };
          expect(result.result, codec.name).to.deep.equal(codec.decode(type, bodyOf(restAnswer)));
        }
      }),
      { numRuns: 150 },
    );
  });

  it('refuses what REST refuses, naming the same errors one segment deeper (JSON)', async () => {
    const arb = arbTyped.chain(({ type }) => arbJsonNear(type).map((near) => ({ type, near })));
    await fc.assert(
      fc.asyncProperty(arb, async ({ type, near }) => {
        const { rest, rpc } = registries(type);
        const text = JSON.stringify(near);
        if (text === undefined) return;
        const restAnswer = await rest.handle(post('/echo', json, text));
        const rpcAnswer = await rpc.handle(
          post('/', json, `{"jsonrpc":"2.0","method":"echo","params":[${text}],"id":1}`),
        );
        const answer = JSON.parse(bodyOf(rpcAnswer) as string);
        if (restAnswer.status === 200) {
          expect(answer.error, text).to.equal(undefined);
          expect(answer.result).to.deep.equal(JSON.parse(bodyOf(restAnswer) as string));
          return;
        }
        const problem = JSON.parse(bodyOf(restAnswer) as string) as { errors?: { code: string; path: string }[] };
        // A value read that its own descriptor then cannot write fails both as the server's fault.
        expect(answer.error?.code, text).to.equal(restAnswer.status === 500 ? -32603 : -32602);
        const paths = (errors: { code: string; path: string }[] = []) => errors.map((e) => `${e.code} ${e.path}`);
        expect(paths(answer.error.data.errors)).to.deep.equal(paths(problem.errors).map((p) => p.replace(' ', ' /0')));
      }),
      { numRuns: 150 },
    );
  });
});
