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
  // Logs are buffered (src/log-destination.ts) and written out at process.exit.
  const logger = createLogger(config.logLevel, stdoutDestination());
  // A fatal error is logged as one JSON line like the rest, and the lines before it are not lost.
  // An unhandled rejection reaches this handler too (Node's default --unhandled-rejections=throw).
  process.on('uncaughtException', (err) => {
    logger.fatal({ err }, 'fatal error; exiting');
    process.exit(1);
  });

  const service = await createService(config, logger);
  await service.app.listen({ port: config.port, host: config.host });
  logger.info({ exchange: config.exchangeBaseUrl }, 'market data service ready');
  // Whoever waits for the service to come up reads these lines now, not at the next periodic flush.
  logger.flush();
  setImmediate(() => service.warmUp());

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    service.close().then(
      () => process.exit(0),
      (err: unknown) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

void main();
