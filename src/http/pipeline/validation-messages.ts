// Validation failures in words a person can act on: which parameter, what it must be, what was
// given, and for an unknown parameter, the ones the endpoint takes. AJV's own messages name schema
// keywords ("must have required property 'symbols'"); these never reach a client. The status
// follows the one rule of src/errors.ts (docs/api.md, "400 or 422"), decided here for every
// parameter a route schema checks: the query as a set is wrong (unknown, empty, repeated) → 400;
// one value is wrong, or a required parameter is missing → 422.
import type { FastifyError, FastifyRequest } from 'fastify';
import {
  emptyParameter,
  invalidValue,
  missingParameter,
  orList,
  repeatedParameter,
  unknownParameter,
  ValidationError,
  type ServiceError,
} from '../../errors.ts';

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

/** The failure a request validation error stands for (the rule above). */
export function validationFailure(err: FastifyError, req: FastifyRequest): ServiceError {
  const first = (err.validation as AjvError[] | undefined)?.[0];
  const context = err.validationContext ?? 'querystring';
  if (first === undefined) return new ValidationError('request validation failed');
  if (first.keyword === 'additionalProperties') {
    const unknown = String(first.params.additionalProperty ?? '');
    return unknownParameter(WHERE[context] ?? 'parameter', unknown, acceptedNames(req, context));
  }
  if (first.keyword === 'required') {
    const name = String(first.params.missingProperty ?? '');
    return missingParameter(name, describe(req, context, name) ?? 'this endpoint needs it');
  }
  const name = first.instancePath.replace(/^\//, '').split('/')[0] ?? '';
  const given = givenValues(req, context, name);
  // Before any keyword: an empty or repeated parameter is the query's fault, whatever its type.
  if (given.length > 1) return repeatedParameter(name);
  const value = given[0];
  if (value === '') return emptyParameter(name);
  const p = first.params;
  switch (first.keyword) {
    case 'enum':
      return invalidValue(
        name,
        orList(((p.allowedValues as unknown[] | undefined) ?? []).map(String)),
        value,
      );
    case 'type':
      return invalidValue(name, TYPE_WORDS[String(p.type)] ?? `a ${String(p.type)}`, value);
    case 'format':
      return invalidValue(name, FORMAT_WORDS[String(p.format)] ?? `a ${String(p.format)}`, value);
    case 'pattern':
      return invalidValue(name, PATTERN_WORDS[name] ?? 'in the accepted form', value);
    case 'minLength':
      return invalidValue(name, `at least ${String(p.limit)} characters`, value);
    case 'maxLength':
      return invalidValue(name, `at most ${String(p.limit)} characters`, value);
    case 'minimum':
    case 'exclusiveMinimum':
      return invalidValue(
        name,
        `${p.comparison === '>' ? 'more than' : 'at least'} ${String(p.limit)}`,
        value,
      );
    case 'maximum':
    case 'exclusiveMaximum':
      return invalidValue(
        name,
        `${p.comparison === '<' ? 'less than' : 'at most'} ${String(p.limit)}`,
        value,
      );
    default:
      return invalidValue(name, 'a valid value', value);
  }
}

const TYPE_WORDS: Record<string, string> = {
  integer: 'a whole number',
  number: 'a number',
  boolean: 'true or false',
  string: 'text',
};

const FORMAT_WORDS: Record<string, string> = {
  date: 'a calendar date as YYYY-MM-DD',
};

// What each patterned parameter must look like, in words (the schema's regex is for machines).
const PATTERN_WORDS: Record<string, string> = {
  symbol: '1–25 letters, digits, ".", "&" or "-", starting with a letter or digit',
};

interface ObjectSchema {
  properties?: Record<string, { description?: string }>;
}

function schemaOf(req: FastifyRequest, context: string): ObjectSchema | undefined {
  const schema = req.routeOptions.schema as Record<string, unknown> | undefined;
  return schema?.[context] as ObjectSchema | undefined;
}

function acceptedNames(req: FastifyRequest, context: string): string[] {
  return Object.keys(schemaOf(req, context)?.properties ?? {});
}

/** A required parameter's own description (the route's words, with an example) tells what to give. */
function describe(req: FastifyRequest, context: string, name: string): string | undefined {
  return schemaOf(req, context)?.properties?.[name]?.description;
}

/**
 * The values the client sent for `name`, as sent: the query string before the validator coerced
 * them (`limit=` would otherwise read as 0), so that an empty or repeated parameter is seen as such.
 */
function givenValues(req: FastifyRequest, context: string, name: string): string[] {
  if (context === 'querystring') {
    const at = req.url.indexOf('?');
    return at === -1 ? [] : new URLSearchParams(req.url.slice(at + 1)).getAll(name);
  }
  const source = (context === 'params' ? req.params : req.headers) as Record<string, unknown> | undefined;
  const value = source?.[name];
  if (Array.isArray(value)) return value.map(String);
  return value === undefined ? [] : [String(value)];
}
