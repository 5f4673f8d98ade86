// Shutdown, held once: service.close() begins it (readiness turns false, the front door refuses
// new requests with 503 not_ready), and Fastify's close sweeps idle keep-alive connections until
// the server has closed. app.close() alone (a test building the app) begins it too.
import type { FastifyInstance } from 'fastify';

export class Shutdown {
  private started = false;

  /** True from the moment shutdown began. */
  get begun(): boolean {
    return this.started;
  }

  begin(): void {
    this.started = true;
  }
}

const IDLE_SWEEP_MS = 50;

/**
 * While shutting down, a keep-alive connection is closed as soon as its answer in flight is done,
 * so a client's idle socket cannot hold the process open past the graceful window. Node closes
 * only the connections idle at close(); sweeping again until the server has closed catches the
 * rest without any per-request work (the front door answers new requests 503 meanwhile).
 */
export function closeConnectionsOnShutdown(app: FastifyInstance, shutdown: Shutdown): void {
  let sweeper: NodeJS.Timeout | undefined;
  app.addHook('preClose', (done) => {
    shutdown.begin();
    sweeper = setInterval(() => app.server.closeIdleConnections(), IDLE_SWEEP_MS);
    sweeper.unref();
    done();
  });
  app.addHook('onClose', (_instance, done) => {
    clearInterval(sweeper);
    done();
  });
}
