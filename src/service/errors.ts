// Every error a client sees has the contract's shape:
// {"error": {"type", "code", "message", "param"}}, one clear sentence, never a stack or a secret.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { errorEntry, type ErrorCode, type ErrorType } from '../contract/error-codes.js';
import type { Logger } from '../log/logger.js';
import { KeychainUnavailableError } from '../secrets/errors.js';
import { diskFullSentence, isOutOfSpace } from '../store/disk.js';
import { TurnError } from '../turns/errors.js';
import type { AnthropicError } from '../contract/anthropic-messages.js';
import { anthropicErrorType } from './messages-object.js';

export type { ErrorType } from '../contract/error-codes.js';

/** An error in the contract's shape; its status and type come from the catalog (contract/error-codes.ts). */
export class ApiError extends Error {
  readonly status: number;
  readonly type: ErrorType;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly param: string | null = errorEntry(code).param,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = errorEntry(code).status;
    this.type = errorEntry(code).type;
  }

  toBody(): { error: { type: ErrorType; code: string; message: string; param: string | null } } {
    return { error: { type: this.type, code: this.code, message: this.message, param: this.param } };
  }
}

export const badRequest = (message: string, param: string | null = null, code: ErrorCode = 'invalid_request_error'): ApiError =>
  new ApiError(code, message, param);

export const notFound = (what: string, code: ErrorCode = 'not_found'): ApiError => new ApiError(code, `${what} was not found.`, null);

/**
 * A 4xx that asking again cannot change (a bad body, a missing thing, a refused scope, a state that
 * will not come back): the OpenAI SDKs retry 408, 409 and 429 unless told so, and lose seconds.
 * Waiting can change a rate limit, a timeout and a key still in progress; those are left alone.
 */
function retryCannotHelp(err: ApiError): boolean {
  if (err.status < 400 || err.status >= 500) return false;
  if (err.status === 408 || err.status === 429) return false;
  return err.code !== 'idempotency_key_in_progress' && err.code !== 'previous_response_in_progress';
}

/** Anthropic's door (POST /v1/messages, /v1/messages/count_tokens): its SDKs read its error shape. */
const ANTHROPIC_DOOR = /^\/v1\/messages(?:[/?]|$)/;

function anthropicBody(err: ApiError, requestId: string): AnthropicError {
  return { type: 'error', error: { type: anthropicErrorType(err.type, err.status), message: err.message }, request_id: requestId };
}

export function sendError(reply: FastifyReply, err: ApiError): FastifyReply {
  for (const [k, v] of Object.entries(err.headers)) void reply.header(k, v);
  if (retryCannotHelp(err)) void reply.header('x-should-retry', 'false');
  const body = ANTHROPIC_DOOR.test(reply.request.url) ? anthropicBody(err, reply.request.id) : err.toBody();
  return reply.code(err.status).type('application/json').send(body);
}

/** 507: a write failed because the disk holding `path` is full (a state the user can fix). */
export function insufficientStorage(path: string): ApiError {
  return new ApiError('insufficient_storage', diskFullSentence(path), null, { 'retry-after': '30' });
}

/** Maps anything thrown in a route to the contract's shape; `dataDir` names the disk when it is full. */
export function toApiError(err: unknown, dataDir?: string): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof TurnError) return new ApiError(err.code, err.message, err.param);
  if (dataDir !== undefined && isOutOfSpace(err)) return insufficientStorage(dataDir);
  // The keychain went away under a running service: what needs a secret waits for it.
  if (err instanceof KeychainUnavailableError) return new ApiError('keychain_unavailable', err.message, null, { 'retry-after': '30' });
  if (isFastifyError(err) && err.statusCode !== undefined && err.statusCode < 500) {
    switch (err.code) {
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return new ApiError('request_too_large', 'The request body is too large (the limit is 1 MiB).');
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return new ApiError('unsupported_media_type', 'Send the request body as application/json.');
      case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
        return badRequest('The Content-Length header does not match the body.');
      default:
        return badRequest(
          err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err instanceof SyntaxError
            ? 'The request body is not valid JSON.'
            : 'The request could not be read; check its headers and body.',
          null,
          err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' ? 'invalid_json' : 'invalid_request_error',
        );
    }
  }
  return new ApiError('internal_error', 'Sanad hit an unexpected error; the details are in its log.');
}

function isFastifyError(err: unknown): err is FastifyError {
  return err instanceof Error && 'code' in err;
}

/** The first segments of the routes under /v1/ (for the 404 of a base URL without /v1). */
const V1_ROUTES = ['responses', 'chat', 'completions', 'embeddings', 'messages', 'models', 'conversations', 'tasks', 'pair', 'rerank'];

export function installErrorHandlers(
  app: {
    setErrorHandler: (h: (err: unknown, req: FastifyRequest, reply: FastifyReply) => unknown) => unknown;
    setNotFoundHandler: (h: (req: FastifyRequest, reply: FastifyReply) => unknown) => unknown;
  },
  logger: Logger,
  disk?: { path: string; noteFailure(err: unknown): boolean },
): void {
  app.setErrorHandler((err, req, reply) => {
    const api = toApiError(err, disk?.path);
    if (api.status === 507) {
      disk?.noteFailure(err);
      logger.warn('write refused: the disk is full', { method: req.method, url: req.routeOptions.url });
    } else if (api.status >= 500)
      logger.error('request failed', {
        request_id: req.id,
        method: req.method,
        url: req.routeOptions.url,
        error: err instanceof Error ? err.stack : String(err),
      });
    return sendError(reply, api);
  });
  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0] ?? '';
    // A base URL set without /v1 (a common slip in a client's settings): say where the route is.
    const under = path.startsWith('/v1/') ? undefined : V1_ROUTES.find((r) => path === `/${r}` || path.startsWith(`/${r}/`));
    const hint = under ? `; the API is under /v1/, so this is ${req.method} /v1${path} (set the client's base URL to end in /v1)` : '';
    return sendError(reply, new ApiError('not_found', `There is no route ${req.method} ${path}${hint}.`));
  });
}
