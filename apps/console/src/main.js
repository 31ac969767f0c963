// The Intent Gateway console: a small single-page app over the public API (DESIGN 6.14).
// Routing by the URL hash, so the gateway serves one static index.html for every page.
import { api, session } from './api.js';
import { ErrorMessage, html, render, useEffect, useState } from './ui.js';
import { OverviewPage } from './pages/overview.js';
import { ApprovalsPage } from './pages/approvals.js';
import { IntentionsPage } from './pages/intentions.js';
import { CardsPage } from './pages/cards.js';
import { McpServersPage } from './pages/mcp-servers.js';
import { HistoryPage } from './pages/history.js';
import { MandatesPage } from './pages/mandates.js';
import { KeysPage } from './pages/keys.js';
import { WebhooksPage } from './pages/webhooks.js';

const PAGES = [
  // The landing page once signed in (DESIGN 6.14).
  ['overview', 'Overview', OverviewPage],
  ['approvals', 'Approvals', ApprovalsPage],
  ['intentions', 'Intentions', IntentionsPage],
  ['cards', 'Intent cards', CardsPage],
  ['mcp-servers', 'MCP servers', McpServersPage],
  ['history', 'History', HistoryPage],
  ['mandates', 'Mandates', MandatesPage],
  ['keys', 'API keys', KeysPage],
  ['webhooks', 'Webhooks', WebhooksPage],
];

const route = () => location.hash.replace(/^#\/?/, '').split('?')[0] || 'overview';

function SignIn({ onSignedIn }) {
  const [key, setKey] = useState('');
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e) => {
    e.preventDefault();
    setBusy(true);
    try {
      // Any authenticated read tells a valid key from a wrong one; the API's message is shown as is.
      await api('GET', '/v1/intentions?limit=1', undefined, key.trim());
      session.signIn(key.trim());
      onSignedIn();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return html`<main class="container">
    <article class="sign-in">
      <header><h1>Intent Gateway</h1></header>
      <form onSubmit=${submit}>
        <label
          >API key
          <input
            name="api-key"
            type="password"
            autocomplete="off"
            required
            placeholder="igw_…"
            value=${key}
            onInput=${(e) => setKey(e.target.value)}
            aria-describedby="key-help"
          />
          <small id="key-help">Kept in this tab only (session storage) and sent as a bearer token.</small>
        </label>
        <${ErrorMessage} error=${error} />
        <button type="submit" aria-busy=${busy}>Sign in</button>
      </form>
    </article>
  </main>`;
}

function App() {
  const [signedIn, setSignedIn] = useState(Boolean(session.key()));
  const [page, setPage] = useState(route());
  useEffect(() => {
    const onHash = () => setPage(route());
    addEventListener('hashchange', onHash);
    return () => removeEventListener('hashchange', onHash);
  }, []);
  if (!signedIn) return html`<${SignIn} onSignedIn=${() => setSignedIn(true)} />`;
  const current = PAGES.find(([id]) => id === page) ?? PAGES[0];
  const Page = current[2];
  return html`<header class="top container-fluid">
      <nav aria-label="Console">
        <ul>
          <li><strong>Intent Gateway</strong></li>
        </ul>
        <ul>
          ${PAGES.map(([id, title]) => html`<li><a href=${`#/${id}`} aria-current=${id === current[0] ? 'page' : undefined}>${title}</a></li>`)}
          <li>
            <button
              type="button"
              class="outline secondary"
              onClick=${() => {
                session.signOut();
                setSignedIn(false);
              }}
            >
              Sign out
            </button>
          </li>
        </ul>
      </nav>
    </header>
    <main class="container" id="page">
      <h1>${current[1]}</h1>
      <${Page} />
    </main>`;
}

render(html`<${App} />`, document.getElementById('app'));
