// Experiment (not part of `npm run bench`): what the service's send path costs per cached answer,
// and what sending bytes instead of a string would buy. One child process serves the same
// envelope five ways; autocannon (50 connections) measures each:
//   fastify-string  Fastify with the service's plugins (CORS, @fastify/compress, an onSend hook,
//                   UUID request ids), the envelope built as a string per request (as respond.ts does)
//   fastify-bytes   the same app, the data JSON held as a Buffer and the envelope Buffer.concat'ed
//   fastify-plain   a second Fastify app without plugins or hooks, sending the bytes
//   http-string     bare node:http, the same string envelope per request
//   http-bytes      bare node:http, a prepared Buffer (the serve benchmark's floor)
// Usage: tsx bench/experiments/send-path.ts [quote|screener|history] [SECONDS]
import cors from '@fastify/cors';
import compress from '@fastify/compress';
import { fork } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';
import { createDataset } from '../../dev/fake-portal/dataset.ts';
import { load } from '../load.ts';

const VARIANTS = ['fastify-string', 'fastify-bytes', 'fastify-plain', 'http-string', 'http-bytes'] as const;

/** A body of the serve benchmark's size: a quote, the screener (729 rows) or a 2,162-row history. */
function dataJson(kind: string): string {
  if (kind === 'quote') return JSON.stringify(createDataset().screener.find((r) => r.symbol === 'ENGRO'));
  if (kind === 'history')
    return JSON.stringify(
      createDataset()
        .history('ENGRO')
        .map((r) => ({ ...r, is_anomaly: false, anomaly_reasons: [] })),
    );
  return JSON.stringify(createDataset({ extraSymbols: 667 }).screener);
}

function meta(): string {
  return `,"meta":{"timestamp":"${new Date().toISOString().replace('Z', '+00:00')}","cached":true,"count":1}}`;
}

async function serve(kind: string): Promise<void> {
  const json = dataJson(kind);
  const bytes = Buffer.from(json);
  const head = Buffer.from('{"data":');
  const prepared = Buffer.concat([head, bytes, Buffer.from(meta())]);
  const app = Fastify({ genReqId: () => crypto.randomUUID() });
  app.addHook('onSend', async (req, reply) => {
    reply.header('x-request-id', req.id);
  });
  await app.register(cors, { origin: '*', methods: ['GET', 'HEAD'] });
  await app.register(compress, { threshold: 2048, encodings: ['br', 'gzip', 'deflate'] });
  app.get('/fastify-string', (_req, reply) =>
    reply.type('application/json; charset=utf-8').send(`{"data":${json}${meta()}`),
  );
  app.get('/fastify-bytes', (_req, reply) =>
    reply.type('application/json; charset=utf-8').send(Buffer.concat([head, bytes, Buffer.from(meta())])),
  );
  const fastifyUrl = await app.listen({ port: 0, host: '127.0.0.1' });
  const plain = Fastify();
  plain.get('/fastify-plain', (_req, reply) =>
    reply.type('application/json; charset=utf-8').send(Buffer.concat([head, bytes, Buffer.from(meta())])),
  );
  const plainUrl = await plain.listen({ port: 0, host: '127.0.0.1' });
  const http = createServer((req, res) => {
    if (req.url === '/http-string') {
      const body = `{"data":${json}${meta()}`;
      res.writeHead(200, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(body),
      });
      res.end(body);
    } else {
      res.writeHead(200, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': prepared.length,
      });
      res.end(prepared);
    }
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const httpUrl = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  process.send?.({ fastifyUrl, plainUrl, httpUrl });
  process.on('disconnect', () => process.exit(0));
}

async function main(): Promise<void> {
  const [kind = 'screener', seconds = '4'] = process.argv.slice(2);
  const child = fork(fileURLToPath(import.meta.url), ['--child', kind], { execArgv: ['--import', 'tsx'] });
  type Urls = { fastifyUrl: string; plainUrl: string; httpUrl: string };
  const urls = await new Promise<Urls>((resolve) => child.once('message', (m) => resolve(m as Urls)));
  const results: Record<string, number[]> = {};
  for (let round = 0; round < 3; round++) {
    for (const v of VARIANTS) {
      const base =
        v === 'fastify-plain' ? urls.plainUrl : v.startsWith('fastify') ? urls.fastifyUrl : urls.httpUrl;
      const url = `${base}/${v}`;
      const r = await load(url, 50, round === 0 ? 1 : Number(seconds));
      if (round > 0) (results[v] ??= []).push(r.requestsPerSec);
    }
  }
  for (const v of VARIANTS)
    console.log(`${kind} ${v.padEnd(15)} ${(results[v] ?? []).map((x) => Math.round(x)).join(' / ')} req/s`);
  child.disconnect();
}

if (process.argv[2] === '--child') await serve(process.argv[3] ?? 'screener');
else await main();
