// Shared pieces of the console: the htm binding, error display, paging, small formatters.
import { h, render } from '../vendor/preact.module.js';
import { useCallback, useEffect, useRef, useState } from '../vendor/hooks.module.js';
import htm from '../vendor/htm.module.js';
import { api, ApiError } from './api.js';

export const html = htm.bind(h);
export { render, useCallback, useEffect, useRef, useState };

/** The API's message (and the fields it names), as the operator should read it. */
export function ErrorMessage({ error }) {
  if (!error) return null;
  // The API's details field by field; the console's own input errors (calls.js) carry them too.
  const details = error instanceof ApiError || Array.isArray(error.details) ? error.details : [];
  return html`<div class="error" role="alert">
    <strong>${error.message}</strong>
    ${
      details.length > 0 &&
      html`<ul>
        ${details.map((d) => html`<li><code>${d.path}</code>: ${d.message}</li>`)}
      </ul>`
    }
  </div>`;
}

/** A value shown once (a new API key, a webhook secret): with a copy button and a warning. */
export function ShownOnce({ label, value, onDone }) {
  const [copied, setCopied] = useState(false);
  return html`<article class="secret" aria-live="polite">
    <p><strong>${label}</strong> — shown once: copy it now, the gateway keeps only a hash.</p>
    <p><code data-testid="shown-once">${value}</code></p>
    <div class="actions">
      <button
        type="button"
        onClick=${async () => {
          try {
            await navigator.clipboard.writeText(value);
            setCopied(true);
          } catch {
            setCopied(false);
          }
        }}
      >
        ${copied ? 'Copied' : 'Copy'}
      </button>
      <button type="button" class="secondary" onClick=${onDone}>I stored it</button>
    </div>
  </article>`;
}

/**
 * Loads a cursor-paged list. Returns the page, the error, a reload function and paging controls;
 * `deps` changing (filters) starts again from the first page.
 */
export function usePagedList(path, params, deps, refreshMs) {
  const [cursors, setCursors] = useState([undefined]);
  const [page, setPage] = useState(null);
  const [error, setError] = useState(null);
  const cursor = cursors[cursors.length - 1];
  const load = useCallback(async () => {
    try {
      const q = new URLSearchParams();
      for (const [k, v] of Object.entries({ ...params, cursor })) if (v !== undefined && v !== '') q.set(k, String(v));
      const s = q.toString();
      setPage(await api('GET', `${path}${s ? `?${s}` : ''}`));
      setError(null);
    } catch (e) {
      setError(e);
    }
  }, [path, cursor, ...deps]);
  useEffect(() => setCursors([undefined]), deps);
  useEffect(() => {
    load();
    if (!refreshMs) return undefined;
    const timer = setInterval(load, refreshMs);
    return () => clearInterval(timer);
  }, [load]);
  const pager = html`<div class="actions">
    <button type="button" class="secondary" disabled=${cursors.length === 1} onClick=${() => setCursors([undefined])}>First page</button>
    <button type="button" class="secondary" disabled=${!page || !page.next_cursor} onClick=${() => setCursors([...cursors, page.next_cursor])}>
      Next page
    </button>
  </div>`;
  return { page, error, reload: load, pager };
}

/** Runs an action, showing its error; resolves true when it succeeded. */
export function useAction() {
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const run = async (fn) => {
    setBusy(true);
    try {
      await fn();
      setError(null);
      return true;
    } catch (e) {
      setError(e);
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { error, busy, run, setError };
}

/** A form's submit handler that runs `fn` as an action (its `busy` and `error` for the form): `[action, submit]`. */
export function useSubmit(fn) {
  const action = useAction();
  const submit = (e) => {
    e.preventDefault();
    action.run(fn);
  };
  return [action, submit];
}

/** `set(field)`: an input's handler that stores its value (a checkbox's checked) as `field` of `form`. */
export const fieldSetter = (form, setForm) => (k) => (e) => setForm({ ...form, [k]: e.target.type === 'checkbox' ? e.target.checked : e.target.value });

/** The end of a form: the error of its `action` (from useSubmit), then its submit button. */
export const FormSubmit = ({ action, label }) =>
  html`<${ErrorMessage} error=${action.error} /> <button type="submit" aria-busy=${action.busy}>${label}</button>`;

export const when = (iso) => (iso ? new Date(iso).toLocaleString() : '—');
export const Badge = ({ value }) => html`<span class=${`badge ${value}`}>${value}</span>`;
export const Empty = ({ children }) => html`<p><em>${children}</em></p>`;

/** A page of a list: a note when it is empty, else a table with `head` and a row per item. */
export function Listing({ page, empty, head, row }) {
  if (!page) return null;
  if (page.data.length === 0) return html`<${Empty}>${empty}</${Empty}>`;
  return html`<table>
    <thead>
      <tr>
        ${head.map((h) => html`<th>${h}</th>`)}
      </tr>
    </thead>
    <tbody>
      ${page.data.map(row)}
    </tbody>
  </table>`;
}

/** A button that runs `call` (an API request) as `action`, whose error the page shows, then `then` (a reload). */
export function ActionButton({ action, label, call, then, primary = false }) {
  const run = () =>
    action.run(async () => {
      await call();
      await then();
    });
  return html`<button type="button" class=${primary ? undefined : 'secondary'} onClick=${run}>${label}</button>`;
}
