// Intentions (and the same resource under its other name, purposes): create, edit (PATCH), publish,
// archive; their tools (bindings) and examples (intention-examples.js).
import { api } from '../api.js';
import { InputError, parsePatterns, patternsText } from '../calls.js';
import { FilterSelect, ListPage } from '../list-page.js';
import { Badge, fieldSetter, FormSubmit, html, useAction, usePagedList, useState, useSubmit } from '../ui.js';
import { IntentionExamples } from './intention-examples.js';
import { IntentionPreview } from './intention-preview.js';

const CLASSES = ['lookup', 'reporting', 'analysis', 'export', 'write', 'admin', 'other'];
const EMPTY = {
  label: '',
  display_name: '',
  description: '',
  intent_class: 'lookup',
  approval_required: false,
  ttl_minutes: '',
  data_elements: '',
  tools: '',
};
const TOOLS_HELP = 'Tool-name patterns, comma- or line-separated: * within a dot segment, ** across. Empty: the classifier decides.';

/** An intention's tools as code chips (or what empty means). */
export const Tools = ({ tools }) => (tools && tools.length > 0 ? html`${tools.map((t) => html`<code>${t}</code> `)}` : html`<small>classifier decides</small>`);

/** The fields the create and edit forms share: the tools (with their help) and the approval switch. */
function ToolsAndApproval({ form, set, rows, placeholder, helpId }) {
  return html`<label
      >Tools
      <textarea name="tools" rows=${rows} placeholder=${placeholder} value=${form.tools} onInput=${set('tools')} aria-describedby=${helpId}></textarea>
      <small id=${helpId}>${TOOLS_HELP}</small>
    </label>
    <label
      ><input name="approval_required" type="checkbox" role="switch" checked=${form.approval_required} onChange=${set('approval_required')} /> Approval
      required</label
    >`;
}

/** A draft as a replay's `create` change: publishing it is previewed as if it were active. */
const asCreated = (i) => ({
  label: i.label,
  intent_class: i.intent_class,
  approval_required: Boolean(i.approval_required),
  ...(i.display_name ? { display_name: i.display_name } : {}),
  ...(i.description ? { description: i.description } : {}),
  ...(i.ttl_minutes ? { ttl_minutes: i.ttl_minutes } : {}),
  ...(i.data_elements?.length ? { data_elements: i.data_elements } : {}),
  ...(i.tools?.length ? { tools: i.tools } : {}),
});

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
  const list = usePagedList(`/v1/${resource}`, { status, limit: 25 }, [resource, status]);
  const { reload } = list;
  const [form, setForm] = useState(EMPTY);
  // What is open below the list: {mode: 'edit' | 'examples', intention} or {mode: 'preview', title, changes}.
  const [open, setOpen] = useState(null);
  const act = useAction();
  const set = fieldSetter(form, setForm);
  const [create, submit] = useSubmit(async () => {
    const body = {
      label: form.label.trim(),
      intent_class: form.intent_class,
      approval_required: form.approval_required,
      ...(form.display_name.trim() ? { display_name: form.display_name.trim() } : {}),
      ...(form.description.trim() ? { description: form.description.trim() } : {}),
      ...(form.ttl_minutes !== '' ? { ttl_minutes: Number(form.ttl_minutes) } : {}),
      ...(form.data_elements.trim() ? { data_elements: dataElements(form.data_elements) } : {}),
      ...(form.tools.trim() ? { tools: parsePatterns(form.tools) } : {}),
    };
    await api('POST', `/v1/${resource}`, body);
    setForm(EMPTY);
    await reload();
  });
  const transition = (id, verb) =>
    act.run(async () => {
      await api('POST', `/v1/${resource}/${id}/${verb}`);
      await reload();
    });
  return html`<div class="filters">
      <${FilterSelect} label="Resource" name="resource" value=${resource} options=${['intentions', 'purposes']} onChange=${setResource} />
      <${FilterSelect} label="Status" name="status" value=${status} options=${['', 'draft', 'active', 'archived']} onChange=${setStatus} />
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
        <${ToolsAndApproval} form=${form} set=${set} rows="2" placeholder="erp.fetch_ledger_*, stripe.get_payout" helpId="tools-help" />
        <${FormSubmit} action=${create} label="Create draft" />
      </form>
    </details>
    <${ListPage}
      list=${list}
      error=${act.error}
      empty=${`No ${resource}.`}
      head=${['Label', 'Class', 'Status', 'Data elements', 'Tools', 'Approval', 'Version', '']}
      row=${(i) =>
        html`<tr data-intention=${i.label}>
          <td><strong>${i.label}</strong><br /><small>${i.description}</small></td>
          <td>${i.intent_class}</td>
          <td><${Badge} value=${i.status} /></td>
          <td>${i.data_elements.map((d) => html`<code>${d.data_source_id}:${d.path}</code> `)}</td>
          <td class="tools"><${Tools} tools=${i.tools} /></td>
          <td>${i.approval_required ? 'required' : 'no'}</td>
          <td>${i.version}</td>
          <td>
            <div class="actions">
              ${
                i.status === 'draft' &&
                html`<button
                  type="button"
                  class="secondary"
                  onClick=${() => setOpen({ mode: 'preview', title: `publish ${i.label}`, changes: [{ action: 'create', intention: asCreated(i) }] })}
                >
                  Preview
                </button>`
              }
              ${i.status === 'draft' && html`<button type="button" onClick=${() => transition(i.id, 'publish')}>Publish</button>`}
              ${i.status !== 'archived' && html`<button type="button" class="secondary" onClick=${() => setOpen({ mode: 'edit', intention: i })}>Edit</button>`}
              <button type="button" class="secondary" onClick=${() => setOpen({ mode: 'examples', intention: i })}>Examples</button>
              ${i.status !== 'archived' && html`<button type="button" class="secondary" onClick=${() => transition(i.id, 'archive')}>Archive</button>`}
            </div>
          </td>
        </tr>`}
    />
    ${
      open &&
      open.mode === 'edit' &&
      html`<${EditIntention}
        key=${open.intention.id}
        intention=${open.intention}
        resource=${resource}
        onClose=${() => setOpen(null)}
        onSaved=${async (saved) => {
          setOpen({ mode: 'edit', intention: saved });
          await reload();
        }}
        onPreview=${(changes) => setOpen({ mode: 'preview', title: `changes to ${open.intention.label}`, changes, back: open })}
      />`
    }
    ${
      open &&
      open.mode === 'preview' &&
      html`<${IntentionPreview} key=${JSON.stringify(open.changes)} title=${open.title} changes=${open.changes} onClose=${() => setOpen(open.back ?? null)} />`
    }
    ${open && open.mode === 'examples' && html`<${IntentionExamples} key=${open.intention.id} intention=${open.intention} resource=${resource} onClose=${() => setOpen(null)} />`}`;
}

