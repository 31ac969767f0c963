// "Preview" beside publish and save (DESIGN 6.16): the organisation's kept calls re-decided with
// the change as if it were live (POST /v1/replays), nothing recorded. Shows the count per
// transition and the calls that would change, before the change goes live: intentions (outcomes
// of the legacy path) and intent cards (decision kinds of the mandate path).
import { api } from '../api.js';
import { Badge, Empty, ErrorMessage, html, useAction, useEffect, useState } from '../ui.js';

const Outcome = ({ side }) => html`<${Badge} value=${side.outcome ?? side.kind} />${side.intent_label ? html` <code>${side.intent_label}</code>` : ''}`;

/** `changes`: the replay's change list; `title`: what is previewed ("publish crm.lookup"). */
export function IntentionPreview({ title, changes, onClose }) {
  return html`<${ReplayPreview} title=${title} request=${{ kind: 'intentions', changes }} onClose=${onClose} />`;
}

/** `request`: the replay's body without a cursor (`{kind: 'intentions', changes}` or `{kind: 'card', card}`). */
export function ReplayPreview({ title, request, onClose }) {
  const [replay, setReplay] = useState(null);
  const [calls, setCalls] = useState([]);
  const load = useAction();
  const more = (cursor) =>
    load.run(async () => {
      const page = await api('POST', '/v1/replays', { ...request, ...(cursor ? { cursor } : {}) });
      setReplay(page);
      setCalls((seen) => (cursor ? [...seen, ...page.calls] : page.calls));
    });
  useEffect(() => void more(null), []);
  const changed = replay ? replay.transitions.reduce((n, t) => n + t.count, 0) : 0;
  return html`<section class="panel" aria-label=${`Preview: ${title}`}>
    <header class="panel-head">
      <h2>Preview: ${title}</h2>
      <button type="button" class="secondary outline" onClick=${onClose}>Close</button>
    </header>
    <${ErrorMessage} error=${load.error} />
    ${!replay && !load.error && html`<p aria-busy="true">Re-deciding the kept calls…</p>`}
    ${
      replay &&
      html`<p data-replayed=${replay.replayed}>
          ${replay.replayed} kept calls re-decided with this change; <strong data-changed=${changed}>${changed}</strong> would be decided differently. Nothing
          was recorded.
        </p>
        ${
          replay.transitions.length === 0
            ? html`<${Empty}>No call would be decided differently.</${Empty}>`
            : html`<table data-table="transitions">
                <caption>
                  ${request.kind === 'card' ? 'Decision changes' : 'Outcome changes'}
                </caption>
                <thead>
                  <tr>
                    <th scope="col">Now</th>
                    <th scope="col">With the change</th>
                    <th scope="col">Calls</th>
                  </tr>
                </thead>
                <tbody>
                  ${replay.transitions.map(
                    (t) =>
                      html`<tr data-key=${`${t.from}>${t.to}`}>
                        <td><${Badge} value=${t.from} /></td>
                        <td><${Badge} value=${t.to} /></td>
                        <td data-count=${t.count}>${t.count}</td>
                      </tr>`,
                  )}
                </tbody>
              </table>`
        }
        ${
          calls.length > 0 &&
          html`<table data-table="changed-calls">
            <caption>
              Calls that would change
            </caption>
            <thead>
              <tr>
                <th scope="col">Tool</th>
                <th scope="col">Now</th>
                <th scope="col">With the change</th>
              </tr>
            </thead>
            <tbody>
              ${calls.map(
                (c) =>
                  html`<tr data-call=${c.id}>
                    <td><code>${c.tool_name}</code></td>
                    <td><${Outcome} side=${c.before} /></td>
                    <td><${Outcome} side=${c.after} /></td>
                  </tr>`,
              )}
            </tbody>
          </table>`
        }
        ${replay.next_cursor && html`<button type="button" class="secondary" aria-busy=${load.busy} onClick=${() => more(replay.next_cursor)}>More changed calls</button>`}`
    }
  </section>`;
}
