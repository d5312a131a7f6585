import { Code, translate } from '@csms/contract';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from './errors.js';
import { langOf } from './mount.js';

/** Largest JSON body (`bodyLimit`) and largest multipart request (uploads: each kind has its own lower limit). */
export const BODY_LIMIT_MB = 2;
export const MULTIPART_LIMIT_MB = 50;

/**
 * What a failure of the framework's own layers (body parsing, size limit, content type, URL,
 * multipart) says to the caller, as an AppError; undefined for anything else, which is ours (500).
 */
export function clientError(err: unknown): AppError | undefined {
  const e = err as Partial<FastifyError> & { name?: string };
  if (!e || typeof e !== 'object') return undefined;
  const status = e.statusCode ?? 0;
  switch (e.code) {
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError(Code.BAD_REQUEST, 'errors.request.emptyBody');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new AppError(Code.BAD_REQUEST, 'errors.request.badJson');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new AppError(Code.BAD_REQUEST, 'errors.request.tooLarge', { mb: BODY_LIMIT_MB });
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return new AppError(Code.BAD_REQUEST, 'errors.request.unsupportedType', { type: '' });
    case 'FST_ERR_BAD_URL':
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new AppError(Code.BAD_REQUEST, 'errors.request.badUrl');
    case 'FST_REQ_FILE_TOO_LARGE':
    case 'FST_PARTS_LIMIT':
    case 'FST_FILES_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return new AppError(Code.BAD_REQUEST, 'errors.request.tooLarge', { mb: MULTIPART_LIMIT_MB }, 'file');
  }
  // JSON that does not parse comes back as a SyntaxError the framework marked 400.
  if (status === 400 && e.name === 'SyntaxError') return new AppError(Code.BAD_REQUEST, 'errors.request.badJson');
  if (status === 413) return new AppError(Code.BAD_REQUEST, 'errors.request.tooLarge', { mb: BODY_LIMIT_MB });
  if (status === 415) return new AppError(Code.BAD_REQUEST, 'errors.request.unsupportedType', { type: '' });
  if (status >= 400 && status < 500) return new AppError(Code.BAD_REQUEST, 'errors.badRequest');
  return undefined;
}

/** The envelope of DESIGN.md §4 for an error, in the caller's language. */
export function envelopeOf(req: FastifyRequest, err: AppError) {
  return {
    code: err.code,
    msg: translate(langOf(req), err.key, err.params),
    data: err.field !== undefined ? { field: err.field } : null,
  };
}

/**
 * No raw `FST_ERR_*` answer: errors raised before a route's handler (JSON parsing, body limit,
 * content type) and anything a plain route throws become the envelope, with HTTP 200 like every
 * other answer, in the caller's language. The reply names the content type that was refused.
 */
export function installErrorReplies(server: FastifyInstance) {
  server.setErrorHandler((err, req, reply) => {
    const known = clientError(err);
    if (!known) req.log.error({ err }, 'request failed');
    else if (known.key === 'errors.request.unsupportedType') known.params.type = String(req.headers['content-type'] ?? '').slice(0, 100);
    const body = known
      ? envelopeOf(req, known)
      : { code: Code.SERVER_ERROR, msg: translate(langOf(req), 'errors.serverError'), data: null };
    return reply.code(200).send(body);
  });
}

/** Fastify's `frameworkErrors` option: a malformed URL before routing answers the envelope too. */
export function frameworkErrors(err: FastifyError, req: FastifyRequest, reply: FastifyReply) {
  const known = clientError(err) ?? new AppError(Code.BAD_REQUEST, 'errors.badRequest');
  void reply.code(200).send(envelopeOf(req, known));
}
