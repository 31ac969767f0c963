// The console's only way out: the public API, with the API key the operator signed in with.
// The key lives in sessionStorage (this tab only, gone when it closes), never in localStorage.

const KEY = 'igw.apiKey';

export const session = {
  key: () => sessionStorage.getItem(KEY),
  signIn: (key) => sessionStorage.setItem(KEY, key),
  signOut: () => sessionStorage.removeItem(KEY),
};

/** An API error as the gateway reports it: `{code, message, details?}` with the HTTP status. */
export class ApiError extends Error {
  constructor(status, body) {
    const message = body && typeof body.message === 'string' ? body.message : `The gateway answered ${status}.`;
    super(message);
    this.status = status;
    this.code = body && typeof body.code === 'string' ? body.code : 'error';
    this.details = body && Array.isArray(body.details) ? body.details : [];
  }
}

/** Calls the public API; resolves with the parsed body, rejects with an ApiError. */
export async function api(method, path, body, key = session.key()) {
  const headers = { accept: 'application/json' };
  if (key) headers.authorization = `Bearer ${key}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  let res;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new ApiError(0, { code: 'unreachable', message: 'The gateway cannot be reached.' });
  }
  const text = await res.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!res.ok) throw new ApiError(res.status, data);
  return data;
}

/** A query string from the set (non-empty) values of `params`. */
export function query(params) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
}

/** Every item of a cursor-paged list (at most `max`), following `next_cursor`. */
export async function listAll(path, params = {}, max = 1000) {
  const items = [];
  let cursor;
  do {
    const page = await api('GET', `${path}${query({ ...params, cursor })}`);
    items.push(...page.data);
    cursor = page.next_cursor;
  } while (cursor && items.length < max);
  return items.slice(0, max);
}
