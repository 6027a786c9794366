// openapi-typescript turns the documents into TypeScript types, and the compiler checks that they
// are the descriptors' `Infer` types as JSON carries them: every answer type, every body type, for
// the example application and for a service using every kind, and the path and query parameters
// of routes and named parameters. The checks are written to
// spec-output/openapi-types/ next to the generated files and compiled with the project's `tsc`;
// one check that must fail (a u64 as a bigint) proves the checks bite.
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS from 'openapi-typescript';
import { openApi, type OpenApiDocument } from '../../../../index.ts';
import { createExampleServer } from '../../../../examples/app.ts';
import { notesRegistry, zooRegistry } from './fixtures.ts';

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const dir = join(root, 'spec-output', 'openapi-types');

/**
 * The types a client generated from the document should see, from `Infer`:
 * - `Out<T>`, an answer: 64-bit integers (bigints) as `number` (format int64/uint64), bytes as
 *   `string` (base64 in JSON, a byte string in MessagePack and CBOR), an absent optional as `null`
 *   where writing writes one (in arrays and tuples), optional members as `?: T | null`;
 * - `In<T>`, a body, with the registry's default options: every member may be absent (it takes its
 *   default), optional and nullable ones may be `null`.
 */
const MAPPING = `
import type { Infer, Type } from '../../index.ts';

export type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export type Check<T extends true> = T;

type Simplify<T> = { [K in keyof T]: T[K] } & {};
type OptionalKeys<T> = { [K in keyof T]-?: {} extends Pick<T, K> ? K : never }[keyof T];
type Scalar<T> = T extends bigint ? number : T extends Uint8Array ? string : T;

export type Out<T> =
  T extends undefined ? null
  : T extends bigint | Uint8Array ? Scalar<T>
  : T extends readonly unknown[] ? (number extends T['length'] ? Out<T[number]>[] : { -readonly [K in keyof T]: Out<T[K]> })
  : T extends object
    ? string extends keyof T ? { [key: string]: Out<T[string]> }
    : Simplify<{ [K in Exclude<keyof T, OptionalKeys<T>>]: Out<T[K]> } & { [K in OptionalKeys<T>]?: Out<T[K]> | null }>
  : T;

export type In<T> =
  T extends undefined ? null
  : T extends bigint | Uint8Array ? Scalar<T>
  : T extends readonly unknown[] ? (number extends T['length'] ? In<T[number]>[] : { -readonly [K in keyof T]: In<T[K]> })
  : T extends object
    ? string extends keyof T ? { [key: string]: In<T[string]> }
    : Simplify<{ [K in keyof T]?: In<T[K]> }>
  : T;

type ContentOf<R> = R extends { content: infer C } ? C[keyof C] : never;
/** The body types of an operation's success answer, in every media type. */
export type Answer<O> = O extends { responses: infer R } ? { [S in keyof R]: S extends 200 | 201 | 202 | 203 ? ContentOf<R[S]> : never }[keyof R] : never;
/** The body types of an operation's request, in every media type, a body that may be left out (requestBody?) too. */
export type Body<O> = O extends { requestBody?: infer B } ? [NonNullable<B>] extends [never] ? never : NonNullable<B> extends { content: infer C } ? C[keyof C] : never : never;

type Params<P> = P extends readonly [infer Only extends Type] ? In<Infer<Only>> : { -readonly [K in keyof P]: P[K] extends Type ? In<Infer<P[K]>> : never };

/** For each method of a contract: its answer and body types are the descriptors', mapped. */
export type CheckContract<M, Ops> = {
  [K in keyof M & keyof Ops]: M[K] extends { params: infer P; returns: infer R extends Type }
    ? [
      R extends { kind: 'void' } ? Same<Answer<Ops[K]>, never> : Same<Answer<Ops[K]>, Out<Infer<R>>>,
      P extends readonly [] ? true : Same<Body<Ops[K]>, Params<P>>,
    ]
    : [false, false];
};
/** Every entry of a checked contract is [true, true]. */
export type AllTrue<C> = Same<C[keyof C], [true, true]>;
/**
 * For each method of a contract: its answer types are the descriptor's, mapped. For named
 * parameters, where the route puts each one decides the body (checked apart).
 */
export type CheckAnswers<M, Ops> = {
  [K in keyof M & keyof Ops]: M[K] extends { returns: infer R extends Type }
    ? (R extends { kind: 'void' } ? Same<Answer<Ops[K]>, never> : Same<Answer<Ops[K]>, Out<Infer<R>>>)
    : false;
};
`;

const CHECK_ZOO = `
import type { components, operations } from './zoo.ts';
import type { Infer } from '../../index.ts';
import type { Account, Search, ZooApi } from '../../spec/transports/rest/openapi/fixtures.ts';
import type { AllTrue, Check, CheckContract, In, Out, Same } from './mapping.ts';

type Zoo = CheckContract<typeof ZooApi['methods'], operations>;
export type Checks = [
  Check<AllTrue<Zoo>>,
  Check<Same<keyof Zoo, keyof typeof ZooApi['methods']>>,
  Check<Same<components['schemas']['Account.output'], Out<Account>>>,
  Check<Same<components['schemas']['Account.output.binary'], Out<Account>>>,
  Check<Same<components['schemas']['Account.input'], In<Account>>>,
  Check<Same<components['schemas']['Search'], In<Infer<typeof Search>>>>,
  Check<Same<components['schemas']['Account.output']['id'], number>>,
  // @ts-expect-error a u64 is a number to a generated client, not a bigint
  Check<Same<components['schemas']['Account.output']['id'], bigint>>,
  // @ts-expect-error an answer's members are all present but the optional ones
  Check<Same<components['schemas']['Account.output'], In<Account>>>,
];
`;

