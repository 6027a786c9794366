// The compression part's server: lacquer's HttpServer, compression on by default (br at quality 4,
// gzip at zlib's default level, 1 KiB threshold), one endpoint `GET /api/listBooks` answering the
// codec bench's BookSearchResponse with 1,000 books, in JSON, MessagePack or CBOR by `Accept`.
import { Registry, meta, method, service } from '../../index.ts';
import { HttpServer } from '../../transports/http/index.ts';
import { BookSearchResponse } from '../../examples/records.ts';
import { PAYLOADS } from '../payloads.ts';
import { PREFIX } from '../http/data.ts';
import type { RunningServer } from '../http/servers/types.ts';

/** The codec bench's BookSearchResponse×1000: 103,168 bytes of JSON. */
export const BOOKS = PAYLOADS.find((p) => p.name === 'BookSearchResponse×1000')!;
export const BOOKS_PATH = `${PREFIX}/listBooks`;

export class BooksService {
  listBooks(): BookSearchResponse {
    return BOOKS.value as BookSearchResponse;
  }
}

meta(BooksService, service({ listBooks: method([], BookSearchResponse) }));

export async function startBooksServer(port = 0): Promise<RunningServer> {
  const server = await new HttpServer()
    .mount(PREFIX, new Registry().on(new BooksService()).endpoints)
    .bind(port)
    .start();
  return { port: server.port, close: () => server.stop() };
}
