// Webhooks: register (the signing secret is shown once), rotate the secret, re-enable, remove,
// and each endpoint's deliveries.
import { api } from '../api.js';
import { FilterSelect, ListPage } from '../list-page.js';
import { ActionButton, Badge, FormSubmit, html, ShownOnce, useAction, usePagedList, useState, useSubmit, when } from '../ui.js';

const EVENTS = [
  'intent.evaluated',
  'decision.made',
  'approval.requested',
  'approval.approved',
  'approval.denied',
  'approval.expired',
  'intention.published',
  'mandate.dispensed',
  'mandate.refreshed',
  'mandate.revoked',
];

function Deliveries({ webhook }) {
  const [status, setStatus] = useState('');
  const list = usePagedList(`/v1/webhooks/${webhook.id}/deliveries`, { status, limit: 20 }, [webhook.id, status]);
  return html`<section aria-label=${`Deliveries to ${webhook.url}`}>
    <h3>Deliveries to <code>${webhook.url}</code></h3>
    <${FilterSelect}
      label="Status"
      name="delivery-status"
      value=${status}
      options=${['', 'pending', 'succeeded', 'failed', 'exhausted', 'cancelled']}
      onChange=${setStatus}
    />
    <${ListPage}
      list=${list}
      empty="No deliveries."
      head=${['Created', 'Event', 'Status', 'Attempts', 'Last answer', 'Next attempt']}
      row=${(d) =>
        html`<tr>
          <td>${when(d.created_at)}</td>
          <td>${d.event_type}<br /><small class="id">${d.event_id}</small></td>
          <td><${Badge} value=${d.status} /></td>
          <td>${d.attempts}</td>
          <td>${d.last_response_code ?? ''} ${d.last_error ?? ''}</td>
          <td>${when(d.next_attempt_at)}</td>
        </tr>`}
    />
  </section>`;
}

export function WebhooksPage() {
  const list = usePagedList('/v1/webhooks', { limit: 25 }, []);
  const { page, reload } = list;
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState(['decision.made', 'approval.requested']);
  const [secret, setSecret] = useState(null);
  const [open, setOpen] = useState(null);
  const act = useAction();
  const [create, submit] = useSubmit(async () => {
    const created = await api('POST', '/v1/webhooks', { url: url.trim(), events, ...(description.trim() ? { description: description.trim() } : {}) });
    setSecret({ label: `Signing secret of ${created.url}`, value: created.secret });
    setUrl('');
    await reload();
  });
  const toggle = (ev) => setEvents(events.includes(ev) ? events.filter((x) => x !== ev) : [...events, ev]);
  return html`<details>
      <summary role="button" class="outline">Register a webhook</summary>
      <form onSubmit=${submit} aria-label="Register a webhook">
        <div class="grid">
          <label
            >URL <input name="url" type="url" required placeholder="https://hooks.example.com/igw" value=${url} onInput=${(e) => setUrl(e.target.value)}
          /></label>
          <label>Description <input name="description" value=${description} onInput=${(e) => setDescription(e.target.value)} /></label>
        </div>
        <fieldset>
          <legend>Events</legend>
          ${EVENTS.map((ev) => html`<label><input type="checkbox" name="events" value=${ev} checked=${events.includes(ev)} onChange=${() => toggle(ev)} /> ${ev}</label>`)}
        </fieldset>
        <${FormSubmit} action=${create} label="Register" />
      </form>
    </details>
    ${secret && html`<${ShownOnce} label=${secret.label} value=${secret.value} onDone=${() => setSecret(null)} />`}
    <${ListPage}
      list=${list}
      error=${act.error}
      empty="No webhooks."
      head=${['URL', 'Events', 'Status', 'Created', '']}
      row=${(w) =>
        html`<tr data-webhook=${w.id}>
          <td><code>${w.url}</code><br /><small>${w.description ?? ''}</small></td>
          <td>${w.events.join(', ')}</td>
          <td><${Badge} value=${w.status} />${w.disabled_reason ? html`<br /><small>${w.disabled_reason}</small>` : ''}</td>
          <td>${when(w.created_at)}</td>
          <td>
            <div class="actions">
              <button type="button" class="secondary" onClick=${() => setOpen(open === w.id ? null : w.id)}>Deliveries</button>
              <button
                type="button"
                class="secondary"
                onClick=${() =>
                  act.run(async () => {
                    const rotated = await api('POST', `/v1/webhooks/${w.id}/rotate-secret`);
                    setSecret({ label: `New signing secret of ${w.url}`, value: rotated.secret });
                  })}
              >
                Rotate secret
              </button>
              ${
                w.status === 'disabled' &&
                html`<${ActionButton} action=${act} label="Enable" call=${() => api('POST', `/v1/webhooks/${w.id}/enable`)} then=${reload} primary />`
              }
              <button
                type="button"
                class="secondary"
                onClick=${() =>
                  act.run(async () => {
                    await api('DELETE', `/v1/webhooks/${w.id}`);
                    if (open === w.id) setOpen(null);
                    await reload();
                  })}
              >
                Remove
              </button>
            </div>
          </td>
        </tr>`}
    />
    ${open && page && page.data.some((w) => w.id === open) && html`<${Deliveries} webhook=${page.data.find((w) => w.id === open)} />`}`;
}