const CHECK_EXAMPLE = `
import type { operations } from './example.ts';
import type { BookApi, BookEventApi, UserApi } from '../../examples/contracts.ts';
import type { Book, BookUpdate } from '../../examples/records.ts';
import type { AllTrue, Body, Check, CheckAnswers, CheckContract, In, Same } from './mapping.ts';

type Users = CheckContract<typeof UserApi['methods'], operations>;
type Books = CheckAnswers<typeof BookApi['methods'], operations>;
export type Checks = [
  Check<AllTrue<Users>>,
  Check<Same<Books[keyof Books], true>>,
  // Every operation, the stream of the books' activity included (its items are OpenAPI 3.2's itemSchema).
  Check<Same<keyof Users | keyof Books | keyof typeof BookEventApi['methods'], keyof operations>>,
  // The routed methods: the body is the object of the parameters the path does not bind, by name,
  // for POST and PUT only (keys compared too: two objects of optional members are assignable both ways).
  Check<Same<Body<operations['createBook']>, In<{ book: Book }>>>,
  Check<Same<keyof Body<operations['createBook']>, 'book'>>,
  Check<Same<keyof NonNullable<Body<operations['createBook']>['book']>, keyof Book>>,
  Check<Same<Body<operations['updateBook']>, In<{ update: BookUpdate }>>>,
  Check<Same<keyof Body<operations['updateBook']>, 'update'>>,
  Check<Same<Body<operations['getBook'] | operations['listBooks'] | operations['searchBooks'] | operations['deleteBook']>, never>>,
];
`;

/** Routes and named parameters: each parameter's type where it travels (path, query, body). */
const CHECK_NOTES = `
import type { operations } from './notes.ts';
import type { Infer } from '../../index.ts';
import type { Note, NotePatch, NoteSearch } from '../../spec/transports/rest/openapi/fixtures.ts';
import type { Answer, Body, Check, In, Out, Same } from './mapping.ts';

type Path<O> = O extends { parameters: { path: infer P } } ? P : never;
type Query<O> = O extends { parameters: { query?: infer Q } } ? Q : never;
export type Checks = [
  Check<Same<Path<operations['getNote']>, { id: number }>>,
  Check<Same<Path<operations['updateNote']>, { id: number }>>,
  Check<Same<Path<operations['tagNotes']>, { tag: string }>>,
  Check<Same<Query<operations['getNote']>, never>>,
  Check<Same<Answer<operations['getNote']>, Out<Infer<typeof Note>>>>,
  // The object spread over the query is its members; with the default options each may be absent,
  // an optional one (no null in a query) as its value, a timestamp as its text.
  Check<Same<Query<operations['searchNotes']>, { query?: string; limit?: number; tag?: string[]; after?: string }>>,
  Check<Same<keyof NonNullable<Query<operations['searchNotes']>>, keyof typeof NoteSearch['fields']>>,
  Check<Same<Query<operations['findNotes']>, { kind?: 'draft' | 'done' | 3; since?: number; ids?: number[]; exact?: boolean }>>,
  // An array that [] does not fit is required.
  Check<Same<Query<operations['tagNotes']>, { ids: number[] }>>,
  Check<Same<Body<operations['updateNote']>, In<{ patch: Infer<typeof NotePatch> }>>>,
  Check<Same<Body<operations['moveNote']>, { folder?: string; position?: number }>>,
  Check<Same<Body<operations['getNote']>, never>>,
  // @ts-expect-error a path parameter is required
  Check<Same<Path<operations['getNote']>, { id?: number }>>,
];
`;

async function generate(name: string, doc: OpenApiDocument): Promise<void> {
  writeFileSync(join(dir, `${name}.ts`), await openapiTS(doc as never, { silent: true }));
}

describe('openApi: types generated from the document by openapi-typescript', function () {
  this.timeout(120_000);

  it('are the Infer types of the descriptors, as JSON carries them', async () => {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const info = { title: 'Types', version: '1' };
    await generate('zoo', openApi(zooRegistry().endpoints, { prefix: '/api', info }));
    await generate(
      'example',
      openApi(createExampleServer({ log: () => {} }).registry.endpoints, { prefix: '/api', info }),
    );
    await generate('notes', openApi(notesRegistry().endpoints, { prefix: '/api', info }));
    writeFileSync(join(dir, 'mapping.ts'), MAPPING);
    writeFileSync(join(dir, 'check-zoo.ts'), CHECK_ZOO);
    writeFileSync(join(dir, 'check-example.ts'), CHECK_EXAMPLE);
    writeFileSync(join(dir, 'check-notes.ts'), CHECK_NOTES);
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        extends: '../../tsconfig.json',
        compilerOptions: { noUnusedLocals: false },
        include: ['*.ts'],
      }),
    );
    const tsc = spawnSync(
      process.execPath,
      [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '--noEmit', '-p', dir],
      { encoding: 'utf8', cwd: root },
    );
    expect(tsc.status, `${tsc.stdout}${tsc.stderr}`).to.equal(0);
  });
});
