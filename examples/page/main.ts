// The browser page of `npm start`: lists and creates users (UserApi, the specification's
// `{prefix}/{method}` endpoints) and searches and edits books (BookApi, resource routes: the client
// builds `/api/books/3` and `/api/books/search?query=…` from named arguments) through
// `createClient`, in the wire format picked on the page, sending the token field as a bearer token,
// and logs every exchange so the negotiation can be watched. The library's activity
// (BookEventApi, a stream) is shown live through a native EventSource and the typed client.
// Bundled by examples/page/serve.ts with esbuild; served under a CSP without 'unsafe-eval'.
import { cbor } from '../../codecs/cbor/index.ts';
import type { Codec } from '../../core/codec.ts';
import { formatF32 } from '../../codecs/json/format-f32.ts';
import { json } from '../../codecs/json/index.ts';
import { msgpack } from '../../codecs/msgpack/index.ts';
import { canGenerateCode } from '../../core/codegen/codegen.ts';
import { HttpError, type Contract, type Methods } from '../../index.ts';
import { createClient, type Client } from '../../transports/client/index.ts';
import { BookApi, BookEventApi, UserApi } from '../contracts.ts';
import type { Book, BookEvent, BookEventsRequest, User } from '../records.ts';

const CODECS = { json, msgpack, cbor } satisfies Record<string, Codec>;
type CodecName = keyof typeof CODECS;

/** Where the registry is: this origin's `/api`, or `?api=http://host:port/api` for another server. */
const baseUrl = new URLSearchParams(location.search).get('api') ?? '/api';

const $ = <E extends HTMLElement>(selector: string): E => {
  const element = document.querySelector<E>(selector);
  if (element === null) throw new Error(`the page lacks ${selector}`);
  return element;
};

/** Bytes as the log shows them: text for JSON, hex for the binary formats, cut at 48 bytes. */
function preview(bytes: Uint8Array, contentType: string | null): string {
  if (bytes.byteLength === 0) return '';
  const cut = bytes.subarray(0, 48);
  const more = bytes.byteLength > cut.byteLength ? ' …' : '';
  if (contentType?.includes('json')) return new TextDecoder().decode(cut) + more;
  return Array.from(cut, (b) => b.toString(16).padStart(2, '0')).join(' ') + more;
}

/** Adds an exchange to the log: a headline, then the request headers, then the bytes. */
function addLog(headline: string, lines: readonly string[], failed: boolean): void {
  const item = document.createElement('li');
  const head = document.createElement('div');
  head.textContent = headline;
  if (failed) head.className = 'status-error';
  item.append(head);
  for (const line of lines) {
    const detail = document.createElement('div');
    detail.className = 'bytes';
    detail.textContent = line;
    item.append(detail);
  }
  $('#log').prepend(item);
}

/** The media types of a stream's answer (JSON Lines, Server-Sent Events, CBOR and MessagePack sequences). */
const STREAM_TYPE = /^(application\/(jsonl|[a-z]+-seq)|text\/event-stream)\s*(;|$)/;

/** `fetch`, logging what was sent and what the server chose to answer (of a stream, its headers only). */
async function loggingFetch(request: Request): Promise<Response> {
  const sent = new Uint8Array(await request.clone().arrayBuffer());
  const sentType = request.headers.get('content-type');
  const target = new URL(request.url);
  const call = `${request.method} ${target.pathname}${target.search}`;
  const auth = request.headers.get('authorization') === null ? '(none)' : 'Bearer …';
  const asked = `request Content-Type: ${sentType ?? '(no body)'} · Accept: ${request.headers.get('accept')} · Authorization: ${auth}`;
  const sentBytes = sent.byteLength > 0 ? [`sent ${sent.byteLength} bytes: ${preview(sent, sentType)}`] : [];
  try {
    const response = await fetch(request);
    const answered = response.headers.get('content-type');
    if (answered !== null && STREAM_TYPE.test(answered)) {
      // Reading a copy of the body here would hold the answer back until the stream ends.
      addLog(
        `${call} → ${response.status} ${answered}, a stream (its events are in the live section)`,
        [asked],
        !response.ok,
      );
      return response;
    }
    const received = new Uint8Array(await response.clone().arrayBuffer());
    const got = received.byteLength > 0 ? [`got: ${preview(received, answered)}`] : [];
    // Readable from this origin; from another, only if the API server's CORS option exposes them.
    const shown = ['x-request-id', 'location', 'www-authenticate'].flatMap((name) => {
      const value = response.headers.get(name);
      return value === null ? [] : [`${name}: ${value}`];
    });
    const headline = `${call} → ${response.status} ${answered ?? '(no body)'}, ${received.byteLength} bytes`;
    addLog(headline, [asked, ...sentBytes, ...shown, ...got], !response.ok);
    return response;
  } catch (error) {
    addLog(
      `${call} → ${String(error)}`,
      [asked, 'no answer could be read: a network failure, or refused by CORS'],
      true,
    );
    throw error;
  }
}

