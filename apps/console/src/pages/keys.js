// API keys: mint (the key is shown once), list, revoke. A key is stored hashed by the gateway.
import { api } from '../api.js';
import { FilterSelect, ListPage } from '../list-page.js';
import { ActionButton, Badge, ErrorMessage, html, ShownOnce, useAction, usePagedList, useState, useSubmit, when } from '../ui.js';

export function KeysPage() {
  const list = usePagedList('/v1/api-keys', {}, []);
  const { reload } = list;
  const [name, setName] = useState('');
  const [scope, setScope] = useState('read_only');
  const [minted, setMinted] = useState(null);
  const act = useAction();
  const [create, submit] = useSubmit(async () => {
    const created = await api('POST', '/v1/api-keys', { name: name.trim(), scope });
    setMinted(created);
    setName('');
    await reload();
  });
  return html`<form onSubmit=${submit} aria-label="Mint an API key" class="filters">
      <label>Name <input name="key-name" required placeholder="ci-bot" value=${name} onInput=${(e) => setName(e.target.value)} /></label>
      <${FilterSelect} label="Scope" name="key-scope" value=${scope} options=${['read_only', 'policy_write', 'admin']} onChange=${setScope} />
      <button type="submit" aria-busy=${create.busy}>Mint key</button>
    </form>
    <${ErrorMessage} error=${create.error} />
    ${minted && html`<${ShownOnce} label=${`New key “${minted.name}” (${minted.scope})`} value=${minted.key} onDone=${() => setMinted(null)} />`}
    <${ListPage}
      list=${list}
      error=${act.error}
      paged=${false}
      empty="No API keys."
      head=${['Name', 'Prefix', 'Scope', 'Created', 'Status', '']}
      row=${(k) =>
        html`<tr data-key=${k.name}>
          <td><strong>${k.name}</strong><br /><small class="id">${k.id}</small></td>
          <td><code>${k.prefix}…</code></td>
          <td>${k.scope}</td>
          <td>${when(k.created_at)}</td>
          <td><${Badge} value=${k.revoked_at ? 'revoked' : 'active'} /></td>
          <td>${!k.revoked_at && html`<${ActionButton} action=${act} label="Revoke" call=${() => api('DELETE', `/v1/api-keys/${k.id}`)} then=${reload} />`}</td>
        </tr>`}
    />`;
}