const editable = (i) => ({
  display_name: i.display_name ?? '',
  description: i.description ?? '',
  approval_required: Boolean(i.approval_required),
  ttl_minutes: String(i.ttl_minutes ?? ''),
  tools: patternsText(i.tools),
});

/** The fields of `form` that differ from `intention`, as a PATCH body. */
function changes(intention, form) {
  const was = editable(intention);
  const body = {};
  if (form.display_name.trim() !== was.display_name) body.display_name = form.display_name.trim();
  if (form.description.trim() !== was.description) body.description = form.description.trim();
  if (form.approval_required !== was.approval_required) body.approval_required = form.approval_required;
  if (form.ttl_minutes !== was.ttl_minutes) body.ttl_minutes = Number(form.ttl_minutes);
  const tools = parsePatterns(form.tools);
  if (tools.join('\n') !== (intention.tools ?? []).join('\n')) body.tools = tools;
  return body;
}

/** Edits a draft or active intention: only the changed fields are sent (PATCH, a new version). */
function EditIntention({ intention, resource, onClose, onSaved, onPreview }) {
  const [form, setForm] = useState(editable(intention));
  const set = fieldSetter(form, setForm);
  const [save, submit] = useSubmit(async () => {
    const body = changes(intention, form);
    if (Object.keys(body).length === 0) throw new InputError('body', 'nothing changed');
    onSaved(await api('PATCH', `/v1/${resource}/${intention.id}`, body));
  });
  return html`<section class="panel" aria-label=${`Edit ${intention.label}`}>
    <header class="panel-head">
      <h2>Edit <code>${intention.label}</code> <small>version ${intention.version}</small></h2>
      <button type="button" class="secondary outline" onClick=${onClose}>Close</button>
    </header>
    <form onSubmit=${submit} aria-label="Edit intention">
      <div class="grid">
        <label>Display name <input name="display_name" value=${form.display_name} onInput=${set('display_name')} /></label>
        <label>Grant TTL (minutes) <input name="ttl_minutes" type="number" min="1" value=${form.ttl_minutes} onInput=${set('ttl_minutes')} /></label>
      </div>
      <label>Description <textarea name="description" rows="2" value=${form.description} onInput=${set('description')}></textarea></label>
      <${ToolsAndApproval} form=${form} set=${set} rows="3" helpId="edit-tools-help" />
      <${FormSubmit} action=${save} label="Save changes" />
      <button
        type="button"
        class="secondary"
        onClick=${() => {
          const body = changes(intention, form);
          if (Object.keys(body).length === 0) save.setError(new InputError('body', 'nothing changed'));
          else onPreview([{ action: 'update', id: intention.id, intention: body }]);
        }}
      >
        Preview changes
      </button>
    </form>
  </section>`;
}