/** `Authorization: Bearer <the token field>`, read at each call so that an edit applies at once; none when empty. */
function authorization(): HeadersInit {
  const token = $<HTMLInputElement>('#token').value.trim();
  return token === '' ? {} : { authorization: `Bearer ${token}` };
}

const options = { baseUrl, fetch: loggingFetch, headers: authorization };
/** A client of `contract` per wire format. */
function clientsOf<M extends Methods>(contract: Contract<M>): Record<CodecName, Client<M>> {
  return {
    json: createClient(contract, { ...options, codec: json }),
    msgpack: createClient(contract, { ...options, codec: msgpack }),
    cbor: createClient(contract, { ...options, codec: cbor }),
  };
}
const users = clientsOf(UserApi);
const books = clientsOf(BookApi);
const events = clientsOf(BookEventApi);

function picked(): CodecName {
  const value = document.querySelector<HTMLInputElement>('input[name=codec]:checked')?.value;
  return value !== undefined && Object.hasOwn(CODECS, value) ? (value as CodecName) : 'json';
}
const usersApi = () => users[picked()];
const booksApi = () => books[picked()];

function describe(user: User): string {
  return `{ id: ${user.id}n, name: ${JSON.stringify(user.name)}, weight: ${formatF32(user.weight)} }`;
}

/** A problem document in one line: `503 Service Unavailable: the ticker stopped ...`. */
function problemText(problem: { status?: unknown; title?: unknown; detail?: unknown }): string {
  return `${String(problem.status)} ${String(problem.title ?? '')}: ${String(problem.detail ?? '')}`;
}

function showError(error: unknown): void {
  const out = $('#error');
  out.className = 'failed';
  if (error instanceof HttpError) {
    const where = error.code === undefined ? '' : ` [${error.code} at ${error.path === '' ? 'the root' : error.path}]`;
    const hint = error.status === 401 ? ' (check the token field)' : '';
    out.textContent = `HttpError ${error.status} ${error.title ?? ''}: ${error.detail}${where}${hint}`;
  } else {
    out.textContent = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  }
}

/** Runs one action, counting pending ones in `body[data-pending]` (the browser spec waits on it). */
async function run(action: () => Promise<void>): Promise<void> {
  const body = document.body;
  body.dataset.pending = String(Number(body.dataset.pending ?? 0) + 1);
  $('#status').textContent = 'working…';
  try {
    await action();
  } catch (error) {
    showError(error);
  } finally {
    const left = Number(body.dataset.pending) - 1;
    body.dataset.pending = String(left);
    if (left === 0) $('#status').textContent = `ready · API ${new URL(baseUrl, location.href).href}`;
  }
}

async function reload(): Promise<void> {
  let users: User[];
  try {
    users = await usersApi().getAllUsers();
  } catch (error) {
    $('#users tbody').replaceChildren(); // no stale rows under a 401
    throw error;
  }
  const rows = users.map((user) => {
    const row = document.createElement('tr');
    row.dataset.id = String(user.id);
    for (const text of [String(user.id), typeof user.id, user.name, formatF32(user.weight)]) {
      const cell = document.createElement('td');
      cell.textContent = text;
      row.append(cell);
    }
    return row;
  });
  $('#users tbody').replaceChildren(...rows);
}

/** Reads an id field as a bigint; BigInt() refuses fractions and garbage. */
function idFrom(input: HTMLInputElement): bigint {
  try {
    return BigInt(input.value.trim());
  } catch {
    throw new RangeError(`'${input.value}' is not an integer id`);
  }
}

$('#create').addEventListener('submit', (event) => {
  event.preventDefault();
  void run(async () => {
    const user = await usersApi().createUser({
      id: idFrom($('#create-id')),
      name: $<HTMLInputElement>('#create-name').value,
      weight: Number($<HTMLInputElement>('#create-weight').value),
    });
    $('#created').textContent = `created ${describe(user)}`;
    await reload();
  });
});

$('#find').addEventListener('submit', (event) => {
  event.preventDefault();
  void run(async () => {
    $('#found').textContent = '';
    const user = await usersApi().getUserById(idFrom($('#find-id')));
    $('#found').textContent = describe(user);
  });
});

