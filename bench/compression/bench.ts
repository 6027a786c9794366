// Compressed against identity answers: BookSearchResponse×1000 from lacquer's HttpServer in JSON,
// MessagePack and CBOR, each with `Accept-Encoding` identity, gzip and br; every answer checked
// (really compressed, inflating to the books), then the three codings of a codec loaded by autocannon
// in alternating rounds. Bytes per answer: the body as sent, and what autocannon read (headers included).
import { bundle, forkReady, type Forked } from '../http/forked.ts';
import { cpuMicrosOf } from '../http/proc.ts';
import { alternate, type Measured, type RoundsConfig } from '../http/rounds.ts';
import type { BooksReady } from './child.ts';
import { booksRequest, checkBooksAnswer, CODECS, CODINGS, type Codec, type Coding } from './requests.ts';
import { BOOKS, BOOKS_PATH } from './server.ts';

export const COMPRESSION_FULL: RoundsConfig = {
  connections: 50,
  pipelining: 1,
  rounds: 3,
  seconds: 3,
  warmupSeconds: 1,
};
export const COMPRESSION_QUICK: RoundsConfig = {
  connections: 50,
  pipelining: 1,
  rounds: 2,
  seconds: 1,
  warmupSeconds: 0.5,
};

export interface CodingMeasurement extends Measured {
  readonly coding: Coding;
  /** The answer's body as sent. */
  readonly bodyBytes: number;
}

export interface CompressionCase {
  readonly codec: Codec;
  /** The body's size before compression. */
  readonly identityBytes: number;
  /** identity, gzip, br. */
  readonly results: readonly CodingMeasurement[];
}

export interface CompressionResults {
  readonly config: RoundsConfig;
  /** `BookSearchResponse×1000, GET /api/listBooks` */
  readonly payload: string;
  readonly cases: readonly CompressionCase[];
}

export async function runCompressionBenchmarks(
  config: RoundsConfig,
  log: (line: string) => void,
): Promise<CompressionResults> {
  const file = await bundle(new URL('./child.ts', import.meta.url), 'compression-server');
  let server: Forked<BooksReady> | undefined;
  try {
    server = await forkReady<BooksReady>(file, [], 'bench compression server');
    const url = `http://127.0.0.1:${server.ready.port}`;
    const pid = server.child.pid!;
    const checked = new Map<string, { bodyBytes: number; identityBytes: number }>();
    for (const codec of CODECS) {
      for (const coding of CODINGS) checked.set(`${codec} ${coding}`, await checkBooksAnswer(url, codec, coding));
    }
    const cases: CompressionCase[] = [];
    for (const codec of CODECS) {
      log(`  compression: ${codec}, ${CODINGS.join(' / ')}`);
      const targets = CODINGS.map((coding) => ({
        name: `${codec} ${coding}`,
        url,
        request: booksRequest(codec, coding),
        cpuMicros: () => cpuMicrosOf(pid),
      }));
      const measured = await alternate(targets, config);
      cases.push({
        codec,
        identityBytes: checked.get(`${codec} identity`)!.identityBytes,
        results: measured.map((m, i) => ({ ...m, coding: CODINGS[i]!, bodyBytes: checked.get(m.name)!.bodyBytes })),
      });
    }
    return { config, payload: `${BOOKS.name}, GET ${BOOKS_PATH}`, cases };
  } finally {
    await server?.stop();
  }
}
