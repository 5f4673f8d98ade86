// The one place where failures become responses: every 4xx/5xx is `{error:{status, code, message}}`,
// from a ServiceError (src/errors.ts), made by `errorResponse` alone (status, headers, body). Three
// writers put it on the wire: `sendError` through Fastify's reply (routes, Fastify's own failures),
// `writeError` on the raw response (the front door's refusals, before Fastify), and
// src/http/pipeline/raw-errors.ts on the socket (requests Node's parser refused). Fastify's own failures
// (its router's, its validator's, its body parser's) are mapped to a ServiceError first.
import type { ServerResponse } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  ERROR_KINDS,
  HttpError,
  InternalError,
  ServiceError,
  UpstreamDataError,
  ValidationError,
  type ErrorKind,
} from '../../errors.ts';
import { validationFailure } from './validation-messages.ts';

const JSON_TYPE = 'application/json; charset=utf-8';

/** An error answer: its status, its headers besides the common ones (as name/value pairs), its body. */
export interface ErrorResponse {
  status: number;
  headers: string[];
  body: string;
}

/** The error answer for `err`, whoever writes it. */
export function errorResponse(err: ServiceError): ErrorResponse {
  const body = JSON.stringify({ error: { status: err.statusCode, code: err.code, message: err.message } });
  const headers = [
    'cache-control',
    'no-store',
    'content-type',
    JSON_TYPE,
    'content-length',
    String(Buffer.byteLength(body)),
  ];
  if (err.retryAfter !== undefined) headers.push('retry-after', String(err.retryAfter));
  return { status: err.statusCode, headers, body };
}

/** Through Fastify's reply; the common headers are already on the response (the front door's). */
export function sendError(reply: FastifyReply, err: ServiceError): FastifyReply {
  const { status, headers, body } = errorResponse(err);
  for (let i = 0; i < headers.length; i += 2) reply.header(headers[i] as string, headers[i + 1]);
  return reply.code(status).send(body);
}

/**
 * On the raw response, before Fastify (the request limit, shutdown): `common` are the headers every
 * answer carries (the request id, CORS), as name/value pairs.
 */
export function writeError(res: ServerResponse, err: ServiceError, common: readonly string[]): void {
  const { status, headers, body } = errorResponse(err);
  res.writeHead(status, [...common, ...headers]);
  res.end(body);
}

// Fastify's own 4xx statuses, by the kind that names them. Anything else a client causes is a 400.
const KIND_BY_STATUS = new Map<number, ErrorKind>(
  [
    ERROR_KINDS.badRequest,
    ERROR_KINDS.notFound,
    ERROR_KINDS.methodNotAllowed,
    ERROR_KINDS.requestTimeout,
    ERROR_KINDS.payloadTooLarge,
    ERROR_KINDS.unsupportedMediaType,
    ERROR_KINDS.rateLimited,
    ERROR_KINDS.headersTooLarge,
  ].map((k) => [k.status, k]),
);

// Messages for Fastify's own failures, written here: Fastify's repeat the request's path or body.
const FASTIFY_MESSAGES: Record<string, string> = {
  FST_ERR_BAD_URL: 'the path is not a valid URL (a malformed percent-escape?)',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'this API takes no request body',
  FST_ERR_CTP_BODY_TOO_LARGE: 'this API takes no request body',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'this API takes no request body',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'the Content-Length does not match the body',
};

/** Any error, as the ServiceError the client is told about. */
export function toServiceError(err: FastifyError | Error, req: FastifyRequest): ServiceError {
  if (err instanceof ServiceError) return err;
  const fastifyErr = err as FastifyError;
  // The spec's 422 (or 400 for an unknown or empty parameter), always in the error envelope.
  if (fastifyErr.validation) return validationFailure(fastifyErr, req);
  // The router's own limit on a path parameter's length: the parameter's schema (its maxLength)
  // is what should decide, so it is a validation failure like any other over-long value.
  if (fastifyErr.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    return new ValidationError('a path parameter is longer than the endpoint accepts');
  }
  const status = fastifyErr.statusCode;
  if (status !== undefined && status >= 400 && status < 500) {
    const kind = KIND_BY_STATUS.get(status) ?? ERROR_KINDS.badRequest;
    return new HttpError(kind, FASTIFY_MESSAGES[fastifyErr.code] ?? kind.message);
  }
  return new InternalError(ERROR_KINDS.internal.message);
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | Error, req: FastifyRequest, reply: FastifyReply) => {
    const failure = toServiceError(err, req);
    if (failure instanceof UpstreamDataError) {
      req.log.error({ pageKind: failure.pageKind, detail: failure.message }, 'portal page could not be read');
    } else if (failure instanceof InternalError && !(err instanceof ServiceError)) {
      req.log.error({ err }, 'unexpected error');
    } else if (failure.statusCode >= 500) {
      req.log.warn({ code: failure.code, detail: failure.message }, 'request failed upstream');
    }
    return sendError(reply, failure);
  });
}

/** Fastify's `frameworkErrors`: its router's failures (a bad percent-escape, an over-long param). */
export function frameworkErrors(err: FastifyError, req: FastifyRequest, reply: FastifyReply): void {
  void sendError(reply, toServiceError(err, req));
}