async function reloadBooks(): Promise<void> {
  const list = await booksApi().listBooks(); // GET /api/books
  const rows = list.map((book) => {
    const row = document.createElement('tr');
    row.dataset.id = String(book.id);
    for (const text of [String(book.id), book.title, book.author, String(book.year)]) {
      const cell = document.createElement('td');
      cell.textContent = text;
      row.append(cell);
    }
    return row;
  });
  $('#books tbody').replaceChildren(...rows);
}

/** Reads a field as an integer; the client checks the range of its descriptor (an i32) before sending. */
function integerFrom(input: HTMLInputElement): number {
  const value = Number(input.value.trim());
  if (input.value.trim() === '' || !Number.isInteger(value)) throw new RangeError(`'${input.value}' is not an integer`);
  return value;
}

function describeBook(book: Book): string {
  return `${book.id}: ${book.title} (${book.author}, ${book.year})`;
}

$('#search').addEventListener('submit', (event) => {
  event.preventDefault();
  void run(async () => {
    $('#searched').textContent = '';
    // GET /api/books/search?query=…&limit=…: the members of `search` become the query string.
    const found = await booksApi().searchBooks({
      search: { query: $<HTMLInputElement>('#search-query').value, limit: integerFrom($('#search-limit')) },
    });
    const more = found.has_more ? ', more left' : '';
    $('#searched').textContent =
      `${found.books.length} of ${found.total_count}${more}: ${found.books.map((b) => b.title).join('; ')}`;
  });
});

$('#edit-load').addEventListener(
  'click',
  () =>
    void run(async () => {
      $('#edited').textContent = '';
      const book = await booksApi().getBook({ id: integerFrom($('#edit-id')) }); // GET /api/books/<id>
      $<HTMLInputElement>('#edit-title').value = book.title;
      $<HTMLInputElement>('#edit-author').value = book.author;
      $('#edited').textContent = `loaded ${describeBook(book)}`;
    }),
);

$('#edit').addEventListener('submit', (event) => {
  event.preventDefault();
  void run(async () => {
    $('#edited').textContent = '';
    const book = await booksApi().updateBook({
      // PUT /api/books/<id>, the body { update }
      id: integerFrom($('#edit-id')),
      update: { title: $<HTMLInputElement>('#edit-title').value, author: $<HTMLInputElement>('#edit-author').value },
    });
    $('#edited').textContent = `updated ${describeBook(book)}`;
    await reloadBooks();
  });
});

// POST /api/books/import: the file's books sent as a sequence in the picked codec (JSON Lines, a CBOR
// or a MessagePack sequence), which the server reads book by book. The client writes them all before
// sending, so a book that does not fit its descriptor is refused before anything is sent.
$('#import').addEventListener('submit', (event) => {
  event.preventDefault();
  void run(async () => {
    $('#imported').textContent = '';
    const file = $<HTMLInputElement>('#import-file').files?.[0];
    if (file === undefined) throw new Error('pick a JSON Lines file first');
    const lines = (await file.text()).split('\n').filter((line) => line.trim() !== '');
    const report = await booksApi().importBooks({ books: lines.map((line) => JSON.parse(line) as Book) });
    const skipped = report.skipped.length === 0 ? '' : `, skipped ${report.skipped.join(', ')} (taken)`;
    $('#imported').textContent = `imported ${report.imported}${skipped}`;
    await reloadBooks();
  });
});

const eventCount = (n: number) => `${n} event${n === 1 ? '' : 's'}`;

/**
 * One column of the live section: its events as they arrive, then how the stream ended. The state
 * (`data-state`: open, ended, stopped, failed) and each event's fields (`data-*`) are what the browser spec reads.
 */
class Lane {
  readonly #root: HTMLElement;
  #count = 0;
  constructor(name: string) {
    this.#root = $(`#lane-${name}`);
    this.#root.querySelector('ol')!.replaceChildren();
    this.#show('open', 'open, waiting for events…');
  }

  add(at: string, bookId: number, text: string): void {
    const item = document.createElement('li');
    Object.assign(item.dataset, { at, bookId: String(bookId), text });
    item.textContent = `${at.slice(11, 23)} #${bookId} ${text}`;
    this.#root.querySelector('ol')!.append(item);
    this.#show('open', `open, ${eventCount(++this.#count)}`);
  }

  ended(): void {
    this.#show('ended', `ended after ${eventCount(this.#count)}`);
  }

