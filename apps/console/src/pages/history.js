// History: evaluations on the legacy path and decisions on the mandate path (filters, paging),
// the review queue, and a decision looked up by its id.
import { api } from '../api.js';
import { FilterSelect, ListSection } from '../list-page.js';
import { Badge, ErrorMessage, html, useAction, usePagedList, useState, useSubmit, when } from '../ui.js';
import { TeachFromHistory } from './history-teach.js';

const OUTCOMES = ['', 'allowed', 'denied', 'pending_approval', 'approved', 'shadow_denied'];

function Evaluations() {
  const [outcome, setOutcome] = useState('');
  const [since, setSince] = useState('');
  const sinceIso = since ? new Date(since).toISOString() : '';
  const [teaching, setTeaching] = useState(null);
  // include=call: the kept call of each evaluation, to teach from (absent once past retention).
  const list = usePagedList('/v1/intent/history', { outcome, since: sinceIso, include: 'call', limit: 25 }, [outcome, sinceIso]);
  return html`<${ListSection}
    id="evaluations"
    title="Evaluations"
    filters=${html`<${FilterSelect} label="Outcome" name="outcome" value=${outcome} options=${OUTCOMES} onChange=${setOutcome} />
      <label>Since <input name="since" type="datetime-local" value=${since} onInput=${(e) => setSince(e.target.value)} /></label>`}
    list=${list}
    empty="No evaluations match."
    head=${['When', 'Tool', 'Intent', 'Outcome', 'Confidence', 'Approval', 'Data elements', '']}
    row=${(e) =>
      html`<tr data-event=${e.id}>
        <td>${when(e.created_at)}</td>
        <td><code>${e.tool_name}</code></td>
        <td>${e.intent_label} <small>(${e.intent_class})</small></td>
        <td><${Badge} value=${e.outcome} />${e.shadow_mode ? html` <span class="badge">shadow</span>` : ''}</td>
        <td>${typeof e.confidence === 'number' ? e.confidence.toFixed(2) : '—'}</td>
        <td class="id">${e.approval_request_id ?? '—'}</td>
        <td>${(e.data_elements ?? []).join(', ')}</td>
        <td>
          ${
            e.call
              ? teaching === e.id
                ? html`<${TeachFromHistory} event=${e} onClose=${() => setTeaching(null)} />`
                : html`<button type="button" class="outline" aria-label=${`Teach from ${e.id}`} onClick=${() => setTeaching(e.id)}>Teach</button>`
              : html`<small title="The call is no longer kept (CALL_RETENTION_DAYS)">—</small>`
          }
        </td>
      </tr>`}
  />`;
}

const KINDS = [
  '',
  'allow',
  'allow_with_log_extra',
  'allow_with_redact',
  'allow_with_downgrade',
  'allow_with_shadow',
  'defer',
  'negotiate',
  'substitute',
  'approval',
  'step_up',
  'deny',
  'deny_with_reroute',
];

function Decisions() {
  const [credId, setCredId] = useState('');
  const [kind, setKind] = useState('');
  const list = usePagedList('/v1/mcp-proxy/decisions', { cred_id: credId.trim(), kind, limit: 25 }, [credId, kind]);
  return html`<${ListSection}
    id="decisions"
    title="Decisions (mandate path)"
    filters=${html`<label>Mandate <input name="cred_id" placeholder="cred_…" value=${credId} onInput=${(e) => setCredId(e.target.value)} /></label>
      <${FilterSelect} label="Kind" name="kind" value=${kind} options=${KINDS} onChange=${setKind} />`}
    list=${list}
    empty="No decisions match."
    head=${['When', 'Operation', 'Decision', 'Actor', 'Mandate', 'Audience']}
    row=${(d) =>
      html`<tr data-decision=${d.decision_id}>
        <td>${when(d.created_at)}</td>
        <td><code>${d.operation}</code>${d.target_resource ? html`<br /><small>${d.target_resource}</small>` : ''}</td>
        <td><${Badge} value=${d.decision.kind} />${d.decision.reason ? html`<br /><small>${d.decision.reason}</small>` : ''}</td>
        <td>${d.actor}</td>
        <td class="id">${d.cred_id}</td>
        <td>${d.audience}</td>
      </tr>`}
  />`;
}

function Reviews() {
  const [status, setStatus] = useState('pending');
  const list = usePagedList('/v1/mcp-proxy/reviews', { status, limit: 25 }, [status]);
  const act = useAction();
  const resolve = (id, verdict) =>
    act.run(async () => {
      await api('POST', `/v1/mcp-proxy/reviews/${id}/resolve`, { status: verdict });
      await list.reload();
    });
  return html`<${ListSection}
    id="reviews"
    title="Decisions under review (mandate path)"
    filters=${html`<${FilterSelect} label="Status" name="review-status" value=${status} options=${['pending', 'accepted', 'rejected', '']} onChange=${setStatus} />`}
    list=${list}
    error=${act.error}
    empty="No reviews."
    head=${['When', 'Operation', 'Decision', 'Actor', 'Mandate', 'Status', '']}
    row=${(r) =>
      html`<tr data-review=${r.review_id}>
        <td>${when(r.created_at)}</td>
        <td><code>${r.operation}</code>${r.target_resource ? html`<br /><small>${r.target_resource}</small>` : ''}</td>
        <td><${Badge} value=${r.decision.kind} /></td>
        <td>${r.actor}</td>
        <td class="id">${r.cred_id}</td>
        <td><${Badge} value=${r.status} /></td>
        <td>
          ${
            r.status === 'pending' &&
            html`<div class="actions">
              <button type="button" onClick=${() => resolve(r.review_id, 'accepted')}>Accept</button>
              <button type="button" class="secondary" onClick=${() => resolve(r.review_id, 'rejected')}>Reject</button>
            </div>`
          }
        </td>
      </tr>`}
  />`;
}

function DecisionLookup() {
  const [id, setId] = useState('');
  const [record, setRecord] = useState(null);
  const [act, submit] = useSubmit(async () => setRecord(await api('GET', `/v1/mcp-proxy/decisions/${encodeURIComponent(id.trim())}`)));
  return html`<section aria-labelledby="decision-title">
    <h2 id="decision-title">Decision by id</h2>
    <form role="search" onSubmit=${submit}>
      <input name="decision_id" aria-label="Decision id" placeholder="dec_…" required value=${id} onInput=${(e) => setId(e.target.value)} />
      <button type="submit">Look up</button>
    </form>
    <${ErrorMessage} error=${act.error} />
    ${record && html`<pre class="json">${JSON.stringify(record, null, 2)}</pre>`}
  </section>`;
}

export function HistoryPage() {
  return html`<${Evaluations} /><${Decisions} /><${Reviews} /><${DecisionLookup} />`;
}
