// Intent cards: what a mandate may be dispensed for. Created from JSON; the API's validation
// errors are shown next to the document, field by field.
import { api } from '../api.js';
import { ListPage } from '../list-page.js';
import { ActionButton, ErrorMessage, FormSubmit, html, useAction, usePagedList, useState, useSubmit } from '../ui.js';
import { ReplayPreview } from './intention-preview.js';

const EXAMPLE = JSON.stringify(
  {
    name: 'Support refunds',
    description: 'Refund small amounts for support tickets',
    allowed_scope: { operations: ['stripe.refunds.create'], resources: ['stripe://charges/*'], forbidden_operations: [] },
    audiences: ['payments-api'],
    max_ttl_seconds: 900,
    rules: [],
  },
  null,
  2,
);

export function CardsPage() {
  const list = usePagedList('/v1/intent-cards', { limit: 25 }, []);
  const { page, reload, pager } = list;
  const [text, setText] = useState(EXAMPLE);
  const [open, setOpen] = useState(null);
  const act = useAction();
  // The card being previewed (DESIGN 6.16): installing it re-decides the kept mandate-path calls.
  const [preview, setPreview] = useState(null);
  const [previewError, setPreviewError] = useState(null);
  const parsed = () => {
    try {
      return JSON.parse(text);
    } catch (err) {
      throw new Error(`The card is not valid JSON: ${err.message}`);
    }
  };
  const [create, submit] = useSubmit(async () => {
    await api('POST', '/v1/intent-cards', parsed());
    setPreview(null);
    await reload();
  });
  const openPreview = () => {
    try {
      setPreviewError(null);
      setPreview(parsed());
    } catch (err) {
      setPreviewError(err);
    }
  };
  return html`<details>
      <summary role="button" class="outline">New intent card from JSON</summary>
      <form onSubmit=${submit} aria-label="New intent card">
        <label>Card (JSON) <textarea name="card" rows="14" spellcheck="false" value=${text} onInput=${(e) => setText(e.target.value)}></textarea></label>
        <div class="actions">
          <${FormSubmit} action=${create} label="Install card" />
          <button type="button" class="secondary" onClick=${openPreview}>Preview</button>
        </div>
        <${ErrorMessage} error=${previewError} />
      </form>
    </details>
    ${
      preview &&
      html`<${ReplayPreview}
        key=${JSON.stringify(preview)}
        title=${`install ${preview.name ?? preview.id ?? 'card'}`}
        request=${{ kind: 'card', card: preview }}
        onClose=${() => setPreview(null)}
      />`
    }
    <${ListPage}
      list=${list}
      error=${act.error}
      paged=${false}
      empty="No intent cards."
      head=${['Name', 'Audiences', 'Scope', 'Max TTL', 'Rules', 'Version', '']}
      row=${(c) =>
        html`<tr data-card=${c.id}>
          <td><strong>${c.name}</strong><br /><small>${c.description}</small>${c.shadow ? html` <span class="badge">shadow</span>` : ''}</td>
          <td>${c.audiences.join(', ')}</td>
          <td><code>${JSON.stringify(c.allowed_scope)}</code></td>
          <td>${c.max_ttl_seconds}s</td>
          <td>${c.rules.length}</td>
          <td>${c.version}</td>
          <td>
            <div class="actions">
              <button type="button" class="secondary" onClick=${() => setOpen(open === c.id ? null : c.id)}>${open === c.id ? 'Hide' : 'View'}</button>
              <${ActionButton} action=${act} label="Remove" call=${() => api('DELETE', `/v1/intent-cards/${c.id}`)} then=${reload} />
            </div>
          </td>
        </tr>`}
    />
    ${
      open &&
      page &&
      html`<pre class="json">
${JSON.stringify(
          page.data.find((c) => c.id === open),
          null,
          2,
        )}</pre>`
    }
    ${pager}`;
}
