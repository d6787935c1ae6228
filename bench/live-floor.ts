// The floor of the live bench (bench/live.ts): what Node itself holds for the bench's connections,
// with none of the service's code. A bare HTTP server answers each POST /graphql/stream with 200
// text/event-stream and a comment, and holds it; a ws server on /graphql acknowledges each
// connection_init and holds the socket. The load process opens the same subscribers against it as
// against the service, and the bench weighs it as it weighs an instance (the same node flags and
// environment, full collections through the inspector). /readyz answers 200 (spawnServer waits for
// it); /metrics answers the used heap in the line the bench reads (nodejs_heap_size_used_bytes).
import http from 'node:http';
import { WebSocketServer } from 'ws';

const server = http.createServer((req, res) => {
  if (req.url === '/readyz') return void res.end('ok');
  if (req.url === '/metrics') return void res.end(`nodejs_heap_size_used_bytes ${process.memoryUsage().heapUsed}\n`);
  if (req.url !== '/graphql/stream') return void res.writeHead(404).end();
  req.resume();
  req.once('end', () => {
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
    res.write(':\n\n');
  });
});
// The service takes no socket timeout for a stream either.
server.requestTimeout = 0;

const sockets = new WebSocketServer({
  server,
  path: '/graphql',
  handleProtocols: (protocols) => (protocols.has('graphql-transport-ws') ? 'graphql-transport-ws' : false),
});
sockets.on('connection', (ws) =>
  ws.on('message', (raw) => {
    if ((raw as Buffer).toString('utf8').includes('"connection_init"')) ws.send('{"type":"connection_ack"}');
  }),
);

server.listen(Number(process.env.PORT), process.env.HOST ?? '127.0.0.1');
process.once('SIGTERM', () => {
  for (const ws of sockets.clients) ws.terminate();
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
