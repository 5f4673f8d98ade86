// The MCP server one HTTP request talks to: the SDK's protocol layer with the tool table, the
// resources and the prompt. Stateless: nothing is kept between requests, so it is made per request
// from the request's context (its client address and budget) and the request limit's decisions.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation';
import {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';
import { Compile, type Validator } from 'typebox/compile';
import type { Static } from 'typebox';
import { memoByDataset } from '../cache/memo.ts';
import { InternalError, RateLimitedError, ServiceError, ValidationError } from '../errors.ts';
import { argumentFailure } from './arguments.ts';
import { RESOURCE_TEMPLATES, RESOURCES, readResource } from './resources.ts';
import { PROMPTS, getPrompt } from './prompts.ts';
import type { Structured, Tool, ToolContext } from './tool-kit.ts';
import { CORE_TOOLS, TOOLS, TOOL_BY_NAME } from './tools.ts';
import { invalidParams, RpcError, shownValue } from './rpc-error.ts';
import { toolWords } from './tool-words.ts';

export const SERVER_INFO = { name: 'psx-market-data', title: 'PSX market data' };

const INSTRUCTIONS =
  'Pakistan Stock Exchange market data: quotes, daily and intraday prices, corporate actions, company data, indices, sectors, the screener, the market state, performance and indicators, rankings, market-wide payouts, meetings and announcements, the debt market and other boards, whole-market daily bars and panels, and overviews (get_symbol_overview, get_market_overview gather a symbol or the market in one call). Prices are PKR, percentages are numbers, every answer carries as_of (Karachi time, +05:00). Find a symbol with search_stocks; lists are paged (offset, limit) and say their total (the rows of the whole list); daily series (get_history, get_index_history, get_indicators) give their newest rows unless offset is set, and say the offsets of older pages.';

/** The JSON-RPC error code of a service failure outside a tool call (a refused resource read). */
export const SERVICE_ERROR = -32000;

/**
 * Every tool as tools/list gives it: computed once, the same for every request. Every tool reads
 * a live portal (through the cache), hence openWorldHint; none changes anything.
 */
const listing = (t: Tool) => ({
  name: t.name,
  title: t.title,
  description: t.description,
  inputSchema: t.input as { type: 'object' },
  outputSchema: t.output as { type: 'object' },
  annotations: { readOnlyHint: true, openWorldHint: true, idempotentHint: true },
});
/** The tools offered, by whether the service has the archive and the tool set configured. */
const LISTINGS = new Map<string, ReturnType<typeof listing>[]>();
function listed(t: Pick<ToolContext, 'archive' | 'toolSet'>): ReturnType<typeof listing>[] {
  const key = `${t.archive !== undefined}:${t.toolSet ?? 'all'}`;
  let tools = LISTINGS.get(key);
  if (tools === undefined) {
    tools = TOOLS.filter((x) => offeredTool(x.name, t) !== undefined).map(listing);
    LISTINGS.set(key, tools);
  }
  return tools;
}

const validators = new Map<string, Validator>();
function validatorOf(t: Tool): Validator {
  let v = validators.get(t.name);
  if (v === undefined) {
    v = Compile(t.input) as Validator;
    validators.set(t.name, v);
  }
  return v;
}

export interface McpRequestOptions {
  version: string;
  tool: ToolContext;
  /** Where an unexpected error is logged (a request's logger). */
  logger: Pick<Logger, 'error'>;
  /** The request limit's refusal for this JSON-RPC request, if it was refused. */
  refusal: (requestId: string | number) => RateLimitedError | undefined;
  /** The OpenAPI document (a resource). */
  openapi: () => unknown;
}

// The SDK's server makes an Ajv instance of its own unless given one (to check a client's answers
// to elicitation, which this server never asks for): one shared validator, made on first use,
// instead of an Ajv compiled per request.
let ajv: AjvJsonSchemaValidator | undefined;
const SCHEMA_VALIDATOR: jsonSchemaValidator = {
  getValidator: (schema) => (ajv ??= new AjvJsonSchemaValidator()).getValidator(schema),
};

export function createMcpServer(opts: McpRequestOptions): Server {
  const server = new Server(
    { ...SERVER_INFO, version: opts.version },
    {
      capabilities: { tools: {}, resources: {}, prompts: {} },
      instructions: INSTRUCTIONS,
      jsonSchemaValidator: SCHEMA_VALIDATOR,
    },
  );
  const refuse = (id: string | number): void => {
    const refused = opts.refusal(id);
    if (refused !== undefined) throw protocolError(refused);
  };

  server.setRequestHandler(ListToolsRequestSchema, (_req, extra) => {
    refuse(extra.requestId);
    return { tools: listed(opts.tool) };
  });
  server.setRequestHandler(CallToolRequestSchema, async (req, extra) => {
    const refused = opts.refusal(extra.requestId);
    if (refused !== undefined) return toolError(refused);
    const offered = offeredTool(req.params.name, opts.tool);
    // An unknown tool is the protocol's invalid params (the client asked for something not listed).
    if (offered === undefined) throw invalidParams(unknownTool(req.params.name, opts.tool));
    return callTool(offered, req.params.arguments ?? {}, opts.tool, opts.logger);
  });
  server.setRequestHandler(ListResourcesRequestSchema, (_req, extra) => {
    refuse(extra.requestId);
    return { resources: RESOURCES };
  });
  server.setRequestHandler(ListResourceTemplatesRequestSchema, (_req, extra) => {
    refuse(extra.requestId);
    return { resourceTemplates: RESOURCE_TEMPLATES };
  });
  server.setRequestHandler(ReadResourceRequestSchema, async (req, extra) => {
    refuse(extra.requestId);
    try {
      return await readResource(req.params.uri, opts.tool, opts.openapi);
    } catch (err) {
      throw protocolError(asServiceError(err, opts.logger));
    }
  });
  server.setRequestHandler(ListPromptsRequestSchema, (_req, extra) => {
    refuse(extra.requestId);
    return { prompts: PROMPTS };
  });
  server.setRequestHandler(GetPromptRequestSchema, (req, extra) => {
    refuse(extra.requestId);
    return getPrompt(req.params.name, req.params.arguments ?? {});
  });
  return server;
}

/**
 * The tool of that name, if this service offers it: the archive's only with the archive, and
 * only the core set's when MCP_TOOLS=core.
 */
export function offeredTool(name: string, t: Pick<ToolContext, 'archive' | 'toolSet'>): Tool | undefined {
  const found = TOOL_BY_NAME.get(name);
  if (found === undefined) return undefined;
  if (found.needs === 'archive' && t.archive === undefined) return undefined;
  if (t.toolSet === 'core' && !CORE_TOOLS.has(found.name)) return undefined;
  return found;
}

/** Why a tool name is not callable, in words that say where the names are. */
function unknownTool(name: string, t: Pick<ToolContext, 'archive' | 'toolSet'>): string {
  const shown = shownValue(name, 64);
  const known = TOOL_BY_NAME.get(name);
  if (known !== undefined && t.toolSet === 'core') {
    return `tool ${shown} is not offered: this server offers its core set of tools (MCP_TOOLS=core); tools/list gives them`;
  }
  if (known !== undefined)
    return `tool ${shown} is not offered: it needs the archive, which this service does not keep`;
  return `unknown tool ${shown}; tools/list gives the tools this server offers`;
}

// A tool's result for each structured result it made: a cached answer gives the same structured
// result (tool-kit.ts, `one`) until the data changes, so its text is rendered once per version.
const toolResult = memoByDataset((structured: Structured, t: Tool): CallToolResult => ({
  content: [{ type: 'text', text: t.render(structured) }],
  structuredContent: structured,
}));

/** A tools/call of an offered tool: its result, or a tool error (bad arguments, a failure). */
export async function callTool(
  t: Tool,
  input: Record<string, unknown>,
  tool: ToolContext,
  logger: ErrorLog,
): Promise<CallToolResult> {
  const validator = validatorOf(t);
  if (!validator.Check(input)) return toolError(argumentFailure(t, input, [...validator.Errors(input)]));
  try {
    return toolResult(await t.run(input as Static<typeof t.input>, tool), t);
  } catch (err) {
    return toolError(asServiceError(err, logger));
  }
}

/** Where an unexpected failure is logged (with the request's id). */
export interface ErrorLog {
  error(fields: object, message: string): void;
}

function asServiceError(err: unknown, logger: ErrorLog): ServiceError {
  if (err instanceof ServiceError) return err;
  logger.error({ err }, 'unexpected error in an MCP handler');
  return new InternalError('internal server error');
}

/** The text of a failure: its code, status and message in tool words, and when to retry. */
export function failureText(err: ServiceError): string {
  const wait = err.retryAfter === undefined ? '' : `; retry after ${err.retryAfter} s`;
  return `Error ${err.code} (${err.statusCode}): ${toolWords(err.message)}${wait}`;
}

/** A failure a tool reports to the model: a result with isError, never a protocol failure. */
export function toolError(err: ServiceError): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: failureText(err) }] };
}

/** A failure outside a tool call: a JSON-RPC error carrying the service's code. */
function protocolError(err: ServiceError): RpcError {
  const code = err instanceof ValidationError ? ErrorCode.InvalidParams : SERVICE_ERROR;
  return new RpcError(code, failureText(err), {
    status: err.statusCode,
    code: err.code,
    ...(err.retryAfter === undefined ? {} : { retry_after: err.retryAfter }),
  });
}
