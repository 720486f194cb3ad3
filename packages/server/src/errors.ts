import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { WvrError, isWvrError, storageError, type ErrorBody } from '@wvr/engine';

/** Fastify's own client errors, in the spec's error body. */
const FASTIFY_CLIENT_ERRORS: Record<string, { status: number; error: ErrorBody['error']; code: string; message: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, error: 'validation_error', code: 'invalid_json', message: 'The body is not valid JSON.' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, error: 'validation_error', code: 'invalid_json', message: 'The body is empty but declared as JSON.' },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, error: 'payload_too_large', code: 'payload_too_large', message: 'The body is larger than the server accepts.' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, error: 'validation_error', code: 'unsupported_media_type', message: 'Send the body as application/json.' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, error: 'validation_error', code: 'invalid_content_length', message: 'Content-Length does not match the body.' },
};

export function sendError(error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  // A full disk or a database held by another writer is the server's state, not a bug: 507 / 503 with Retry-After.
  const storage = isWvrError(error) ? undefined : storageError(error);
  if (storage) {
    request.log.warn({ err: error }, storage.code);
    error = storage;
  }
  if (isWvrError(error)) {
    if (error.retryAfter !== undefined) reply.header('Retry-After', String(error.retryAfter));
    const reset = error.details?.reset;
    if (error.status === 429 && typeof reset === 'number') {
      reply.header('X-RateLimit-Remaining', '0').header('X-RateLimit-Reset', String(reset));
      if (typeof error.details?.limit === 'number') reply.header('X-RateLimit-Limit', String(error.details.limit));
    }
    return reply.status(error.status).send(error.toBody());
  }
  const fastifyError = error as Partial<FastifyError>;
  const known = fastifyError.code ? FASTIFY_CLIENT_ERRORS[fastifyError.code] : undefined;
  if (known) {
    const body: ErrorBody = { error: known.error, message: known.message, code: known.code };
    if (known.code === 'payload_too_large') body.suggestions = ['Split the request or send fewer items.'];
    return reply.status(known.status).send(body);
  }
  if (typeof fastifyError.statusCode === 'number' && fastifyError.statusCode < 500) {
    return reply.status(fastifyError.statusCode).send({
      error: 'validation_error',
      message: fastifyError.message ?? 'Bad request.',
      code: 'bad_request',
    } satisfies ErrorBody);
  }
  request.log.error({ err: error }, 'unhandled error');
  const internal = new WvrError('internal_error', `Something went wrong on our side (request ${request.id}).`, {
    code: 'internal_error',
    details: { request_id: request.id },
  });
  return reply.status(500).send(internal.toBody());
}

export function sendNotFound(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const body: ErrorBody = {
    error: 'not_found',
    message: `No route ${request.method} ${request.url.split('?')[0]}.`,
    code: 'route_not_found',
    suggestions: ['See GET /v1/openapi.json for every route.'],
  };
  return reply.status(404).send(body);
}
