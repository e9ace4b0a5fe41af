// The yardstick for the API benchmark: a bare Fastify hello-world in a process of its own, the
// fastest a Fastify route can answer on this machine. Prints its port on stdout when listening.
//
// With --portal-headers it also sends the headers every response of the portal carries (the
// version, helmet's fixed headers, HSTS, a CSP with a fresh nonce, a request id, cache-control),
// built by the server's own code: a layer for the reader, to show what those headers cost alone.
import { randomBytes, randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import { cspBuilder, fixedHeaders } from '../../src/server/http/plugins/security';

const app = Fastify({ logger: false });
if (process.argv.includes('--portal-headers')) {
  const fixed = fixedHeaders({ appVersion: '0.1.0', isProduction: true });
  const csp = cspBuilder(true);
  const origins = { formActions: ['http://127.0.0.1:8081'], frameAncestors: ['http://localhost:8082'] };
  app.addHook('onRequest', (_request, reply, done) => {
    for (const [name, value] of fixed) reply.header(name, value);
    reply.header('content-security-policy', csp(randomBytes(16).toString('base64'), origins));
    reply.header('x-request-id', randomUUID());
    reply.header('cache-control', 'no-store');
    done();
  });
}
app.get('/', async () => ({ hello: 'world' }));
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
process.stdout.write(`${typeof address === 'object' && address ? address.port : 0}\n`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
