import { STATUS_CODES, maxHeaderSize } from 'node:http';
import type { Duplex } from 'node:stream';

export interface ClientErrorAnswer {
  status: number;
  body: { code: string; message: string };
}

/**
 * What Node's HTTP parser refuses before a request exists (no route, no Nest, no Fastify reply),
 * in the error model (DESIGN 6.2, 6.12): oversized headers are 431
 * `request_header_fields_too_large`, a request not received in time 408 `request_timeout`, any
 * other unparsable request 400 `invalid_request`. Null: the peer is gone, nothing to answer.
 */
export function clientErrorAnswer(err: { code?: string }): ClientErrorAnswer | null {
  switch (err.code) {
    case 'ECONNRESET':
      return null;
    case 'HPE_HEADER_OVERFLOW':
      return {
        status: 431,
        body: { code: 'request_header_fields_too_large', message: `request headers exceed ${Math.floor(maxHeaderSize / 1024)} KiB` },
      };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, body: { code: 'request_timeout', message: 'the request was not received in time' } };
    default:
      return { status: 400, body: { code: 'invalid_request', message: 'the request is not valid HTTP' } };
  }
}

/**
 * Fastify's `clientErrorHandler`: writes the answer on the raw socket and closes it (the parser
 * cannot go on after such an error). Nothing is logged: the client is at fault, not the server.
 */
export function answerClientError(err: Error & { code?: string }, socket: Duplex): void {
  const answer = clientErrorAnswer(err);
  if (answer === null || socket.destroyed) return;
  if (socket.writable) {
    const body = JSON.stringify(answer.body);
    socket.write(
      `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status]}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}
