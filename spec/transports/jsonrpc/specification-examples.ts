// The examples of the JSON-RPC 2.0 specification (jsonrpc.org/specification, section 7), as
// written there: each request, and the answer it gives (none for notifications). The services
// below implement the methods the examples call.
import { meta, method, service, t } from '../../../index.ts';

export interface Example {
  readonly name: string;
  readonly request: string;
  /** The answer's JSON; `undefined`: no answer at all (204). */
  readonly answer: string | undefined;
}

export const EXAMPLES: readonly Example[] = [
  {
    name: 'rpc call with positional parameters',
    request: '{"jsonrpc": "2.0", "method": "subtract", "params": [42, 23], "id": 1}',
    answer: '{"jsonrpc": "2.0", "result": 19, "id": 1}',
  },
  {
    name: 'rpc call with positional parameters, reversed',
    request: '{"jsonrpc": "2.0", "method": "subtract", "params": [23, 42], "id": 2}',
    answer: '{"jsonrpc": "2.0", "result": -19, "id": 2}',
  },
  {
    name: 'rpc call with named parameters',
    request: '{"jsonrpc": "2.0", "method": "subtract", "params": {"subtrahend": 23, "minuend": 42}, "id": 3}',
    answer: '{"jsonrpc": "2.0", "result": 19, "id": 3}',
  },
  {
    name: 'rpc call with named parameters, in another order',
    request: '{"jsonrpc": "2.0", "method": "subtract", "params": {"minuend": 42, "subtrahend": 23}, "id": 4}',
    answer: '{"jsonrpc": "2.0", "result": 19, "id": 4}',
  },
  {
    name: 'a notification',
    request: '{"jsonrpc": "2.0", "method": "update", "params": [1,2,3,4,5]}',
    answer: undefined,
  },
  {
    name: 'a notification of a method that does not exist',
    request: '{"jsonrpc": "2.0", "method": "foobar"}',
    answer: undefined,
  },
  {
    name: 'rpc call of non-existent method',
    request: '{"jsonrpc": "2.0", "method": "foobar", "id": "1"}',
    answer: '{"jsonrpc": "2.0", "error": {"code": -32601, "message": "Method not found"}, "id": "1"}',
  },
  {
    name: 'rpc call with invalid JSON',
    request: '{"jsonrpc": "2.0", "method": "foobar, "params": "bar", "baz]',
    answer: '{"jsonrpc": "2.0", "error": {"code": -32700, "message": "Parse error"}, "id": null}',
  },
  {
    name: 'rpc call with invalid Request object',
    request: '{"jsonrpc": "2.0", "method": 1, "params": "bar"}',
    answer: '{"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request"}, "id": null}',
  },
  {
    name: 'rpc call Batch, invalid JSON',
    request:
      '[\n  {"jsonrpc": "2.0", "method": "sum", "params": [1,2,4], "id": "1"},\n  {"jsonrpc": "2.0", "method"\n]',
    answer: '{"jsonrpc": "2.0", "error": {"code": -32700, "message": "Parse error"}, "id": null}',
  },
  {
    name: 'rpc call with an empty Array',
    request: '[]',
    answer: '{"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request"}, "id": null}',
  },
  {
    name: 'rpc call with an invalid Batch (but not empty)',
    request: '[1]',
    answer: '[{"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request"}, "id": null}]',
  },
  {
    name: 'rpc call with invalid Batch',
    request: '[1,2,3]',
    answer:
      '[{"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request"}, "id": null},' +
      '{"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request"}, "id": null},' +
      '{"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request"}, "id": null}]',
  },
  {
    name: 'rpc call Batch',
    request: `[
        {"jsonrpc": "2.0", "method": "sum", "params": [1,2,4], "id": "1"},
        {"jsonrpc": "2.0", "method": "notify_hello", "params": [7]},
        {"jsonrpc": "2.0", "method": "subtract", "params": [42,23], "id": "2"},
        {"foo": "boo"},
        {"jsonrpc": "2.0", "method": "foo.get", "params": {"name": "myself"}, "id": "5"},
        {"jsonrpc": "2.0", "method": "get_data", "id": "9"}
    ]`,
    answer: `[
        {"jsonrpc": "2.0", "result": 7, "id": "1"},
        {"jsonrpc": "2.0", "result": 19, "id": "2"},
        {"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request"}, "id": null},
        {"jsonrpc": "2.0", "error": {"code": -32601, "message": "Method not found"}, "id": "5"},
        {"jsonrpc": "2.0", "result": ["hello", 5], "id": "9"}
    ]`,
  },
  {
    name: 'rpc call Batch (all notifications)',
    request: `[
        {"jsonrpc": "2.0", "method": "notify_sum", "params": [1,2,4]},
        {"jsonrpc": "2.0", "method": "notify_hello", "params": [7]}
    ]`,
    answer: undefined,
  },
];

/** The methods the examples call; `heard` keeps what notifications delivered. */
export class ExampleService {
  readonly heard: unknown[][] = [];
  subtract({ minuend, subtrahend }: { minuend: number; subtrahend: number }): number {
    return minuend - subtrahend;
  }
  update(...args: unknown[]): void {
    this.heard.push(['update', ...args.slice(0, 5)]);
  }
  sum(a: number, b: number, c: number): number {
    return a + b + c;
  }
  notify_hello(n: number): void {
    this.heard.push(['notify_hello', n]);
  }
  notify_sum(a: number, b: number, c: number): void {
    this.heard.push(['notify_sum', a + b + c]);
  }
  get_data(): [string, number] {
    return ['hello', 5];
  }
}

meta(
  ExampleService,
  service({
    subtract: method({ minuend: t.i32(), subtrahend: t.i32() }, t.i32()),
    update: method([t.i32(), t.i32(), t.i32(), t.i32(), t.i32()], t.void()),
    sum: method([t.i32(), t.i32(), t.i32()], t.i32()),
    notify_hello: method([t.i32()], t.void()),
    notify_sum: method([t.i32(), t.i32(), t.i32()], t.void()),
    get_data: method([], t.tuple([t.string(), t.i32()])),
  }),
);
