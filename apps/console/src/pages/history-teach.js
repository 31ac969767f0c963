// "Teach" on a history row (DESIGN 6.15): the evaluation's kept call becomes an example of an
// intention, so calls like it are decided without a human from then on — or never matched to it.
import { api } from '../api.js';
import { formatArguments } from '../calls.js';
import { ErrorMessage, html, useAction, useEffect, useState } from '../ui.js';
import { IntentionSelect, useActiveIntentions } from './intention-select.js';

/**
 * What a teacher most likely means: a call that passed was probably wrongly allowed ("not this
 * intention"); one that waited or was refused is probably the intention it was matched to.
 */
const passed = (e) => e.outcome === 'allowed' || e.outcome === 'approved';

export function TeachFromHistory({ event: e, onClose }) {
  const { intentions, error } = useActiveIntentions();
  const [label, setLabel] = useState('');
  const [covered, setCovered] = useState(!passed(e));
  const [taught, setTaught] = useState(null);
  const action = useAction();
  useEffect(() => {
    if (!intentions || label) return;
    const matched = intentions.find((i) => i.label === e.intent_label) ?? intentions[0];
    if (matched) setLabel(matched.label);
  }, [intentions]);
  const submit = (ev) => {
    ev.preventDefault();
    const intention = (intentions ?? []).find((i) => i.label === label);
    if (!intention) return;
    action.run(async () => {
      await api('POST', `/v1/intentions/${intention.id}/examples`, { ...e.call, covered });
      setTaught({ label, covered });
    });
  };
  return html`<form class="teach" aria-label=${`Teach from evaluation ${e.id}`} onSubmit=${submit}>
    <div class="call">
      <code>${e.call.tool_call.name}</code>
      <pre class="json">${formatArguments(e.call.tool_call.arguments)}</pre>
    </div>
    <${ErrorMessage} error=${error || action.error} />
    <${IntentionSelect} label="Intention" intentions=${intentions} value=${label} onChange=${setLabel} candidate=${e.intent_label} />
    <fieldset>
      <label><input type="radio" name=${`covered-${e.id}`} checked=${covered} onChange=${() => setCovered(true)} /> Calls like this are this intention</label>
      <label
        ><input type="radio" name=${`covered-${e.id}`} checked=${!covered} onChange=${() => setCovered(false)} /> Calls like this are never this
        intention</label
      >
    </fieldset>
    ${taught ? html`<p role="status">Taught: calls like this are ${taught.covered ? '' : 'never '}<code>${taught.label}</code> from now on.</p>` : ''}
    <div class="actions">
      <button type="submit" disabled=${action.busy || !label || taught !== null}>Teach</button>
      <button type="button" class="secondary" onClick=${onClose}>Close</button>
    </div>
  </form>`;
}
