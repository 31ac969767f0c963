// Approvals: the queue of calls waiting for a human, refreshed on its own every few seconds.
import { api } from '../api.js';
import { Badge, ErrorMessage, html, Listing, useAction, usePagedList, useState, when } from '../ui.js';

export function ApprovalsPage() {
  const [status, setStatus] = useState('pending');
  const { page, error, reload, pager } = usePagedList('/v1/approvals', { status, limit: 25 }, [status], 3000);
  const action = useAction();
  const [reasons, setReasons] = useState({});
  const decide = (id, verb) =>
    action.run(async () => {
      await api('POST', `/v1/approvals/${id}/${verb}`, verb === 'deny' ? { reason: reasons[id] || undefined } : undefined);
      await reload();
    });
  return html`<section aria-labelledby="queue">
    <div class="filters">
      <label
        >Status
        <select name="status" value=${status} onChange=${(e) => setStatus(e.target.value)}>
          ${['pending', 'approved', 'denied', 'expired', ''].map((s) => html`<option value=${s}>${s || 'any'}</option>`)}
        </select>
      </label>
      <p id="queue"><small>Refreshes every 3 seconds.</small></p>
    </div>
    <${ErrorMessage} error=${error || action.error} />
    <${Listing}
      page=${page}
      empty=${`No ${status} approvals.`}
      head=${['Requested', 'What is asked', 'Intent', 'By key', 'Status', 'Expires', 'Decision']}
      row=${(a) =>
        html`<tr data-approval=${a.id}>
          <td>${when(a.created_at)}</td>
          <td><strong>${a.summary}</strong><br /><small>${a.tool_name ?? a.operation ?? ''}${a.user_id ? ` · user ${a.user_id}` : ''}</small></td>
          <td>${a.intent_label ?? '—'}</td>
          <td class="id">${a.requested_by_key_id}</td>
          <td><${Badge} value=${a.status} /></td>
          <td>${when(a.expires_at)}</td>
          <td>
            ${
              a.status === 'pending'
                ? html`<div class="actions">
                    <button type="button" onClick=${() => decide(a.id, 'approve')} disabled=${action.busy}>Approve</button>
                    <input
                      aria-label=${`Reason for denying ${a.id}`}
                      placeholder="Reason (optional)"
                      value=${reasons[a.id] ?? ''}
                      onInput=${(e) => setReasons({ ...reasons, [a.id]: e.target.value })}
                    />
                    <button type="button" class="secondary" onClick=${() => decide(a.id, 'deny')} disabled=${action.busy}>Deny</button>
                  </div>`
                : html`<small>${a.decided_at ? `${when(a.decided_at)} by ${a.decided_by_key_id ?? '—'}` : ''}${a.reason ? ` · ${a.reason}` : ''}</small>`
            }
          </td>
        </tr>`}
    />
    ${pager}
  </section>`;
}
