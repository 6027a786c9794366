// `npm start`: the example server on PORT (default 8080). Ctrl-C stops it gracefully.
import { createExampleServer, endpointList } from './app.ts';
import { buildPage } from './page/serve.ts';

const port = Number(process.env.PORT ?? 8080);
const host = process.env.HOST ?? '127.0.0.1';
const { server, registry } = createExampleServer();
server.bind(port, host).withSignals();
await buildPage(); // bundle the browser page now, so that a broken build shows at once
try {
  await server.start();
} catch (error) {
  // One line and no stack: the usual cause is another server (or this one, still running) on the port.
  const code = (error as NodeJS.ErrnoException).code;
  console.error(code === 'EADDRINUSE'
    ? `lacquer: port ${port} on ${host} is already in use (EADDRINUSE); set PORT=<another port> or stop the other process`
    : `lacquer: ${(error as Error).message}`);
  process.exit(1);
}
console.log(`lacquer example server listening on ${server.url}`);
console.log(`  ${server.url}/ is the browser page (JSON, MessagePack and CBOR through createClient)`);
console.log(`  GET ${server.url}/api lists the endpoints:`);
for (const endpoint of endpointList('/api', registry)) console.log(`  ${endpoint}`);
await server.waitForSignal();
console.log('stopped');
