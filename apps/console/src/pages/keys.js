// API keys: mint (the key is shown once), list, revoke. A key is stored hashed by the gateway.
import { api } from '../api.js';
import { ActionButton, Badge, ErrorMessage, html, Listing, ShownOnce, useAction, usePagedList, useState, when } from '../ui.js';

export function KeysPage() {
  const { page, error, reload } = usePagedList('/v1/api-keys', {}, []);
  const [name, setName] = useState('');
  const [scope, setScope] = useState('read_only');
  const [minted, setMinted] = useState(null);
  const create = useAction();
  const act = useAction();
  const submit = (e) => {
    e.preventDefault();
    create.run(async () => {
      const created = await api('POST', '/v1/api-keys', { name: name.trim(), scope });
      setMinted(created);
      setName('');
      await reload();
    });
  };
  return html`<form onSubmit=${submit} aria-label="Mint an API key" class="filters">
      <label>Name <input name="key-name" required placeholder="ci-bot" value=${name} onInput=${(e) => setName(e.target.value)} /></label>
      <label
        >Scope
        <select name="key-scope" value=${scope} onChange=${(e) => setScope(e.target.value)}>
          ${['read_only', 'policy_write', 'admin'].map((s) => html`<option value=${s}>${s}</option>`)}
        </select>
      </label>
      <button type="submit" aria-busy=${create.busy}>Mint key</button>
    </form>
    <${ErrorMessage} error=${create.error} />
    ${minted && html`<${ShownOnce} label=${`New key “${minted.name}” (${minted.scope})`} value=${minted.key} onDone=${() => setMinted(null)} />`}
    <${ErrorMessage} error=${error || act.error} />
    <${Listing}
      page=${page}
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
