// MCP servers: upstreams agents reach through the gateway at /mcp/{name}. Header values are
// sealed by the gateway and never shown again; only their names are listed.
import { api } from '../api.js';
import { ListPage } from '../list-page.js';
import { ActionButton, fieldSetter, FormSubmit, html, useAction, usePagedList, useState, useSubmit, when } from '../ui.js';

const EMPTY = { name: '', url: '', headers: '', shadow: false };

export function McpServersPage() {
  const list = usePagedList('/v1/mcp-servers', { limit: 25 }, []);
  const { reload } = list;
  const [form, setForm] = useState(EMPTY);
  const act = useAction();
  const set = fieldSetter(form, setForm);
  const [create, submit] = useSubmit(async () => {
    let headers;
    if (form.headers.trim()) {
      try {
        headers = JSON.parse(form.headers);
      } catch (err) {
        throw new Error(`Headers must be a JSON object: ${err.message}`);
      }
    }
    await api('POST', '/v1/mcp-servers', { name: form.name.trim(), url: form.url.trim(), shadow: form.shadow, ...(headers ? { headers } : {}) });
    setForm(EMPTY);
    await reload();
  });
  return html`<details>
      <summary role="button" class="outline">Register an MCP server</summary>
      <form onSubmit=${submit} aria-label="Register an MCP server">
        <div class="grid">
          <label>Name <input name="name" required placeholder="github" value=${form.name} onInput=${set('name')} /></label>
          <label>URL <input name="url" type="url" required placeholder="https://mcp.example.com/mcp" value=${form.url} onInput=${set('url')} /></label>
        </div>
        <label
          >Headers sent upstream (JSON object, optional)
          <input name="headers" placeholder='{"Authorization": "Bearer …"}' value=${form.headers} onInput=${set('headers')} />
        </label>
        <label
          ><input name="shadow" type="checkbox" role="switch" checked=${form.shadow} onChange=${set('shadow')} /> Shadow (decide and record, forward
          anyway)</label
        >
        <${FormSubmit} action=${create} label="Register" />
      </form>
    </details>
    <${ListPage}
      list=${list}
      error=${act.error}
      empty="No MCP servers registered."
      head=${['Name', 'Agents connect to', 'Upstream', 'Headers', 'Shadow', 'Registered', '']}
      row=${(s) =>
        html`<tr data-server=${s.name}>
          <td><strong>${s.name}</strong></td>
          <td><code>${location.origin}/mcp/${s.name}</code></td>
          <td><code>${s.url}</code></td>
          <td>${s.header_names.join(', ') || '—'}</td>
          <td>${s.shadow ? 'yes' : 'no'}</td>
          <td>${when(s.created_at)}</td>
          <td>
            <${ActionButton} action=${act} label="Remove" call=${() => api('DELETE', `/v1/mcp-servers/${s.id}`)} then=${reload} />
          </td>
        </tr>`}
    />`;
}
