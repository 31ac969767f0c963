// Approvals: the queue of calls waiting for a human, refreshed on its own every few seconds.
// An operator decides, and may teach the gateway while doing so (DESIGN 6.15): approve & remember
// (calls like it pass from then on), approve as… another intention, deny & remember.
import { api } from '../api.js';
import { IntentionSelect, useActiveIntentions } from './intention-select.js';
import { formatArguments, percent, reasonText, teachable } from '../calls.js';
import { FilterSelect, ListPage } from '../list-page.js';
import { Badge, ErrorMessage, html, useAction, useEffect, usePagedList, useState, when } from '../ui.js';

/** Why a human is asked, and with an uncertain match the candidates the classifier weighed. */
function Why({ approval: a }) {
  const uncertain = a.reason_code === 'uncertain_match';
  return html`<span class=${`badge ${uncertain ? 'uncertain' : 'required'}`}>${reasonText(a)}</span> ${
      a.candidates && a.candidates.length > 0
        ? html`<ul class="candidates" aria-label="Candidates">
            ${a.candidates.map(
              (c) => html`<li data-candidate=${c.intent_label}><code>${c.intent_label}</code> <small title="Confidence">${percent(c.confidence)}</small></li>`,
            )}
          </ul>`
        : html`<br /><small>${a.intent_label ? html`Intent <code>${a.intent_label}</code>` : ''}</small>`
    }`;
}

/** What is asked: the summary and, on the legacy path, the call itself (tool and arguments). */
function Call({ approval: a }) {
  const call = a.tool_call;
  return html`<strong>${a.summary}</strong> ${
      call
        ? html`<div class="call" data-testid="call">
            <code>${call.name}</code>
            <pre class="json">${formatArguments(call.arguments)}</pre>
          </div>`
        : html`<br /><small>${a.tool_name ?? a.operation ?? ''}</small>`
    }
    ${a.user_id ? html`<small>user ${a.user_id}</small>` : ''}`;
}

/** "Approve as…": another active intention of the org; remember is on by default. */
function ApproveAs({ approval: a, busy, onApprove, onCancel }) {
  const { intentions, error } = useActiveIntentions();
  const [label, setLabel] = useState('');
  const [remember, setRemember] = useState(true);
  // The candidate is what plain Approve does: offer the first other intention.
  useEffect(() => {
    const other = (intentions ?? []).find((i) => i.label !== a.intent_label) ?? intentions?.[0];
    if (other && !label) setLabel(other.label);
  }, [intentions]);
  const submit = (e) => {
    e.preventDefault();
    onApprove({ intent_label: label, remember });
  };
  return html`<form class="approve-as" aria-label=${`Approve ${a.id} as another intention`} onSubmit=${submit}>
    <${ErrorMessage} error=${error} />
    <${IntentionSelect} label="Approve as" intentions=${intentions} value=${label} onChange=${setLabel} candidate=${a.intent_label} />
    <label><input type="checkbox" name="remember" checked=${remember} onChange=${(e) => setRemember(e.target.checked)} /> Remember</label>
    <div class="actions">
      <button type="submit" disabled=${busy || !label}>Approve as ${label || '…'}</button>
      <button type="button" class="secondary" onClick=${onCancel}>Cancel</button>
    </div>
  </form>`;
}

/** The decision cell of a pending request: its own reason, buttons, picker and error. */
function Decide({ approval: a, reload }) {
  const action = useAction();
  const [reason, setReason] = useState('');
  const [picking, setPicking] = useState(false);
  const canTeach = teachable(a);
  const decide = (verb, extra = {}) =>
    action.run(async () => {
      await api('POST', `/v1/approvals/${a.id}/${verb}`, { ...(reason.trim() ? { reason: reason.trim() } : {}), ...extra });
      await reload();
    });
  const button = (label, verb, extra, primary) =>
    html`<button type="button" class=${primary ? undefined : 'secondary'} onClick=${() => decide(verb, extra)} disabled=${action.busy}>${label}</button>`;
  return html`<div class="decide">
    <input aria-label=${`Reason for deciding ${a.id}`} placeholder="Reason (optional)" value=${reason} onInput=${(e) => setReason(e.target.value)} />
    <div class="actions">
      ${button('Approve', 'approve', {}, true)} ${canTeach && button('Approve & remember', 'approve', { remember: true }, true)}
      ${canTeach && html`<button type="button" class="outline" aria-expanded=${picking} onClick=${() => setPicking(!picking)}>Approve as…</button>`}
      ${button('Deny', 'deny', {})} ${canTeach && button('Deny & remember', 'deny', { remember: true })}
    </div>
    ${picking && html`<${ApproveAs} approval=${a} busy=${action.busy} onApprove=${(extra) => decide('approve', extra)} onCancel=${() => setPicking(false)} />`}
    <${ErrorMessage} error=${action.error} />
  </div>`;
}

function Row({ approval: a, reload }) {
  return html`<tr data-approval=${a.id}>
    <td>${when(a.created_at)}</td>
    <td><${Call} approval=${a} /></td>
    <td><${Why} approval=${a} /></td>
    <td class="id">${a.requested_by_key_id}</td>
    <td><${Badge} value=${a.status} /></td>
    <td>${when(a.expires_at)}</td>
    <td>
      ${
        a.status === 'pending'
          ? html`<${Decide} approval=${a} reload=${reload} />`
          : html`<small
              >${a.decided_at ? `${when(a.decided_at)} by ${a.decided_by_key_id ?? '—'}` : ''}${a.intent_label ? ` · as ${a.intent_label}` : ''}${
                a.reason ? ` · ${a.reason}` : ''
              }</small
            >`
      }
    </td>
  </tr>`;
}

export function ApprovalsPage() {
  const [status, setStatus] = useState('pending');
  const list = usePagedList('/v1/approvals', { status, limit: 25 }, [status], 3000);
  return html`<section aria-labelledby="queue">
    <div class="filters">
      <${FilterSelect} label="Status" name="status" value=${status} options=${['pending', 'approved', 'denied', 'expired', '']} onChange=${setStatus} />
      <p id="queue"><small>Refreshes every 3 seconds. “Remember” teaches the gateway: calls like this one are decided the same way from then on.</small></p>
    </div>
    <${ListPage}
      list=${list}
      empty=${`No ${status} approvals.`}
      head=${['Requested', 'What is asked', 'Why', 'By key', 'Status', 'Expires', 'Decision']}
      row=${(a) => html`<${Row} key=${a.id} approval=${a} reload=${list.reload} />`}
    />
  </section>`;
}
