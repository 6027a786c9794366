// `npm start`: the example server on PORT (default 8080). Ctrl-C stops it gracefully.
// The bearer tokens: LACQUER_DEMO_TOKEN (default demo-token) and LACQUER_READONLY_TOKEN (default
// read-only-token). A line per call goes to stdout: `POST /api/books 201 0.4 ms req=<id> ...` (for a
// stream, when its answer begins).
import { createExampleServer, exampleRoutes } from './app.ts';
import { demoTokens, type DemoTokens } from './auth.ts';
import { buildPage } from './page/serve.ts';

/** One line on stderr, no stack, and a non-zero exit. */
function fail(message: string): never {
  console.error(`lacquer: ${message}`);
  process.exit(1);
}

const port = Number(process.env.PORT ?? 8080);
const host = process.env.HOST ?? '127.0.0.1';
let tokens: DemoTokens;
try {
  tokens = demoTokens();
} catch (error) {
  fail((error as Error).message);
}
const { server, registry } = createExampleServer({ tokens });
server.bind(port, host).withSignals();
await buildPage(); // bundle the browser page now, so that a broken build shows at once
try {
  await server.start();
} catch (error) {
  // One line and no stack: the usual cause is another server (or this one, still running) on the port.
  const code = (error as NodeJS.ErrnoException).code;
  fail(
    code === 'EADDRINUSE'
      ? `port ${port} on ${host} is already in use (EADDRINUSE); set PORT=<another port> or stop the other process`
      : (error as Error).message,
  );
}
console.log(`lacquer example server listening on ${server.url}`);
console.log(`  ${server.url}/ is the browser page (JSON, MessagePack and CBOR through createClient)`);
console.log(`  ${server.url}/docs is the API reference (Swagger UI on ${server.url}/api/openapi.json)`);
console.log(
  `  POST ${server.url}/rpc answers JSON-RPC 2.0, and POST ${server.url}/mcp is an MCP server (Streamable HTTP), the same services`,
);
console.log(`  GET ${server.url}/api lists the endpoints:`);
for (const route of exampleRoutes(registry)) console.log(`  ${route}`);
console.log('  reading books is public; every other endpoint needs Authorization: Bearer <token>:');
const width = Math.max(tokens.demo.length, tokens.readOnly.length) + 2;
console.log(`    ${tokens.demo.padEnd(width)}reads and writes (LACQUER_DEMO_TOKEN)`);
console.log(`    ${tokens.readOnly.padEnd(width)}reads only: writes answer 403 (LACQUER_READONLY_TOKEN)`);
console.log(`  try: curl '${server.url}/api/books/search?query=programming&limit=1'`);
console.log(`  try: curl -N -H 'Accept: application/jsonl' '${server.url}/api/books/events?count=5'`);
console.log(`  try: curl -H 'Authorization: Bearer ${tokens.demo}' ${server.url}/api/getAllUsers`);
await server.waitForSignal();
console.log('stopped');
