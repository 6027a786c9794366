// `npm start`: the example server on PORT (default 8080). Ctrl-C stops it gracefully.
import { createExampleServer, endpointList } from './app.ts';

const port = Number(process.env.PORT ?? 8080);
const host = process.env.HOST ?? '127.0.0.1';
const { server, registry } = createExampleServer();
server.bind(port, host).withSignals();
await server.start();
console.log(`lacquer example server listening on ${server.url}`);
console.log(`  GET ${server.url}/api lists the endpoints:`);
for (const endpoint of endpointList('/api', registry)) console.log(`  ${endpoint}`);
await server.waitForSignal();
console.log('stopped');
