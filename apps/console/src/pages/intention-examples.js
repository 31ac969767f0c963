// An intention's examples (DESIGN 6.15): calls it covers (or never covers), taught by hand here
// or from the approval queue ("remember"); list, add, delete.
import { api } from '../api.js';
import { formatArguments, parseArguments } from '../calls.js';
import { ListPage } from '../list-page.js';
import { FormSubmit, html, useAction, usePagedList, useState, useSubmit, when } from '../ui.js';

const EMPTY = { name: '', args: '', covered: true };

export const Covered = ({ covered }) => (covered ? html`<span class="badge covered">covered</span>` : html`<span class="badge not-covered">not covered</span>`);

export function IntentionExamples({ intention, resource, onClose }) {
  const base = `/v1/${resource}/${intention.id}/examples`;
  const list = usePagedList(base, { limit: 25 }, [intention.id]);
  const { reload } = list;
  const [form, setForm] = useState(EMPTY);
  const act = useAction();
  const [add, submit] = useSubmit(async () => {
    const args = parseArguments(form.args, 'tool_call.arguments');
    await api('POST', base, { tool_call: { name: form.name.trim(), ...(args ? { arguments: args } : {}) }, covered: form.covered });
    setForm(EMPTY);
    await reload();
  });
  const remove = (id) =>
    act.run(async () => {
      await api('DELETE', `${base}/${id}`);
      await reload();
    });
  return html`<section class="panel" aria-label=${`Examples of ${intention.label}`}>
    <header class="panel-head">
      <h2>Examples of <code>${intention.label}</code></h2>
      <button type="button" class="secondary outline" onClick=${onClose}>Close</button>
    </header>
    <p>
      <small
        >A call like a covered example (same tool, same action, no argument the example lacks) is this intention with certainty; a call like a not-covered one
        is never matched to it.</small
      >
    </p>
    <${ListPage}
      list=${list}
      error=${act.error}
      empty="No examples yet: add one below, or approve a call with “remember”."
      head=${['Call', 'Covered', 'Source', 'Added', '']}
      row=${(x) =>
        html`<tr data-example=${x.id}>
          <td>
            <div class="call">
              <code>${x.tool_call.name}</code>
              <pre class="json">${formatArguments(x.tool_call.arguments)}</pre>
            </div>
          </td>
          <td><${Covered} covered=${x.covered} /></td>
          <td>${x.source}${x.approval_id ? html`<br /><small class="id">${x.approval_id}</small>` : ''}</td>
          <td>${when(x.created_at)}</td>
          <td>
            <div class="actions">
              <button type="button" class="secondary" aria-label=${`Delete example ${x.id}`} onClick=${() => remove(x.id)}>Delete</button>
            </div>
          </td>
        </tr>`}
    />
    <h3>Add an example</h3>
    <form onSubmit=${submit} aria-label="New example">
      <div class="grid">
        <label
          >Tool name
          <input
            name="tool_name"
            required
            placeholder="erp.fetch_ledger_entry"
            value=${form.name}
            onInput=${(e) => setForm({ ...form, name: e.target.value })}
          />
        </label>
        <label
          >Arguments (JSON)
          <textarea
            name="arguments"
            rows="2"
            placeholder='{"entry_id": "LE-1"}'
            value=${form.args}
            onInput=${(e) => setForm({ ...form, args: e.target.value })}
          ></textarea>
        </label>
      </div>
      <label
        ><input name="covered" type="checkbox" checked=${form.covered} onChange=${(e) => setForm({ ...form, covered: e.target.checked })} /> Covered (uncheck
        for a call this intention must never match)</label
      >
      <${FormSubmit} action=${add} label="Add example" />
    </form>
  </section>`;
}
