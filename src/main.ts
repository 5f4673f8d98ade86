// `npm start`: serve on HOST:PORT against EXCHANGE_BASE_URL (the real portal by default).
import { ConfigError, loadConfig } from './config.ts';
import { stdoutDestination } from './log-destination.ts';
import { createLogger, createService } from './service.ts';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`configuration error: ${err.message}`);
      process.exit(2);
    }
    throw err;
  }
  // Logs are buffered (src/log-destination.ts): every way out of the process writes what is held.
  const destination = stdoutDestination();
  const logger = createLogger(config.logLevel, destination);
  // The asynchronous flush first: it waits for a write in flight, which a synchronous flush would
  // overtake (lines out of order, or lost at exit); then what it left under the buffer's threshold.
  let exiting = false;
  const exit = (code: number): void => {
    if (exiting) return;
    exiting = true;
    const done = () => {
      try {
        destination.flushSync();
      } finally {
        process.exit(code);
      }
    };
    destination.flush(done);
    // A destination that never drains (stdout closed, a stuck pipe) does not hold the exit.
    setTimeout(() => process.exit(code), 5_000).unref();
  };
  // A fatal error is logged as one JSON line like the rest, and the lines before it are not lost.
  // An unhandled rejection reaches this handler too (Node's default --unhandled-rejections=throw).
  process.on('uncaughtException', (err) => {
    logger.fatal({ err }, 'fatal error; exiting');
    exit(1);
  });

  const service = await createService(config, logger);
  await service.app.listen({ port: config.port, host: config.host });
  logger.info({ exchange: config.exchangeBaseUrl }, 'market data service ready');
  // Whoever waits for the service to come up reads these lines now, not at the next periodic flush.
  logger.flush();
  setImmediate(() => service.settle());

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => exit(1), 10_000);
    force.unref();
    service.close().then(
      () => exit(0),
      (err: unknown) => {
        logger.error({ err }, 'shutdown failed');
        exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

void main();
