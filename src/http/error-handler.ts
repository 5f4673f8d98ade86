// The one place where failures become responses: every 4xx/5xx is `{error:{status, code, message}}`.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError, UpstreamDataError } from '../errors.ts';

const CODE_BY_STATUS: Record<number, string> = {
  400: 'bad_request',
  404: 'not_found',
  405: 'method_not_allowed',
  406: 'not_acceptable',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  422: 'bad_request',
  429: 'rate_limited',
  503: 'exchange_unavailable',
};

export function sendError(
  reply: FastifyReply,
  status: number,
  code: string,
  message: string,
  retryAfter?: number,
): FastifyReply {
  reply.header('cache-control', 'no-store');
  if (retryAfter !== undefined) reply.header('retry-after', String(retryAfter));
  return reply
    .code(status)
    .type(JSON_TYPE)
    .send(errorBody(status, code, message));
}

const JSON_TYPE = 'application/json; charset=utf-8';

function errorBody(status: number, code: string, message: string): string {
  return JSON.stringify({ error: { status, code, message } });
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler(
    (err: FastifyError | ServiceError | Error, req: FastifyRequest, reply: FastifyReply) => {
      if (err instanceof ServiceError) {
        if (err instanceof UpstreamDataError) {
          req.log.error({ pageKind: err.pageKind, detail: err.message }, 'portal page could not be parsed');
        } else if (err.statusCode >= 500) {
          req.log.warn({ code: err.code, detail: err.message }, 'request failed upstream');
        }
        return sendError(reply, err.statusCode, err.code, err.message, err.retryAfter);
      }
      const fastifyErr = err as FastifyError;
      if (fastifyErr.validation) {
        // The spec's 422: request validation failed. The issue settles the shape: the error envelope.
        return sendError(reply, 422, 'bad_request', `invalid request: ${fastifyErr.message}`);
      }
      const status = fastifyErr.statusCode;
      if (status !== undefined && status >= 400 && status < 500) {
        return sendError(reply, status, CODE_BY_STATUS[status] ?? 'bad_request', fastifyErr.message);
      }
      req.log.error({ err }, 'unexpected error');
      return sendError(reply, 500, 'internal_error', 'internal server error');
    },
  );
}
