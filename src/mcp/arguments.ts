// A tool's bad arguments in words a model can act on: which argument, what it must be, and for an
// unknown one, the arguments the tool takes (as validation-messages.ts does for query parameters).
import { BadRequestError, clientText, ValidationError, type ServiceError } from '../errors.ts';
import { shownValue } from './rpc-error.ts';
import type { Tool } from './tool-kit.ts';

interface SchemaError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string;
}

const PATTERN_WORDS: Record<string, string> = {
  symbol: 'must be 1–25 letters, digits, ".", "&" or "-", starting with a letter or digit',
  symbols: 'must each be 1–25 letters, digits, ".", "&" or "-", starting with a letter or digit',
};

export function argumentFailure(
  t: Tool,
  input: Record<string, unknown>,
  errors: readonly SchemaError[],
): ServiceError {
  const taken = Object.keys(t.input.properties);
  const takes = taken.length > 0 ? `${t.name} takes ${taken.join(', ')}` : `${t.name} takes none`;
  // The most useful first: an unknown or missing argument before a wrong value.
  const first =
    errors.find((e) => e.keyword === 'additionalProperties') ??
    errors.find((e) => e.keyword === 'required') ??
    errors.find((e) => e.keyword !== 'boolean') ??
    errors[0];
  if (first === undefined) return new ValidationError(`the arguments of ${t.name} are not valid`);
  const name = first.instancePath.replace(/^\//, '').split('/')[0] ?? '';
  const value = input[name];
  // The value as the client sent it, in JSON: a string quoted, a number or boolean bare.
  const got = ` (got ${shownValue(value)})`;
  switch (first.keyword) {
    case 'additionalProperties': {
      const unknown = [first.params.additionalProperties].flat().map(String);
      return new BadRequestError(`unknown argument ${clientText(unknown[0] ?? '')}; ${takes}`);
    }
    case 'required': {
      const missing = [first.params.requiredProperties].flat().map(String);
      return new BadRequestError(`${missing.join(', ')} is required; ${takes}`);
    }
    case 'boolean':
      return new BadRequestError(`unknown argument ${clientText(name)}; ${takes}`);
    case 'enum': {
      const allowed = ((first.params.allowedValues as unknown[] | undefined) ?? []).map(String);
      return new ValidationError(`${name} must be ${orList(allowed)}${got}`);
    }
    case 'format':
      if (first.params.format === 'date')
        return new ValidationError(`${name} must be a calendar date as YYYY-MM-DD${got}`);
      return new ValidationError(`${name} must be a ${String(first.params.format)}${got}`);
    case 'pattern':
      return new ValidationError(`${name} ${PATTERN_WORDS[name] ?? 'is not in the accepted form'}${got}`);
    case 'minLength':
      if (value === '') return new BadRequestError(`${name} must not be empty`);
      return new ValidationError(`${name} must be at least ${String(first.params.limit)} characters${got}`);
    case 'maxLength':
      return new ValidationError(`${name} must be at most ${String(first.params.limit)} characters${got}`);
    case 'minItems':
      return new ValidationError(`${name} must have at least ${String(first.params.limit)} item(s)${got}`);
    case 'maxItems':
      return new ValidationError(
        `${name} must have at most ${String(first.params.limit)} items (got ${Array.isArray(value) ? value.length : 0})`,
      );
    case 'minimum':
    case 'maximum':
      return new ValidationError(`${name} ${first.message ?? 'is out of range'}${got}`);
    case 'type':
      return new ValidationError(`${name} must be ${article(String(first.params.type))}${got}`);
    default:
      return new ValidationError(
        `${name ? `${name} ` : ''}${first.message ?? 'is not valid'}${name ? got : ''}`,
      );
  }
}

function orList(values: string[]): string {
  if (values.length <= 1) return values.join('');
  return `${values.slice(0, -1).join(', ')} or ${values.at(-1)}`;
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}
