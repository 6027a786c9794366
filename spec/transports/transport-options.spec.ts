// The options HttpServer and toFetchHandler share: the same defaults from both entries, the same
// checks with the same messages (each naming its adapter), and the one difference kept on purpose:
// HttpServer wants a finite maxBodyBytes, toFetchHandler (like a Registry) also takes Infinity.
import { expect } from 'chai';
import { Registry } from '../../index.ts';
import * as fetch from '../../transports/fetch/index.ts';
import * as http from '../../transports/http/index.ts';

const endpoints = new Registry().endpoints;

/** The shared options, each with an invalid value and the message both adapters give after their name. */
const invalid: readonly [fetch.FetchHandlerOptions & http.HttpServerOptions, string, ErrorConstructor][] = [
  [{ handlerTimeoutMs: -1 }, 'handlerTimeoutMs must be a finite number ≥ 0, got -1', RangeError],
  [{ handlerTimeoutMs: Infinity }, 'handlerTimeoutMs must be a finite number ≥ 0, got Infinity', RangeError],
  [{ maxCallsInFlight: 0 }, 'maxCallsInFlight must be an integer ≥ 1 or Infinity, got 0', RangeError],
  [{ maxCallsInFlight: 1.5 }, 'maxCallsInFlight must be an integer ≥ 1 or Infinity, got 1.5', RangeError],
  [{ maxBufferedBodyBytes: -1 }, 'maxBufferedBodyBytes must be a number ≥ 0 or Infinity, got -1', RangeError],
  [{ maxBufferedBodyBytes: NaN }, 'maxBufferedBodyBytes must be a number ≥ 0 or Infinity, got NaN', RangeError],
  [{ compression: { threshold: -1 } }, 'compression.threshold must be an integer ≥ 0, got -1', RangeError],
  [
    { trustProxy: 'yes' as unknown as boolean },
    'trustProxy must be a boolean, a number of hops ≥ 0 or a function, got yes',
    TypeError,
  ],
];

describe('the options HttpServer and toFetchHandler share', () => {
  it('have the same defaults from both entries', () => {
    expect(fetch.DEFAULT_MAX_CALLS_IN_FLIGHT).to.equal(http.DEFAULT_MAX_CALLS_IN_FLIGHT).and.equal(10_000);
    expect(fetch.DEFAULT_MAX_BUFFERED_BODY_BYTES)
      .to.equal(http.DEFAULT_MAX_BUFFERED_BODY_BYTES)
      .and.equal(128 * 1024 * 1024);
    expect(fetch.DEFAULT_FETCH_HANDLER_TIMEOUT_MS).to.equal(http.DEFAULT_HANDLER_TIMEOUT_MS).and.equal(30_000);
    expect(fetch.DEFAULT_COMPRESSION_THRESHOLD).to.equal(http.DEFAULT_COMPRESSION_THRESHOLD).and.equal(1024);
  });

  for (const [options, message, type] of invalid) {
    it(`are refused by both with the same message: ${message}`, () => {
      expect(() => new http.HttpServer(options)).to.throw(type, `HttpServer: ${message}`);
      expect(() => fetch.toFetchHandler('/api', endpoints, options)).to.throw(type, `toFetchHandler: ${message}`);
    });
  }

  it('take every valid value, at the edges too', () => {
    const edges: fetch.FetchHandlerOptions & http.HttpServerOptions = {
      maxBodyBytes: 0,
      handlerTimeoutMs: 0,
      maxCallsInFlight: Infinity,
      maxBufferedBodyBytes: Infinity,
      compression: false,
      trustProxy: 2,
      cors: { origins: ['https://app.example'] },
    };
    expect(() => new http.HttpServer(edges)).not.to.throw();
    expect(() => fetch.toFetchHandler('/api', endpoints, edges)).not.to.throw();
  });

  it('keep one difference: HttpServer wants a finite maxBodyBytes, toFetchHandler takes Infinity', () => {
    expect(() => new http.HttpServer({ maxBodyBytes: Infinity })).to.throw(
      RangeError,
      'HttpServer: maxBodyBytes must be a finite number ≥ 0, got Infinity',
    );
    expect(() => new http.HttpServer({ maxBodyBytes: -1 })).to.throw(
      RangeError,
      'HttpServer: maxBodyBytes must be a finite number ≥ 0, got -1',
    );
    expect(() => fetch.toFetchHandler('/api', endpoints, { maxBodyBytes: -1 })).to.throw(
      RangeError,
      'toFetchHandler: maxBodyBytes must be a number ≥ 0, got -1',
    );
    expect(() => fetch.toFetchHandler('/api', endpoints, { maxBodyBytes: Infinity })).not.to.throw();
  });
});
