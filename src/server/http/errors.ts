// One error handler for the whole server: every 4xx and 5xx is a JSON ErrorBody (section 8).
// 400 and unexpected 500s carry a stack-trace hash and a timestamp; the hash is logged with the error, so
// support can find the log entry from what the user's /error page shows.
import { createHash } from 'node:crypto';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorBody, FieldError } from '../../contract/errors';
import { RequestRefused } from '../domain/errors';
import {
  BODY_TOO_LARGE_MESSAGE,
  MALFORMED_BODY_MESSAGE,
  TOO_MANY_REQUESTS_MESSAGE,
  UNEXPECTED_ERROR_MESSAGE,
  UNSUPPORTED_MEDIA_MESSAGE,
  VALIDATION_FAILED_MESSAGE,
} from '../domain/messages';
import type { Clock } from '../adapters/clock';

/** A response that broke its own contract: a server bug, answered as a 500. */
export class ResponseContractError extends Error {
  constructor(
    readonly callId: string,
    readonly problems: string[],
  ) {
    super(`Response of ${callId} does not match the contract: ${problems.join('; ')}`);
    this.name = 'ResponseContractError';
  }
}

export function stackTraceHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

interface Answer {
  status: number;
  body: ErrorBody;
  headers?: Readonly<Record<string, string>>;
}

function withTrace(status: number, body: ErrorBody, traceSource: string, clock: Clock): Answer {
  return {
    status,
    body: { ...body, stackTraceHash: stackTraceHash(traceSource), timestamp: clock.now().toISOString() },
  };
}

/** Maps anything thrown to a status and body. */
export function toErrorAnswer(error: unknown, clock: Clock): Answer & { unexpected: boolean } {
  if (error instanceof RequestRefused) {
    // Refusals are expected answers; only a 400 (a client that broke the contract) is traced.
    const traced = error.status === 400;
    const source = `${error.status}:${error.body.message}:${(error.body.errors ?? []).map((e) => e.fieldName).join(',')}`;
    const answer = traced
      ? withTrace(error.status, error.body, source, clock)
      : { status: error.status, body: error.body };
    return { ...answer, headers: error.headers, unexpected: false };
  }
  const fastifyError = error as Partial<FastifyError> & { status?: number };
  const status = fastifyError.statusCode ?? fastifyError.status;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    const code = fastifyError.code ?? '';
    const detail = fastifyError.message ?? '';
    let body: ErrorBody;
    let finalStatus = status;
    if (code === 'FST_ERR_CTP_BODY_TOO_LARGE' || status === 413) {
      finalStatus = 413;
      body = { message: BODY_TOO_LARGE_MESSAGE };
    } else if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || status === 415) {
      finalStatus = 415;
      body = { message: UNSUPPORTED_MEDIA_MESSAGE };
    } else if (status === 429) {
      body = { message: TOO_MANY_REQUESTS_MESSAGE };
    } else if (status === 400) {
      // Malformed JSON, an empty JSON body, __proto__ or constructor.prototype keys.
      const errors: FieldError[] = [{ fieldName: 'body', message: detail || MALFORMED_BODY_MESSAGE }];
      body = {
        message:
          code.startsWith('FST_ERR_CTP') || error instanceof SyntaxError
            ? MALFORMED_BODY_MESSAGE
            : VALIDATION_FAILED_MESSAGE,
        errors,
      };
    } else {
      body = { message: detail || 'The request was refused.' };
    }
    const traced = finalStatus === 400;
    const answer = traced
      ? withTrace(finalStatus, body, `${finalStatus}:${code}`, clock)
      : { status: finalStatus, body };
    return { ...answer, unexpected: false };
  }
  const stack = error instanceof Error ? (error.stack ?? error.message) : String(error);
  return { ...withTrace(500, { message: UNEXPECTED_ERROR_MESSAGE }, stack, clock), unexpected: true };
}

export function sendError(reply: FastifyReply, answer: Answer): FastifyReply {
  return reply
    .code(answer.status)
    .header('cache-control', 'no-store')
    .headers(answer.headers ?? {})
    .type('application/json; charset=utf-8')
    .send(JSON.stringify(answer.body));
}

export function installErrorHandler(app: FastifyInstance, clock: Clock): void {
  app.setErrorHandler((error: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const answer = toErrorAnswer(error, clock);
    if (answer.unexpected) {
      request.log.error({ err: error, stackTraceHash: answer.body.stackTraceHash }, 'unexpected error');
    } else if (answer.status >= 500 || answer.body.stackTraceHash) {
      request.log.info(
        { status: answer.status, stackTraceHash: answer.body.stackTraceHash, reason: answer.body.message },
        'request refused',
      );
    }
    return sendError(reply, answer);
  });
}
