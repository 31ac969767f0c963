// Mandates: inspect one by its credential id, and revoke it.
import { api } from '../api.js';
import { Badge, ErrorMessage, html, useAction, useState, when } from '../ui.js';

export function MandatesPage() {
  const [credId, setCredId] = useState('');
  const [mandate, setMandate] = useState(null);
  const [reason, setReason] = useState('');
  const look = useAction();
  const revoke = useAction();
  const inspect = (e) => {
    e?.preventDefault();
    return look.run(async () => setMandate(await api('GET', `/v1/mandate/${encodeURIComponent(credId.trim())}`)));
  };
  return html`<form role="search" onSubmit=${inspect}>
      <label
        >Credential id
        <input name="cred_id" required placeholder="cred_…" value=${credId} onInput=${(e) => setCredId(e.target.value)} />
      </label>
      <button type="submit" aria-busy=${look.busy}>Inspect</button>
    </form>
    <${ErrorMessage} error=${look.error} />
    ${
      mandate &&
      html`<article>
        <header><strong>${mandate.cred_id}</strong> <${Badge} value=${mandate.status} /></header>
        <table>
          <tbody>
            <tr>
              <th>Actor</th>
              <td>${mandate.actor}</td>
            </tr>
            <tr>
              <th>Intent card</th>
              <td class="id">${mandate.intent_id}</td>
            </tr>
            <tr>
              <th>Audience</th>
              <td>${mandate.audience}</td>
            </tr>
            <tr>
              <th>Operations</th>
              <td><code>${mandate.scope.operations.join(', ')}</code></td>
            </tr>
            <tr>
              <th>Resources</th>
              <td><code>${mandate.scope.resources.join(', ')}</code></td>
            </tr>
            <tr>
              <th>Forbidden</th>
              <td><code>${mandate.scope.forbidden_operations.join(', ') || '—'}</code></td>
            </tr>
            <tr>
              <th>Issued</th>
              <td>${when(mandate.issued_at)}</td>
            </tr>
            <tr>
              <th>Expires</th>
              <td>${when(mandate.expires_at)}</td>
            </tr>
            <tr>
              <th>Revoked</th>
              <td>${when(mandate.revoked_at)}</td>
            </tr>
            <tr>
              <th>Refreshes</th>
              <td>${mandate.refresh_count}</td>
            </tr>
          </tbody>
        </table>
        ${
          mandate.status !== 'revoked' &&
          html`<footer>
            <form
              onSubmit=${(e) => {
                e.preventDefault();
                revoke.run(async () => {
                  await api('POST', '/v1/mandate/revoke', { cred_id: mandate.cred_id, ...(reason.trim() ? { reason: reason.trim() } : {}) });
                  setMandate(await api('GET', `/v1/mandate/${encodeURIComponent(mandate.cred_id)}`));
                });
              }}
            >
              <label>Reason <input name="reason" value=${reason} onInput=${(e) => setReason(e.target.value)} /></label>
              <${ErrorMessage} error=${revoke.error} />
              <button type="submit" class="secondary" aria-busy=${revoke.busy}>Revoke mandate</button>
            </form>
          </footer>`
        }
      </article>`
    }`;
}
