// Stream fan-out: 10,000 concurrent SSE clients on one service process (GET /stream/quotes), each
// subscribed to 5–100 symbols of the fake portal's market watch. Per poll: exactly one
// market-watch fetch however many streams; fan-out time from the poll's answer being in (the
// service's clock) to each client having all of its events (the client's clock — one machine, so
// wall clocks agree); RSS added per idle stream. Beside each figure, a bare node:http server
// holding the same connections and writing the same frames. The fake portal moves its market
// (about a third of the symbols) before each poll; polls are triggered over IPC.
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { mulberry32 } from '../dev/fake-portal/dataset.ts';
import type { FromStreamChild, ToStreamChild } from './children/stream-messages.ts';
import { describeMachine } from './machine.ts';
import { serviceEnv, startPortal } from './processes.ts';
import type { Figure, Section } from './report.ts';
import { quantile, round } from './stats.ts';

const CLIENTS = Number(process.env.BENCH_STREAM_CLIENTS ?? 10_000);
const ROUNDS = 3;
const CONNECT_PARALLEL = 250;
const EXTRA_SYMBOLS = 100;
const MARKER = 'event: quote';
const CHILDREN = fileURLToPath(new URL('./children/', import.meta.url));

interface Child {
  url: string;
  send(msg: ToStreamChild): void;
  next<T extends FromStreamChild['type']>(type: T): Promise<Extract<FromStreamChild, { type: T }>>;
  stop(): Promise<void>;
}

