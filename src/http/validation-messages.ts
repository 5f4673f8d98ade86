// Validation failures in words a person can act on: which parameter, what it must be, and for an
// unknown parameter, the ones the endpoint takes. AJV's own messages name schema keywords
// ("must match a schema in anyOf"); these name the parameter and its accepted values. Client
// input is clientText only as a short escaped prefix (src/errors.ts `clientText`).
import type { FastifyError, FastifyRequest } from 'fastify';
import { BadRequestError, clientText, ValidationError, type ServiceError } from '../errors.ts';

interface AjvError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string;
}

const WHERE: Record<string, string> = {
  querystring: 'query parameter',
  params: 'path parameter',
  headers: 'header',
};

/**
 * The failure a request validation error stands for. A parameter the endpoint does not take, or
 * one given empty, is a 400 (the spec's "invalid query parameters"); a value of the wrong form is
 * the spec's 422 (request validation failed).
 */
export function validationFailure(err: FastifyError, req: FastifyRequest): ServiceError {
  const first = (err.validation as AjvError[] | undefined)?.[0];
  const context = err.validationContext ?? 'querystring';
  if (first === undefined) return new ValidationError('request validation failed');
  const name = first.instancePath.replace(/^\//, '').split('/')[0] ?? '';
  const value = valueOf(req, context, name);
  switch (first.keyword) {
    case 'additionalProperties': {
      const unknown = String(first.params.additionalProperty ?? '');
      const taken = acceptedNames(req, context);
      const takes = taken.length > 0 ? `this endpoint takes ${taken.join(', ')}` : 'this endpoint takes none';
      return new BadRequestError(`unknown ${WHERE[context] ?? 'parameter'} ${clientText(unknown)}; ${takes}`);
    }
    case 'minLength':
      if (value === '') return new BadRequestError(`${name} must not be empty`);
      return new ValidationError(`${name} must be at least ${String(first.params.limit)} characters`);
    case 'enum': {
      const allowed = (first.params.allowedValues as unknown[] | undefined)?.map(String) ?? [];
      return new ValidationError(`${name} must be ${orList(allowed)}${got(value)}`);
    }
    case 'format':
      if (first.params.format === 'date') {
        return new ValidationError(`${name} must be a calendar date as YYYY-MM-DD${got(value)}`);
      }
      return new ValidationError(`${name} must be a ${String(first.params.format)}${got(value)}`);
    case 'maxLength':
      return new ValidationError(`${name} must be at most ${String(first.params.limit)} characters`);
    case 'pattern':
      return new ValidationError(
        `${name} ${PATTERN_WORDS[name] ?? 'is not in the accepted form'}${got(value)}`,
      );
    case 'type':
      if (Array.isArray(value)) return new BadRequestError(`${name} may be given only once`);
      return new ValidationError(`${name} must be ${article(String(first.params.type))}${got(value)}`);
    case 'minimum':
    case 'maximum':
      return new ValidationError(`${name} ${first.message ?? 'is out of range'}${got(value)}`);
    default:
      return new ValidationError(`${name ? `${name} ` : ''}${first.message ?? 'is not valid'}`);
  }
}

function got(value: unknown): string {
  return typeof value === 'string' ? ` (got ${clientText(value)})` : '';
}

function orList(values: string[]): string {
  if (values.length <= 1) return values.join('');
  return `${values.slice(0, -1).join(', ')} or ${values.at(-1)}`;
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

interface ObjectSchema {
  properties?: Record<string, unknown>;
}

function schemaOf(req: FastifyRequest, context: string): ObjectSchema | undefined {
  const schema = req.routeOptions.schema as Record<string, unknown> | undefined;
  return schema?.[context] as ObjectSchema | undefined;
}

function acceptedNames(req: FastifyRequest, context: string): string[] {
  return Object.keys(schemaOf(req, context)?.properties ?? {});
}

// What each patterned parameter must look like, in words (the schema's regex is for machines).
const PATTERN_WORDS: Record<string, string> = {
  symbol: 'must be 1–25 letters, digits, ".", "&" or "-", starting with a letter or digit',
};

function valueOf(req: FastifyRequest, context: string, name: string): unknown {
  const source = context === 'params' ? req.params : context === 'headers' ? req.headers : req.query;
  return (source as Record<string, unknown> | undefined)?.[name];
}
