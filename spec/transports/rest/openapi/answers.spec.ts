// The answers an operation may get beyond its success and its problems of reading: 304 for a GET
// with an entity tag, 429 with Retry-After for a rate-limited method, 503 for a method with its own
// timeoutMs; and the OpenAPI 3.1 form of a document holding streams (`version: '3.1'`), which
// parsers that refuse 3.2 accept. Each document is checked by both validators.
import { expect } from 'chai';
import { Validator } from '@seriousme/openapi-schema-validator';
import {
  meta,
  method,
  openApi,
  Registry,
  service,
  t,
  type OpenApiDocument,
  type RegistryOptions,
} from '../../../../index.ts';
import { validatorErrors } from './support.ts';

const info = { title: 'Board', version: '1.0.0' };
const Task = t.object({ id: t.u32(), title: t.string() }, { name: 'Task' });

class Board {}
const BoardApi = service({
  getTask: method({ id: t.u32() }, Task, { route: 'GET /tasks/:id' }),
  listTasks: method({}, t.array(Task), { route: 'GET /tasks', cache: 'no-store' }),
  ping: method({}, t.void(), { verb: 'GET' }),
  addTask: method([Task], Task, { status: 201 }),
  searchTasks: method({ q: t.string() }, t.array(Task), {
    route: 'GET /search',
    rateLimit: { limit: 10, windowMs: 1000 },
  }),
  exportTasks: method([], t.string(), { timeoutMs: 60_000, rateLimit: false }),
  watchTasks: method([], t.stream(Task), { route: 'GET /tasks/live' }),
  importTasks: method([t.stream(Task)], t.u32()),
});
for (const name of Object.keys(BoardApi.methods))
  Object.defineProperty(Board.prototype, name, { value: () => undefined });
meta(Board as never, BoardApi);

type Op = {
  responses: Record<
    string,
    {
      $ref?: string;
      headers?: Record<string, unknown>;
      description?: string;
      content?: Record<string, Record<string, unknown>>;
    }
  >;
  requestBody?: { description?: string; content: Record<string, Record<string, unknown>> };
};
const doc = (options: RegistryOptions = {}, version?: '3.1' | '3.2'): OpenApiDocument =>
  openApi(new Registry(options).on(new Board()).endpoints, {
    prefix: '/api',
    info,
    ...(version === undefined ? {} : { version }),
  });
const op = (d: OpenApiDocument, path: string, verb: string) => d.paths[path]![verb] as unknown as Op;
const statuses = (d: OpenApiDocument, path: string, verb: string) => Object.keys(op(d, path, verb).responses);
const resolved = (d: OpenApiDocument, response: Op['responses'][string]): Op['responses'][string] =>
  response.$ref === undefined
    ? response
    : (d.components.responses[response.$ref.split('/').at(-1)!] as Op['responses'][string]);

describe('openApi: the answers an operation may get', () => {
  it('lists 304 with the ETag for a GET answering a body with an entity tag, and not otherwise', () => {
    const d = doc();
    expect(statuses(d, '/api/tasks/{id}', 'get')).to.include('304');
    expect(resolved(d, op(d, '/api/tasks/{id}', 'get').responses['304']!).headers).to.have.property('ETag');
    expect(op(d, '/api/tasks/{id}', 'get').responses['200']!.headers).to.have.property('ETag');
    for (const [path, verb] of [
      ['/api/tasks', 'get'],
      ['/api/ping', 'get'],
      ['/api/addTask', 'post'],
      ['/api/tasks/live', 'get'],
    ] as const) {
      expect(statuses(d, path, verb), `${verb} ${path}`).not.to.include('304');
    }
  });

  it("lists 429 with Retry-After and the RateLimit headers for a rate-limited method: its own limit, or the registry's", () => {
    const own = doc();
    expect(statuses(own, '/api/search', 'get')).to.include('429');
    expect(Object.keys(resolved(own, op(own, '/api/search', 'get').responses['429']!).headers!)).to.include.members([
      'Retry-After',
      'RateLimit',
      'RateLimit-Policy',
    ]);
    expect(statuses(own, '/api/tasks/{id}', 'get')).not.to.include('429');
    const registry = doc({ rateLimit: { limit: 100, windowMs: 60_000 } });
    expect(statuses(registry, '/api/tasks/{id}', 'get')).to.include('429');
    expect(statuses(registry, '/api/exportTasks', 'post'), 'rateLimit: false').not.to.include('429');
  });

  it('lists 503 for a method with its own timeoutMs, naming it', () => {
    const d = doc();
    const timedOut = op(d, '/api/exportTasks', 'post').responses['503']!;
    expect(resolved(d, timedOut).description).to.contain('60000 ms');
    expect(statuses(d, '/api/tasks/{id}', 'get')).not.to.include('503');
  });

  it("validates with both validators, the registry's rate limit included (the 3.1 form, streams and all)", async () => {
    for (const d of [doc({}, '3.1'), doc({ rateLimit: { limit: 100, windowMs: 60_000 } }, '3.1')]) {
      expect(d.openapi).to.equal('3.1.1');
      expect(await validatorErrors(d)).to.deep.equal({ seriousme: null, readme: null });
    }
  });
});

describe('openApi: version', () => {
  it('writes a document holding streams as 3.2.0 by default, with item schemas', async () => {
    const d = doc();
    expect(d.openapi).to.equal('3.2.0');
    expect(JSON.stringify(d)).to.contain('"itemSchema"');
    expect((await new Validator().validate(JSON.parse(JSON.stringify(d)))).valid).to.equal(true);
  });

  it("writes it as 3.1.1 with version: '3.1': the stream media types listed without item schemas, the framing in the description", () => {
    const d = doc({}, '3.1');
    expect(d.openapi).to.equal('3.1.1');
    expect(JSON.stringify(d)).not.to.contain('itemSchema');
    const live = op(d, '/api/tasks/live', 'get').responses['200']!;
    expect(Object.keys(live.content!)).to.include.members(['application/jsonl', 'text/event-stream']);
    for (const media of Object.values(live.content!)) expect(media).to.deep.equal({});
    expect(live.description).to.contain('Two blank lines end the stream');
    const upload = op(d, '/api/importTasks', 'post').requestBody!;
    for (const media of Object.values(upload.content)) expect(media).to.deep.equal({});
    expect(upload.description).to.contain('application/jsonl');
  });

  it('writes a document without streams as 3.1.1 either way, and 3.2.0 when asked', async () => {
    class Plain {
      getTask() {
        return { id: 1, title: '' };
      }
    }
    meta(Plain, service({ getTask: method([], Task) }));
    const endpoints = new Registry().on(new Plain()).endpoints;
    expect(openApi(endpoints, { prefix: '/api', info }).openapi).to.equal('3.1.1');
    expect(openApi(endpoints, { prefix: '/api', info, version: '3.1' }).openapi).to.equal('3.1.1');
    const d32 = openApi(endpoints, { prefix: '/api', info, version: '3.2' });
    expect(d32.openapi).to.equal('3.2.0');
    expect((await new Validator().validate(JSON.parse(JSON.stringify(d32)))).valid).to.equal(true);
  });

  it('refuses a version it does not write', () => {
    for (const version of ['3.0', '3', 3.1, '3.1.1']) {
      expect(
        () => openApi(new Registry().endpoints, { prefix: '', info, version: version as never }),
        String(version),
      ).to.throw(TypeError, /version/);
    }
  });
});
