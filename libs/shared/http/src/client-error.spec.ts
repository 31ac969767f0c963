import { maxHeaderSize } from 'node:http';
import type { Duplex } from 'node:stream';
import { answerClientError, clientErrorAnswer } from './client-error';

/** Records what would go on the wire. */
function fakeSocket(state: { writable?: boolean; destroyed?: boolean } = {}) {
  const socket = {
    writable: state.writable ?? true,
    destroyed: state.destroyed ?? false,
    written: '',
    write: (s: string) => ((socket.written += s), true),
    destroy: () => ((socket.destroyed = true), socket),
  };
  return socket;
}

const parseResponse = (raw: string) => {
  const [head, body] = raw.split('\r\n\r\n') as [string, string];
  const [status, ...headers] = head.split('\r\n');
  return { status, headers: Object.fromEntries(headers.map((h) => h.split(': ').map((p, i) => (i === 0 ? p.toLowerCase() : p)))), body: JSON.parse(body) };
};

describe('client errors (before any request exists)', () => {
  it('answers oversized headers with a JSON 431 in the error model and closes the socket', () => {
    const socket = fakeSocket();
    answerClientError(Object.assign(new Error('Header overflow'), { code: 'HPE_HEADER_OVERFLOW' }), socket as unknown as Duplex);
    const res = parseResponse(socket.written);
    expect(res.status).toBe('HTTP/1.1 431 Request Header Fields Too Large');
    expect(res.headers).toMatchObject({
      'content-type': 'application/json',
      connection: 'close',
      'content-length': String(Buffer.byteLength(JSON.stringify(res.body))),
    });
    expect(res.body).toEqual({ code: 'request_header_fields_too_large', message: `request headers exceed ${Math.floor(maxHeaderSize / 1024)} KiB` });
    expect(socket.destroyed).toBe(true);
  });

  it('maps timeouts to 408 and any other parse error to 400 invalid_request, never with internals', () => {
    expect(clientErrorAnswer({ code: 'ERR_HTTP_REQUEST_TIMEOUT' })).toEqual({ status: 408, body: { code: 'request_timeout', message: expect.any(String) } });
    for (const code of ['HPE_INVALID_METHOD', 'HPE_INVALID_HEADER_TOKEN', undefined]) {
      expect(clientErrorAnswer({ code })).toEqual({ status: 400, body: { code: 'invalid_request', message: 'the request is not valid HTTP' } });
    }
  });

  it('writes nothing to a reset or unwritable socket', () => {
    const reset = fakeSocket();
    answerClientError(Object.assign(new Error('reset'), { code: 'ECONNRESET' }), reset as unknown as Duplex);
    expect(reset.written).toBe('');
    const closed = fakeSocket({ writable: false });
    answerClientError(Object.assign(new Error('x'), { code: 'HPE_HEADER_OVERFLOW' }), closed as unknown as Duplex);
    expect(closed.written).toBe('');
    expect(closed.destroyed).toBe(true);
  });
});
