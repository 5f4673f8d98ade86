// Bench-only entry: the real service for the stream benchmark, whose poller the runner triggers
// over IPC (its own timer is set to an hour) and whose fan-out start it reports.
import { loadConfig } from '../../src/config.ts';
import { createLogger, createService } from '../../src/service.ts';
import { collectGarbage } from './messages.ts';
import type { FromStreamChild, ToStreamChild } from './stream-messages.ts';

const send = (msg: FromStreamChild): void => void process.send?.(msg);
const config = loadConfig(process.env);
const service = await createService(config, createLogger(config.logLevel));
const url = await service.app.listen({ port: 0, host: '127.0.0.1', backlog: 4096 });
// As src/main.ts: warmed parsers and a compacted heap before the runner starts measuring.
service.warmUp();

process.on('message', (msg: ToStreamChild) => {
  if (msg.type === 'poll') {
    void service.live.poller
      .pollNow()
      .then((outcome) => send({ type: 'polled', outcome, answerAt: service.live.poller.lastAnswerAt }));
  } else if (msg.type === 'memory') {
    collectGarbage();
    setTimeout(() => {
      collectGarbage();
      send({ type: 'memory', rss: process.memoryUsage().rss });
    }, 2000);
  } else if (msg.type === 'stop') {
    void service.close().then(() => process.exit(0));
  }
});
process.on('disconnect', () => process.exit(0));
send({ type: 'ready', url });