async function startChild(entry: string, env: Record<string, string>): Promise<Child> {
  const child: ChildProcess = fork(join(CHILDREN, entry), [], {
    execArgv: ['--import', 'tsx', '--expose-gc'],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const next = <T extends FromStreamChild['type']>(type: T) =>
    new Promise<Extract<FromStreamChild, { type: T }>>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${entry}: no ${type} in 120 s`)), 120_000);
      const on = (msg: FromStreamChild) => {
        if (msg.type !== type) return;
        clearTimeout(timer);
        child.off('message', on);
        resolve(msg as Extract<FromStreamChild, { type: T }>);
      };
      child.on('message', on);
    });
  const { url } = await next('ready');
  return {
    url,
    send: (msg) => void child.send(msg),
    next,
    async stop() {
      child.send({ type: 'stop' });
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** One SSE client on a raw socket: counts `event: quote` frames and notes when a count is reached. */
class Client {
  private socket: Socket | undefined;
  private tail = '';
  events = 0;
  private waiting: { count: number; resolve: (at: number) => void } | undefined;

  constructor(readonly symbols: string[]) {}

  open(base: URL): Promise<void> {
    return new Promise((resolve, reject) => {
      const socket = connect({ host: '127.0.0.1', port: Number(base.port) });
      this.socket = socket;
      socket.setEncoding('latin1');
      socket.once('error', reject);
      socket.on('connect', () =>
        socket.write(
          `GET /stream/quotes?symbols=${this.symbols.join(',')} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n`,
        ),
      );
      socket.on('data', (chunk: string) => this.read(chunk));
      void this.until(this.symbols.length).then(() => resolve());
    });
  }

  /** Resolves with the wall-clock ms at which the client had `count` events. */
  until(count: number): Promise<number> {
    return new Promise((resolve) => {
      if (this.events >= count) resolve(performance.timeOrigin + performance.now());
      else this.waiting = { count, resolve };
    });
  }

  close(): void {
    this.socket?.destroy();
  }

  private read(chunk: string): void {
    // The tail is one character shorter than the marker, so no match is counted twice.
    const text = this.tail + chunk;
    for (let at = text.indexOf(MARKER); at >= 0; at = text.indexOf(MARKER, at + 1)) this.events++;
    this.tail = text.slice(-(MARKER.length - 1));
    if (this.waiting && this.events >= this.waiting.count) {
      const { resolve } = this.waiting;
      this.waiting = undefined;
      resolve(performance.timeOrigin + performance.now());
    }
  }
}

async function connectAll(base: string, clients: Client[]): Promise<number> {
  const started = Date.now();
  const url = new URL(base);
  for (let i = 0; i < clients.length; i += CONNECT_PARALLEL) {
    await Promise.all(clients.slice(i, i + CONNECT_PARALLEL).map((c) => c.open(url)));
  }
  return (Date.now() - started) / 1000;
}

interface Rounds {
  latencies: number[];
  p99s: number[];
  events: number;
}

/** ROUNDS times: move the market, trigger `fire`, wait for every client that has a moved symbol. */
async function fanOut(
  clients: Client[],
  move: () => Promise<string[]>,
  fire: (moved: string[]) => Promise<number>,
): Promise<Rounds> {
  const out: Rounds = { latencies: [], p99s: [], events: 0 };
  for (let r = 0; r < ROUNDS; r++) {
    const moved = new Set(await move());
    const waits: Promise<number>[] = [];
    for (const c of clients) {
      const n = c.symbols.filter((s) => moved.has(s)).length;
      if (n === 0) continue;
      out.events += n;
      waits.push(c.until(c.events + n));
    }
    const answerAt = await fire([...moved]);
    const done = await Promise.all(waits);
    const latencies = done.map((t) => t - answerAt);
    out.latencies.push(...latencies);
    out.p99s.push(quantile(latencies, 0.99));
  }
  return out;
}

export async function runStream(): Promise<Section> {
  const startedAt = new Date().toISOString();
  const t0 = Date.now();
  const machine = describeMachine();
  const portal = await startPortal('stream-portal', { extraSymbols: EXTRA_SYMBOLS });
  const cacheDir = mkdtempSync(join(tmpdir(), 'psxmd-bench-stream-'));
  const figures: Figure[] = [];
  const notes: string[] = [];
  try {
    const service = await startChild(
      'stream-service.ts',
      serviceEnv(portal.url, cacheDir, {
        STREAM_POLL_SECONDS: '3600',
        // Streams log when they end (all at the stop); the figures here are fan-out and memory,
        // and 10,000 access lines would flood the runner's output.
        LOG_LEVEL: 'warn',
        STREAM_MAX_PER_IP: String(CLIENTS + 10),
      }),
    );
    const symbolsRes = await request(`${service.url}/market/movers?by=active&limit=100`);
    const board = ((await symbolsRes.body.json()) as { data: { symbol: string }[] }).data.map(
      (m) => m.symbol,
    );
    const all = await allSymbols(service.url, board);
    const rng = mulberry32(18);
    const subscriptions = Array.from({ length: CLIENTS }, () => {
      const n = 5 + Math.floor(rng() * 96);
      const pool = [...all];
      const chosen: string[] = [];
      for (let i = 0; i < n && pool.length > 0; i++)
        chosen.push(pool.splice(Math.floor(rng() * pool.length), 1)[0]!);
      return chosen;
    });

    // The service.
    service.send({ type: 'memory' });
    const rssBefore = (await service.next('memory')).rss;
    const clients = subscriptions.map((s) => new Client(s));
    const connectSec = await connectAll(service.url, clients);
    service.send({ type: 'memory' });
    const rssAfter = (await service.next('memory')).rss;
    await portal.resetCounts();
    const tick = async (): Promise<string[]> => {
      const res = await request(`${portal.url}/__fake/tick`, { method: 'POST', body: '{}' });
      return ((await res.body.json()) as { moved: string[] }).moved;
    };
    const movedRounds: string[][] = [];
    const svc = await fanOut(
      clients,
      async () => {
        const moved = await tick();
        movedRounds.push(moved);
        return moved;
      },
      async () => {
        service.send({ type: 'poll' });
        const polled = await service.next('polled');
        if (polled.outcome !== 'changed') throw new Error(`poll answered ${polled.outcome}`);
        return polled.answerAt;
      },
    );
    const fetches = (await portal.counts()).requests['GET /market-watch'] ?? 0;
    // The same events for the bare server: the quotes as the service now has them.
    const quotes = await quoteFrames(service.url, all);
    for (const c of clients) c.close();
    await service.stop();

    // The bare node:http server, same connections, same frames.
    const bare = await startChild('bare-stream.ts', {});
    bare.send({ type: 'snapshot', frames: quotes });
    bare.send({ type: 'memory' });
    const bareBefore = (await bare.next('memory')).rss;
    const bareClients = subscriptions.map((s) => new Client(s));
    await connectAll(bare.url, bareClients);
    bare.send({ type: 'memory' });
    const bareAfter = (await bare.next('memory')).rss;
    const bareRounds = await fanOut(
      bareClients,
      async () => movedRounds.shift() ?? [],
      async (moved) => {
        bare.send({ type: 'fire', frames: Object.fromEntries(moved.map((s) => [s, quotes[s]!])) });
        return (await bare.next('polled')).answerAt;
      },
    );
    for (const c of bareClients) c.close();
    await bare.stop();

    const perStream = (after: number, before: number) => round((after - before) / CLIENTS / 1024);
    figures.push(
      {
        id: 'stream_fetches_per_poll',
        label: `market-watch fetches per poll (${CLIENTS.toLocaleString('en')} streams, ${ROUNDS} polls)`,
        value: fetches / ROUNDS,
        unit: 'fetches',
        target: { op: '==', limit: 1 },
      },
      {
        id: 'stream_fanout_p99',
        label: `fan-out p99, poll answer in → client has its events (${CLIENTS.toLocaleString('en')} streams)`,
        value: round(quantile(svc.latencies, 0.99)),
        unit: 'ms',
        target: { op: '<=', limit: 250 },
      },
      {
        id: 'stream_fanout_p99_bare',
        label: 'fan-out p99, bare node:http server, same connections and frames',
        value: round(quantile(bareRounds.latencies, 0.99)),
        unit: 'ms',
      },
      {
        id: 'stream_fanout_max',
        label: 'fan-out, last client has its events',
        value: round(Math.max(...svc.latencies)),
        unit: 'ms',
      },
      {
        id: 'stream_fanout_max_bare',
        label: 'fan-out, last client (bare node:http)',
        value: round(Math.max(...bareRounds.latencies)),
        unit: 'ms',
      },
      {
        id: 'stream_rss_per_idle_stream',
        label: 'RSS added per idle stream',
        value: perStream(rssAfter, rssBefore),
        unit: 'KB',
        target: { op: '<=', limit: 10 },
      },
      {
        id: 'stream_rss_per_idle_stream_bare',
        label: 'RSS added per idle connection, bare node:http',
        value: perStream(bareAfter, bareBefore),
        unit: 'KB',
      },
    );
    notes.push(
      `${CLIENTS.toLocaleString('en')} clients on raw sockets in the runner, each subscribed to 5–100 of ${all.length} symbols (seeded); connected in ${round(connectSec)} s.`,
      `Each poll: the fake portal moved about a third of the symbols; ${round(svc.events / ROUNDS)} events a poll on average over all streams. Per-poll p99s (service): ${svc.p99s.map(round).join(', ')} ms; bare: ${bareRounds.p99s.map(round).join(', ')} ms.`,
      'Fan-out is timed from the poll’s market-watch answer being in (service) or the write loop starting (bare) to the moment the client has read every event of that poll for its symbols; the service’s figure includes parsing the page, building the quotes and finding what changed.',
      'RSS is read in the server process after full GCs, before any client and with every client connected and idle (snapshot received).',
    );
  } finally {
    await portal.stop();
    rmSync(cacheDir, { recursive: true, force: true });
  }
  return {
    id: 'stream',
    title: 'Stream fan-out (GET /stream/quotes)',
    startedAt,
    durationSec: (Date.now() - t0) / 1000,
    machine,
    figures,
    tables: [],
    notes,
  };
}

/** Every symbol of the market watch (the most active 100 are only a part of it). */
async function allSymbols(base: string, active: string[]): Promise<string[]> {
  const res = await request(`${base}/market/movers?by=gainers&limit=100`);
  const gainers = ((await res.body.json()) as { data: { symbol: string }[] }).data.map((m) => m.symbol);
  const res2 = await request(`${base}/market/movers?by=losers&limit=100`);
  const losers = ((await res2.body.json()) as { data: { symbol: string }[] }).data.map((m) => m.symbol);
  return [...new Set([...active, ...gainers, ...losers])].sort();
}

async function quoteFrames(base: string, symbols: string[]): Promise<Record<string, string>> {
  const frames: Record<string, string> = {};
  for (let i = 0; i < symbols.length; i += 100) {
    const res = await request(`${base}/quotes?symbols=${symbols.slice(i, i + 100).join(',')}`);
    const quotes = ((await res.body.json()) as { data: { symbol: string }[] }).data;
    for (const q of quotes) frames[q.symbol] = `id: 1\nevent: quote\ndata: ${JSON.stringify(q)}\n\n`;
  }
  return frames;
}
