// Routes and named parameters in the document: `/notes/:id` as `/notes/{id}`, operations sharing a
// path item, `parameters` in the path and the query (a spread object as one parameter per member),
// `requestBody` only for what the body carries, and 400 wherever a parameter can fail to read.
import { expect } from 'chai';
import {
  meta,
  method,
  openApi,
  Registry,
  service,
  t,
  type MissingKeys,
  type OpenApiDocument,
  type RegistryOptions,
} from '../../../../index.ts';
import { notesRegistry } from './fixtures.ts';

const info = { title: 'Notes', version: '1.0.0' };
const notesDoc = (options: RegistryOptions = {}) => openApi(notesRegistry(options).endpoints, { prefix: '/api', info });

type Op = Record<string, any>;
const op = (doc: OpenApiDocument, path: string, verb: string): Op => {
  const found = doc.paths[path]?.[verb];
  expect(found, `${verb} ${path} in ${Object.keys(doc.paths).join(' ')}`).not.to.equal(undefined);
  return found as Op;
};
const params = (o: Op) => (o.parameters ?? []) as Op[];
const byName = (o: Op) => Object.fromEntries(params(o).map((p) => [p.name, p]));
const U64 = { type: 'integer', format: 'uint64', minimum: 0 };

describe('openApi: routes and named parameters', () => {
  it("writes a route's :name segments as {name} under the prefix, operations on one path sharing its path item", () => {
    const doc = notesDoc();
    expect(Object.keys(doc.paths)).to.deep.equal([
      '/api/notes/{id}',
      '/api/notes',
      '/api/notes/{id}/move',
      '/api/findNotes',
      '/api/tags/{tag}',
    ]);
    expect(Object.keys(doc.paths['/api/notes/{id}']!)).to.deep.equal(['get', 'put', 'delete']);
    const ids = Object.values(doc.paths).flatMap((item) =>
      Object.values(item).map((o) => `${(o as Op).operationId} ${(o as Op).tags}`),
    );
    expect(ids).to.deep.equal([
      'getNote NotesService',
      'updateNote NotesService',
      'deleteNote NotesService',
      'searchNotes NotesService',
      'moveNote NotesService',
      'findNotes NotesService',
      'tagNotes NotesService',
    ]);
  });

  it('describes a path parameter as required, with the schema of its descriptor as a body reads it in JSON', () => {
    const doc = notesDoc();
    for (const verb of ['get', 'put', 'delete']) {
      expect(params(op(doc, '/api/notes/{id}', verb)), verb).to.deep.equal([
        { name: 'id', in: 'path', required: true, schema: U64 },
      ]);
    }
    // A path segment is never empty, holds no / or \\ or control character, and is no dot segment; a description is the parameter's.
    const segment = '^(?!\\.\\.?$)[^/\\\\\\u0000-\\u001f\\u007f]+$';
    expect(byName(op(doc, '/api/tags/{tag}', 'delete')).tag).to.deep.equal({
      name: 'tag',
      in: 'path',
      required: true,
      description: 'The tag to add.',
      schema: { type: 'string', pattern: segment, description: 'The tag to add.' },
    });
    for (const [text, fits] of [
      ['a', true],
      ['', false],
      ['.', false],
      ['..', false],
      ['...', true],
      ['a/b', false],
      ['a\\b', false],
      ['.a', true],
      ['a\nb', false],
      ['\u007f', false],
      ['é', true],
    ] as const) {
      expect(new RegExp(segment, 'u').test(text), text).to.equal(fits);
    }
  });

  it('has a requestBody only for what the body carries: the object of the parameters the path does not bind, by name', () => {
    const doc = notesDoc();
    expect(op(doc, '/api/notes/{id}', 'get')).not.to.have.property('requestBody');
    expect(op(doc, '/api/notes/{id}', 'delete')).not.to.have.property('requestBody');
    expect(op(doc, '/api/notes', 'get')).not.to.have.property('requestBody');
    const update = op(doc, '/api/notes/{id}', 'put').requestBody;
    // Without errorOnMissingKeys an empty body reads: patch takes its default.
    expect(update.required).to.equal(false);
    expect(update.description).to.equal('The parameter patch, by name.');
    expect(update.content['application/json'].schema).to.deep.equal({
      type: 'object',
      properties: { patch: { $ref: '#/components/schemas/NotePatch' } },
      additionalProperties: false,
    });
    const move = op(doc, '/api/notes/{id}/move', 'post');
    expect(params(move).map((p) => `${p.in} ${p.name}`)).to.deep.equal(['path id']);
    expect(move.requestBody.description).to.equal('The parameters folder and position, by name.');
    expect(move.requestBody.content['application/json'].schema).to.deep.equal({
      type: 'object',
      properties: {
        folder: { type: 'string' },
        position: { type: 'integer', format: 'uint32', minimum: 0, maximum: 4294967295 },
      },
      additionalProperties: false,
    });
    expect(notesDoc({ errorOnMissingKeys: true }).paths['/api/notes/{id}/move']!.post)
      .to.have.nested.property('requestBody.content.application/json.schema.required')
      .that.deep.equals(['folder', 'position']);
  });

  it('spreads an object parameter over the query as one parameter per member, arrays as repeated keys', () => {
    const doc = notesDoc();
    expect(params(op(doc, '/api/notes', 'get'))).to.deep.equal([
      { name: 'query', in: 'query', required: false, schema: { type: 'string' } },
      {
        name: 'limit',
        in: 'query',
        required: false,
        schema: { type: 'integer', format: 'uint32', minimum: 0, maximum: 100, default: 10 },
      },
      {
        name: 'tag',
        in: 'query',
        required: false,
        style: 'form',
        explode: true,
        schema: { type: 'array', items: { type: 'string' } },
      },
      { name: 'after', in: 'query', required: false, schema: { type: 'string', format: 'date-time' } },
    ]);
  });

  it('describes the query parameters of a default path: an enum with the type of its values, an optional one as its value, a 64-bit integer as digits', () => {
    const find = op(notesDoc(), '/api/findNotes', 'get');
    expect(params(find)).to.deep.equal([
      {
        name: 'kind',
        in: 'query',
        required: false,
        schema: { type: ['string', 'integer'], enum: ['draft', 'done', 3] },
      },
      // A 64-bit integer's text is its digits whatever json says: the string form adds only '-0', which no text form reads.
      { name: 'since', in: 'query', required: false, schema: { type: 'integer', format: 'int64' } },
      {
        name: 'ids',
        in: 'query',
        required: false,
        style: 'form',
        explode: true,
        schema: { type: 'array', items: U64, maxItems: 3 },
      },
      { name: 'exact', in: 'query', required: false, schema: { type: 'boolean' } },
    ]);
  });

  it('marks query parameters required as reading does: errorOnMissingKeys, requiresKey, and an array as any member (one that cannot be empty always)', () => {
    const required = (doc: OpenApiDocument, path: string, verb: string) =>
      params(op(doc, path, verb)).map((p) => `${p.name}${p.required ? '!' : ''}`);
    expect(required(notesDoc(), '/api/notes', 'get')).to.deep.equal(['query', 'limit', 'tag', 'after']);
    expect(required(notesDoc({ errorOnMissingKeys: true }), '/api/notes', 'get')).to.deep.equal([
      'query!',
      'limit!',
      'tag',
      'after',
    ]);
    expect(required(notesDoc({ errorOnMissingKeys: true }), '/api/findNotes', 'get')).to.deep.equal([
      'kind!',
      'since!',
      'ids',
      'exact',
    ]);
    // An array that cannot be empty is required whatever the options, as in a body.
    expect(required(notesDoc(), '/api/tags/{tag}', 'delete')).to.deep.equal(['tag!', 'ids!']);

    const Filter = t.object(
      { a: t.string(), b: t.optional(t.string()), c: t.string() },
      { requiresKey: (key) => key !== 'c' },
    );
    class Filters {
      listThings() {
        return 0;
      }
    }
    meta(
      Filters,
      service({ listThings: method({ f: Filter, d: t.string({ minLength: 2 }) }, t.u32()) }, { security: [] }),
    );
    for (const errorOnMissingKeys of [false, true]) {
      const doc = openApi(new Registry({ errorOnMissingKeys }).on(new Filters()).endpoints, { prefix: '', info });
      // A member whose default ('' here) breaks its constraints is required under any options, as in a body.
      expect(required(doc, '/listThings', 'get'), String(errorOnMissingKeys)).to.deep.equal(
        errorOnMissingKeys ? ['a!', 'b!', 'c', 'd!'] : ['a', 'b', 'c', 'd!'],
      );
    }
  });

  it('lists 400 wherever a path or query parameter can fail to read, and 413/415 only with a body', () => {
    const doc = notesDoc();
    const statuses = (path: string, verb: string) => Object.keys(op(doc, path, verb).responses);
    expect(statuses('/api/notes/{id}', 'get')).to.deep.equal(['200', '304', '400', '406', '500', 'default']);
    expect(statuses('/api/notes/{id}', 'delete')).to.deep.equal(['204', '400', '500', 'default']);
    expect(statuses('/api/notes', 'get')).to.deep.equal(['200', '304', '400', '406', '500', 'default']);
    expect(statuses('/api/notes/{id}', 'put')).to.deep.equal(['200', '400', '406', '413', '415', '500', 'default']);
    expect(doc.components.responses.BadRequest!.description).to.match(/path or query parameter/);
  });

  it('marks a body of named parameters required only when an empty body (read as {}) would be refused', () => {
    class Tasks {
      touchTask() {
        return '';
      }
      renameTask() {
        return '';
      }
    }
    meta(
      Tasks,
      service(
        {
          touchTask: method(
            { id: t.u64(), by: t.string().default('nobody'), pinned: t.optional(t.bool()) },
            t.string(),
            { route: 'POST /tasks/:id/touch' },
          ),
          renameTask: method({ id: t.u64(), title: t.string() }, t.string(), { route: 'PATCH /tasks/:id' }),
        },
        { security: [] },
      ),
    );
    const required = (errorOnMissingKeys: MissingKeys) => {
      const doc = openApi(new Registry({ errorOnMissingKeys }).on(new Tasks()).endpoints, { prefix: '', info });
      return [
        op(doc, '/tasks/{id}/touch', 'post').requestBody.required,
        op(doc, '/tasks/{id}', 'patch').requestBody.required,
      ];
    };
    expect(required(false)).to.deep.equal([false, false]);
    expect(required('unless-default')).to.deep.equal([false, true]);
    expect(required(true)).to.deep.equal([true, true]);
  });

  it('keeps the array body of positional parameters', () => {
    class Pos {
      sendPair(a: string, b: number) {
        return `${a}${b}`;
      }
    }
    meta(Pos, service({ sendPair: method([t.string(), t.i32()], t.string()) }, { security: [] }));
    const o = op(openApi(new Registry().on(new Pos()).endpoints, { prefix: '', info }), '/sendPair', 'post');
    expect(o).not.to.have.property('parameters');
    expect(o.requestBody.description).to.equal('The 2 parameters, as an array in the order declared.');
  });
});
