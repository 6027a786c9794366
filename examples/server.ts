// `npm start`: the example server on PORT (default 8080). Ctrl-C stops it gracefully.
import { createExampleServer, endpointList } from './app.ts';
import { buildPage } from './page/serve.ts';

const port = Number(process.env.PORT ?? 8080);
const host = process.env.HOST ?? '127.0.0.1';
const { server, registry } = createExampleServer();
server.bind(port, host).withSignals();
await buildPage(); // bundle the browser page now, so that a broken build shows at once
await server.start();
console.log(`lacquer example server listening on ${server.url}`);
console.log(`  ${server.url}/ is the browser page (JSON, MessagePack and CBOR through createClient)`);
console.log(`  GET ${server.url}/api lists the endpoints:`);
for (const endpoint of endpointList('/api', registry)) console.log(`  ${endpoint}`);
await server.waitForSignal();
console.log('stopped');
