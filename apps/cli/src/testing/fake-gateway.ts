import type { Io } from '../output';

export interface Sent {
  method: string;
  path: string;
  body: unknown;
}

/**
 * `igw` in process against a fake gateway (the SDK's fetch answers from `answer`): what a
 * command sends, how it prints, and its exit code.
 */
export function fakeGateway(answer: (req: Sent) => { status: number; body?: unknown }) {
  const sent: Sent[] = [];
  const out: string[] = [];
  const err: string[] = [];
  const io: Io = {
    out: (t) => void out.push(t),
    err: (t) => void err.push(t),
    env: { IGW_URL: 'http://gw.test', IGW_API_KEY: 'igw_k', IGW_CONFIG: '/nonexistent/igw.json' },
    fetch: async (request: Request) => {
      const text = await request.text();
      const url = new URL(request.url);
      const req = { method: request.method, path: `${url.pathname}${url.search}`, body: text ? JSON.parse(text) : undefined };
      sent.push(req);
      const { status, body } = answer(req);
      return new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    },
  };
  return { io, sent, out: () => out.join(''), err: () => err.join(''), json: () => JSON.parse(out.join('')) };
}
