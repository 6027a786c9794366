// One suite, two transports: HttpServer on node:http, and the fetch handler behind a minimal
// node:http → Request adapter (spec/support/fetch-server.ts), as Deno or Bun would serve it.
import { toFetchHandler } from '../../transports/fetch/index.ts';
import { HttpServer } from '../../transports/http/index.ts';
import { fetchIp, fetchPlatform } from '../support/call-services.ts';
import { serveFetch } from '../support/fetch-server.ts';
import { callsConformance } from './calls.case.ts';
import { transportConformance } from './transport.case.ts';

describe('transports: conformance', () => {
  describe('HttpServer', () => {
    transportConformance(async (prefix, endpoints, options) => {
      const server = new HttpServer(options).mount(prefix, endpoints).bind(0);
      await server.start();
      return { url: server.url, stop: () => server.stop() };
    });
    describe('calls', () => {
      callsConformance({
        kind: 'HttpServer',
        async start(prefix, endpoints, options) {
          // The suite's timeouts are expected: not logged.
          const server = new HttpServer({ ...options, onError: () => {} }).mount(prefix, endpoints).bind(0);
          await server.start();
          return { url: server.url, stop: () => server.stop() };
        },
      });
    });
  });

  describe('toFetchHandler', () => {
    transportConformance((prefix, endpoints, options) => serveFetch(toFetchHandler(prefix, endpoints, options)));
    describe('calls', () => {
      callsConformance({
        kind: 'fetch',
        // As Deno serves it: the connection's info after the request, and heads larger than 16 KiB.
        start: (prefix, endpoints, options) =>
          serveFetch(toFetchHandler(prefix, endpoints, { ...options, ip: fetchIp }), {
            platform: fetchPlatform,
            maxHeaderSize: 256 * 1024,
          }),
      });
    });
  });
});
