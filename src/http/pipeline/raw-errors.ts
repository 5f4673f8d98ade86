// Requests Node's HTTP parser refuses (a raw space or non-ASCII byte in the request line, a
// lower-case method, headers over the size limit, a request that never finished arriving) never
// reach Fastify: Node emits 'clientError' with the socket. Fastify's default answer is a body of
// its own shape; this one writes the service's error envelope from the same table as every other
// error (src/errors.ts), when the socket can still be written to, and then closes the connection
// (the parser's state is lost, so nothing more can be read from it). The answer is the one every
// error gets (error-handler.ts `errorResponse`) with the CORS headers every answer carries.
import type { Socket } from 'node:net';
import { ERROR_KINDS, HttpError, type ErrorKind } from '../../errors.ts';
import { errorResponse } from './error-handler.ts';
import { CORS_HEADERS } from './common-headers.ts';

interface ClientError extends Error {
  code?: string;
}

function kindOf(err: ClientError): { kind: ErrorKind; message: string } {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW':
      return { kind: ERROR_KINDS.headersTooLarge, message: ERROR_KINDS.headersTooLarge.message };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
    case 'ERR_HTTP_HEADERS_TIMEOUT':
      return { kind: ERROR_KINDS.requestTimeout, message: ERROR_KINDS.requestTimeout.message };
    case 'HPE_INVALID_METHOD':
      return {
        kind: ERROR_KINDS.badRequest,
        message: 'the method is not valid HTTP (methods are upper case)',
      };
    default:
      return {
        kind: ERROR_KINDS.badRequest,
        message:
          'the request is not valid HTTP/1.1 (a space or non-ASCII byte in the request line or a header? percent-encode it)',
      };
  }
}

/** The raw HTTP/1.1 response for a refused request: the envelope, then the connection closes. */
export function rawErrorResponse(err: ClientError): string {
  const { kind, message } = kindOf(err);
  const { status, headers, body } = errorResponse(new HttpError(kind, message));
  const all = [...headers, ...CORS_HEADERS, 'connection', 'close'];
  let head = `HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? 'Error'}\r\n`;
  for (let i = 0; i < all.length; i += 2) head += `${all[i]}: ${all[i + 1]}\r\n`;
  return `${head}\r\n${body}`;
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
};

/** Fastify's `clientErrorHandler` (the server's 'clientError' listener). */
export function clientErrorHandler(err: ClientError, socket: Socket): void {
  // A reset connection has nobody left to answer (as Fastify's and Node's defaults do).
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  // A request already answered in part (a timeout mid-response) cannot get a second answer; Node's
  // own handler makes the same check.
  const started = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (started?.headersSent) {
    socket.destroy();
    return;
  }
  socket.end(rawErrorResponse(err), () => socket.destroy());
}
