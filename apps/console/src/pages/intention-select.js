// The org's active intentions as a picker: "approve as…" in the queue and "teach" in history.
import { listAll } from '../api.js';
import { html, useEffect, useState } from '../ui.js';

/** The org's active intentions (null while loading), and an error if they could not be read. */
export function useActiveIntentions() {
  const [intentions, setIntentions] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    listAll('/v1/intentions', { status: 'active', limit: 200 }).then(setIntentions).catch(setError);
  }, []);
  return { intentions, error };
}

/** A select of those intentions by label; `candidate` is marked as what the classifier chose. */
export function IntentionSelect({ label, intentions, value, onChange, candidate }) {
  return html`<label
    >${label}
    <select name="intent_label" value=${value} onChange=${(e) => onChange(e.target.value)} required>
      ${intentions === null && html`<option value="">Loading…</option>`}
      ${(intentions ?? []).map((i) => html`<option value=${i.label}>${i.label}${i.label === candidate ? ' (candidate)' : ''}</option>`)}
    </select>
  </label>`;
}