  stopped(): void {
    this.#show('stopped', `stopped after ${eventCount(this.#count)}`);
  }

  failed(why: string): void {
    this.#show('failed', `failed after ${eventCount(this.#count)}: ${why}`);
  }

  #show(state: string, text: string): void {
    this.#root.dataset.state = state;
    this.#root.querySelector('output')!.textContent = text;
  }
}

/** Reads the live section's fields; the client checks them against BookEventsRequest (u32) before sending. */
function watchRequest(): BookEventsRequest {
  return { count: integerFrom($('#live-count')), failAfter: integerFrom($('#live-fail')) };
}

/**
 * The stream through the browser's own EventSource: items are `message` events, the clean end an
 * `end` event, an error an `error` event whose data is the problem document. EventSource reconnects
 * whenever a connection ends, so it is closed on `end` and on `error`. The browser's own `error`
 * (a connection lost, or an answer that is no stream, such as a 400) is a plain Event: no status.
 */
function watchWithEventSource(request: BookEventsRequest, stop: AbortSignal): Promise<void> {
  const lane = new Lane('sse');
  const query = new URLSearchParams({ count: String(request.count), failAfter: String(request.failAfter) });
  const source = new EventSource(`${baseUrl}/books/events?${query}`);
  return new Promise<void>((resolve) => {
    const finish = (outcome: () => void) => {
      source.close();
      stop.removeEventListener('abort', stopped);
      outcome();
      resolve();
    };
    const stopped = () => finish(() => lane.stopped());
    stop.addEventListener('abort', stopped);
    source.addEventListener('message', (event) => {
      const item = JSON.parse(event.data as string) as { at: string; bookId: number; text: string };
      lane.add(item.at, item.bookId, item.text);
    });
    source.addEventListener('end', () => finish(() => lane.ended()));
    source.addEventListener('error', (event) =>
      finish(() =>
        lane.failed(
          event instanceof MessageEvent
            ? problemText(JSON.parse(event.data as string) as object)
            : 'the connection failed (EventSource tells no status)',
        ),
      ),
    );
  });
}

/** The stream through the typed client in `codec`: an AsyncIterable of decoded, checked BookEvents. */
async function watchWithClient(codec: CodecName, request: BookEventsRequest, stop: AbortSignal): Promise<void> {
  const lane = new Lane(codec);
  try {
    const stream: AsyncIterable<BookEvent> = await events[codec].listBookEvents({ watch: request }, { signal: stop });
    for await (const event of stream) lane.add(event.at.toISOString(), event.bookId, event.text);
    lane.ended();
  } catch (error) {
    if (stop.aborted) lane.stopped();
    else lane.failed(error instanceof HttpError ? problemText(error) : String(error));
  }
}

let watching: AbortController | undefined;
$('#live-watch').addEventListener(
  'click',
  () =>
    void run(async () => {
      watching?.abort();
      const stop = (watching = new AbortController()).signal;
      const request = watchRequest();
      await Promise.all([
        watchWithEventSource(request, stop),
        ...(Object.keys(CODECS) as CodecName[]).map((codec) => watchWithClient(codec, request, stop)),
      ]);
    }),
);
$('#live-stop').addEventListener('click', () => watching?.abort());

/** Both lists, books first: they are public, so they load even when the token is refused. */
async function reloadAll(): Promise<void> {
  await reloadBooks();
  await reload();
}

for (const radio of document.querySelectorAll<HTMLInputElement>('input[name=codec]')) {
  radio.addEventListener('change', () => void run(reloadAll));
}
$('#reload').addEventListener('click', () => void run(reload));
$('#reload-books').addEventListener('click', () => void run(reloadBooks));
$('#token').addEventListener('change', () => void run(reload));
$('#clear').addEventListener('click', () => $('#log').replaceChildren());

const codegen = canGenerateCode();
$('#codegen').textContent = codegen
  ? 'code generation allowed: lacquer runs generated readers and writers'
  : "code generation blocked (CSP without 'unsafe-eval'): lacquer runs its closures";

/**
 * For the console (and the browser spec): `await demo.users.cbor.getAllUsers()`, `await demo.books.json.getBook({ id: 1 })`,
 * `for await (const e of await demo.events.msgpack.listBookEvents({ watch: { count: 3 } })) console.log(e)`.
 */
Object.assign(globalThis, { demo: { users, books, events, HttpError, codegen, baseUrl } });

// The HTML starts at 1 pending, covering the time before this script ran; the first load takes over.
document.body.dataset.pending = '0';
void run(reloadAll);
