// Intentions (and the same resource under its other name, purposes): create, publish, archive.
import { api } from '../api.js';
import { Badge, ErrorMessage, html, Listing, useAction, usePagedList, useState } from '../ui.js';

const CLASSES = ['lookup', 'reporting', 'analysis', 'export', 'write', 'admin', 'other'];
const EMPTY = { label: '', display_name: '', description: '', intent_class: 'lookup', approval_required: false, ttl_minutes: '', data_elements: '' };

/** `source:path` per line → data elements. */
function dataElements(text) {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .map((l) => {
      const at = l.indexOf(':');
      return at < 0 ? { data_source_id: l, path: '' } : { data_source_id: l.slice(0, at).trim(), path: l.slice(at + 1).trim() };
    });
}

export function IntentionsPage() {
  const [resource, setResource] = useState('intentions');
  const [status, setStatus] = useState('');
  const { page, error, reload, pager } = usePagedList(`/v1/${resource}`, { status, limit: 25 }, [resource, status]);
  const [form, setForm] = useState(EMPTY);
  const create = useAction();
  const act = useAction();
  const set = (k) => (e) => setForm({ ...form, [k]: e.target.type === 'checkbox' ? e.target.checked : e.target.value });
  const submit = (e) => {
    e.preventDefault();
    create.run(async () => {
      const body = {
        label: form.label.trim(),
        intent_class: form.intent_class,
        approval_required: form.approval_required,
        ...(form.display_name.trim() ? { display_name: form.display_name.trim() } : {}),
        ...(form.description.trim() ? { description: form.description.trim() } : {}),
        ...(form.ttl_minutes !== '' ? { ttl_minutes: Number(form.ttl_minutes) } : {}),
        ...(form.data_elements.trim() ? { data_elements: dataElements(form.data_elements) } : {}),
      };
      await api('POST', `/v1/${resource}`, body);
      setForm(EMPTY);
      await reload();
    });
  };
  const transition = (id, verb) =>
    act.run(async () => {
      await api('POST', `/v1/${resource}/${id}/${verb}`);
      await reload();
    });
  return html`<div class="filters">
      <label
        >Resource
        <select name="resource" value=${resource} onChange=${(e) => setResource(e.target.value)}>
          <option value="intentions">intentions</option>
          <option value="purposes">purposes</option>
        </select>
      </label>
      <label
        >Status
        <select name="status" value=${status} onChange=${(e) => setStatus(e.target.value)}>
          ${['', 'draft', 'active', 'archived'].map((s) => html`<option value=${s}>${s || 'any'}</option>`)}
        </select>
      </label>
    </div>
    <details>
      <summary role="button" class="outline">New ${resource === 'purposes' ? 'purpose' : 'intention'}</summary>
      <form onSubmit=${submit} aria-label="New intention">
        <div class="grid">
          <label>Label <input name="label" required placeholder="crm.contact_lookup" value=${form.label} onInput=${set('label')} /></label>
          <label>Display name <input name="display_name" value=${form.display_name} onInput=${set('display_name')} /></label>
          <label
            >Class
            <select name="intent_class" value=${form.intent_class} onChange=${set('intent_class')}>
              ${CLASSES.map((c) => html`<option value=${c}>${c}</option>`)}
            </select>
          </label>
        </div>
        <label>Description <textarea name="description" rows="2" value=${form.description} onInput=${set('description')}></textarea></label>
        <div class="grid">
          <label
            >Data elements, one <code>source:path</code> per line
            <textarea name="data_elements" rows="2" placeholder="hubspot:contacts.email" value=${form.data_elements} onInput=${set('data_elements')}></textarea>
          </label>
          <label>Grant TTL (minutes) <input name="ttl_minutes" type="number" min="1" value=${form.ttl_minutes} onInput=${set('ttl_minutes')} /></label>
        </div>
        <label
          ><input name="approval_required" type="checkbox" role="switch" checked=${form.approval_required} onChange=${set('approval_required')} /> Approval
          required</label
        >
        <${ErrorMessage} error=${create.error} />
        <button type="submit" aria-busy=${create.busy}>Create draft</button>
      </form>
    </details>
    <${ErrorMessage} error=${error || act.error} />
    <${Listing}
      page=${page}
      empty=${`No ${resource}.`}
      head=${['Label', 'Class', 'Status', 'Data elements', 'Approval', 'Version', '']}
      row=${(i) =>
        html`<tr data-intention=${i.label}>
          <td><strong>${i.label}</strong><br /><small>${i.description}</small></td>
          <td>${i.intent_class}</td>
          <td><${Badge} value=${i.status} /></td>
          <td>${i.data_elements.map((d) => html`<code>${d.data_source_id}:${d.path}</code> `)}</td>
          <td>${i.approval_required ? 'required' : 'no'}</td>
          <td>${i.version}</td>
          <td>
            <div class="actions">
              ${i.status === 'draft' && html`<button type="button" onClick=${() => transition(i.id, 'publish')}>Publish</button>`}
              ${i.status !== 'archived' && html`<button type="button" class="secondary" onClick=${() => transition(i.id, 'archive')}>Archive</button>`}
            </div>
          </td>
        </tr>`}
    />
    ${pager}`;
}
