// The access line: one NDJSON line per finished request at `info`, written by hand instead of through
// pino's log method. At `info` every answer pays for its line, and pino's general path (merging
// the object, walking its keys, stringifying the nested `req` and `res`, the stream's metadata) cost
// a large share of a small cached answer's CPU (bench/README.md, "The default configuration").
// The fields are fixed, so the line is one template read straight off the request: only the strings
// a client can choose (the URL, the address from a forwarded header) go through JSON.stringify, and
// only when they hold a character JSON escapes. The request id needs no escaping: requestIdOf only
// echoes an id of token characters and makes the others; nor does the method, which Node's parser
// takes only from its table of methods.
//
// The line is pino's, byte for byte (tested against pino's own output): the level prefix, the time
// and the bindings (pid, hostname) are taken from the logger itself, and it is written to the
// logger's own stream, so it lands in the same buffer as every other line, in order, and is flushed
// by the same rules. The logger's level is read for each line: above `info`, nothing is written.
import type { IncomingMessage } from 'node:http';
import { pino, type DestinationStream, type Logger } from 'pino';
import { LEVEL_ONLY_METADATA } from '../../log-destination.ts';
import { requestIdOf } from './common-headers.ts';

const INFO = 30;
const S = pino.symbols;

/** pino's internals the line is made from (pino.symbols: its documented extension points). */
interface PinoInternals {
  [S.lsCacheSym]: Record<number, string>;
  [S.timeSym]: () => string;
  [S.timeSliceIndexSym]: number;
  [S.chindingsSym]: string;
  [S.endSym]: string;
  [S.streamSym]: DestinationStream & MetadataStream;
  [S.messageKeySym]: string;
  [S.mixinSym]?: unknown;
  [S.nestedKeySym]?: unknown;
  [S.hooksSym]?: { streamWrite?: unknown };
  [S.formattersSym]?: { log?: unknown };
  [S.serializersSym]?: Record<string, unknown>;
}

/** A stream that asks pino for each line's level (flushedAtWarn, pino.multistream). */
interface MetadataStream {
  [S.needsMetadataGsym]?: boolean;
  lastLevel?: number;
  lastMsg?: string;
  lastTime?: string;
  lastObj?: object;
  lastLogger?: Logger;
  /** Reads only `lastLevel` (flushedAtWarn): the other fields are not set for it. */
  [LEVEL_ONLY_METADATA]?: boolean;
}

/** The front door's access log. */
export interface AccessLine {
  /** Whether the logger's level lets the line through (read each time: a level may change). */
  enabled(): boolean;
  /**
   * The line of `req`, answered `statusCode` after `responseTime` milliseconds from its arrival to
   * its response's end (or its connection's loss; then `aborted`). The time is written to the
   * microsecond: the digits below it are the clock's noise.
   */
  write(req: IncomingMessage, statusCode: number, responseTime: number, aborted: boolean): void;
}

/** The address the line names for a request (the client address rule's, src/http/pipeline/client-address.ts). */
export type AddressOf = (req: IncomingMessage) => string;

/**
 * The access line writer for `logger`. A logger configured in a way this template does not
 * reproduce (a mixin, a nested key, a log formatter, a write hook, serializers of these fields, another
 * message key) gets its lines through pino instead, so the line never differs from pino's.
 */
export function accessLineOf(logger: Logger, addressOf: AddressOf): AccessLine {
  const internals = logger as unknown as PinoInternals;
  if (!writtenAsTemplate(internals)) return throughPino(logger, addressOf);
  const stream = internals[S.streamSym];
  const prefix = internals[S.lsCacheSym][INFO] as string;
  const time = internals[S.timeSym];
  const end = internals[S.endSym];
  const timeSliceIndex = internals[S.timeSliceIndexSym];
  const metadata = stream[S.needsMetadataGsym] === true;
  const levelOnly = stream[LEVEL_ONLY_METADATA] === true;
  const enabled = (): boolean => logger.levelVal <= INFO;
  const write = (req: IncomingMessage, statusCode: number, responseTime: number, aborted: boolean): void => {
    if (!enabled()) return;
    const t = time();
    const msg = aborted ? 'request aborted' : 'request completed';
    const url = req.url === undefined ? '' : `,"url":${jsonString(req.url)}`;
    const line =
      `${prefix}${t}${internals[S.chindingsSym]},"reqId":"${requestIdOf(req)}"` +
      `,"req":{"method":"${req.method ?? ''}"${url},"remoteAddress":${jsonString(addressOf(req))}}` +
      `,"res":{"statusCode":${statusCode}},"responseTime":${jsonMilliseconds(responseTime)}` +
      `${aborted ? ',"aborted":true' : ''},"msg":"${msg}"${end}`;
    if (metadata) {
      // What pino tells such a stream before each line (a level below warn: flushedAtWarn keeps
      // it in the buffer).
      stream.lastLevel = INFO;
      if (!levelOnly) {
        stream.lastMsg = msg;
        stream.lastTime = t.slice(timeSliceIndex);
        stream.lastObj = loggedObject(req, addressOf, statusCode, responseTime, aborted);
        stream.lastLogger = logger;
      }
    }
    stream.write(line);
  };
  return { enabled, write };
}

function writtenAsTemplate(internals: PinoInternals): boolean {
  const serializers = internals[S.serializersSym] ?? {};
  return (
    typeof internals[S.lsCacheSym]?.[INFO] === 'string' &&
    typeof internals[S.timeSym] === 'function' &&
    typeof internals[S.chindingsSym] === 'string' &&
    typeof internals[S.endSym] === 'string' &&
    typeof internals[S.streamSym]?.write === 'function' &&
    internals[S.messageKeySym] === 'msg' &&
    !internals[S.mixinSym] &&
    !internals[S.nestedKeySym] &&
    !internals[S.hooksSym]?.streamWrite &&
    !internals[S.formattersSym]?.log &&
    !['reqId', 'req', 'res', 'responseTime', 'aborted', 'msg'].some((key) => key in serializers)
  );
}

function throughPino(logger: Logger, addressOf: AddressOf): AccessLine {
  const enabled = (): boolean => logger.isLevelEnabled('info');
  const write = (req: IncomingMessage, statusCode: number, responseTime: number, aborted: boolean): void => {
    logger.info(
      loggedObject(req, addressOf, statusCode, responseTime, aborted),
      aborted ? 'request aborted' : 'request completed',
    );
  };
  return { enabled, write };
}

/** The line's fields as the object pino would be given to log them. */
function loggedObject(
  req: IncomingMessage,
  addressOf: AddressOf,
  statusCode: number,
  responseTime: number,
  aborted: boolean,
): object {
  return {
    reqId: requestIdOf(req),
    req: { method: req.method, url: req.url, remoteAddress: addressOf(req) },
    res: { statusCode },
    responseTime: Number.isFinite(responseTime) ? Math.round(responseTime * 1000) / 1000 : responseTime,
    ...(aborted ? { aborted: true } : {}),
  };
}

/**
 * `s` as a JSON string, as JSON.stringify writes it: quoted as is when it holds nothing to escape
 * (a quote, a backslash, a control character, a surrogate that may stand alone), which is almost
 * always, and through JSON.stringify otherwise.
 */
export function jsonString(s: string): string {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c || (c >= 0xd800 && c <= 0xdfff)) return JSON.stringify(s);
  }
  return `"${s}"`;
}

/**
 * Milliseconds rounded to the microsecond, as JSON writes `Math.round(ms * 1000) / 1000` (null for
 * what JSON cannot hold, as pino writes it), made from integers: printing a double's shortest form
 * cost more than the rest of the line.
 */
export function jsonMilliseconds(ms: number): string {
  if (!Number.isFinite(ms)) return 'null';
  const us = Math.round(ms * 1000);
  if (!Number.isSafeInteger(us)) return String(us / 1000);
  const sign = us < 0 ? '-' : '';
  const abs = us < 0 ? -us : us;
  const fraction = abs % 1000;
  const whole = (abs - fraction) / 1000;
  if (fraction === 0) return `${sign}${whole}`;
  let digits = fraction < 10 ? `00${fraction}` : fraction < 100 ? `0${fraction}` : `${fraction}`;
  while (digits.endsWith('0')) digits = digits.slice(0, -1);
  return `${sign}${whole}.${digits}`;
}
