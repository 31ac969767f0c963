// Overview (DESIGN 6.14): the org's traffic at a glance, from GET /v1/stats. The time series are
// drawn by uPlot (served from vendor/, no bundler); every chart has a table beside it with the
// same numbers, so a screen reader (or a test) reads what the chart shows.
import uPlot from '../../vendor/uPlot.esm.js';
import { api } from '../api.js';
import { ErrorMessage, html, useEffect, useRef, useState } from '../ui.js';

const WINDOWS = [
  ['1h', 'Last hour'],
  ['24h', 'Last 24 hours'],
  ['7d', 'Last 7 days'],
];
/** Refresh while the page is open: a bucket of the shortest window is a minute. */
const REFRESH_MS = 15_000;

/** Colours of the keys a chart may show (outcomes, decision kinds); others cycle the palette. */
const COLOURS = {
  allowed: '#2e7d32',
  approved: '#66bb6a',
  denied: '#c62828',
  shadow_denied: '#ef9a9a',
  pending_approval: '#f9a825',
  allow: '#2e7d32',
  deny: '#c62828',
  deny_with_reroute: '#e57373',
  defer: '#f9a825',
  approval: '#fb8c00',
  step_up: '#8e24aa',
};
const PALETTE = ['#1565c0', '#00838f', '#6d4c41', '#5e35b1', '#546e7a', '#ad1457'];
const colourOf = (key, i) => COLOURS[key] ?? PALETTE[i % PALETTE.length];

const number = (n) => new Intl.NumberFormat().format(n);
const percentOf = (share) => (share === null ? '—' : `${(share * 100).toFixed(1)} %`);

/** Seconds as "4 min", "2 h 5 min", "3 d 1 h". */
export function ageText(seconds) {
  if (seconds === null || seconds === undefined) return '—';
  if (seconds < 60) return `${seconds} s`;
  const m = Math.floor(seconds / 60);
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  if (h < 24) return `${h} h ${m % 60} min`;
  return `${Math.floor(h / 24)} d ${h % 24} h`;
}

/** One uPlot line chart over the buckets; redrawn when the data or the width changes. */
function SeriesChart({ label, buckets, series }) {
  const box = useRef(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return undefined;
    const keys = Object.keys(series);
    const xs = buckets.map((b) => Date.parse(b) / 1000);
    const chart = new uPlot(
      {
        width: Math.max(320, el.clientWidth || 640),
        height: 220,
        series: [{}, ...keys.map((k, i) => ({ label: k, stroke: colourOf(k, i), width: 2, points: { show: false } }))],
        axes: [{}, { size: 50 }],
        scales: { y: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
        legend: { show: true },
      },
      [xs, ...keys.map((k) => series[k])],
      el,
    );
    const resize = () => chart.setSize({ width: Math.max(320, el.clientWidth || 640), height: 220 });
    addEventListener('resize', resize);
    return () => {
      removeEventListener('resize', resize);
      chart.destroy();
    };
  }, [buckets, series]);
  // The canvas is decoration for sighted readers; the table next to it carries the numbers.
  return html`<div class="chart" ref=${box} role="img" aria-label=${label}></div>`;
}

/** The per-key totals of a chart, and its buckets that had any count, as tables. */
function SeriesTables({ name, keyTitle, totals, buckets, series }) {
  const keys = Object.keys(series);
  const busy = buckets.map((b, i) => [b, keys.map((k) => series[k][i])]).filter(([, counts]) => counts.some((n) => n > 0));
  return html`<table class="totals" data-table=${name}>
      <caption class="visually-hidden">
        ${name}: totals over the window
      </caption>
      <thead>
        <tr>
          <th scope="col">${keyTitle}</th>
          <th scope="col">Count</th>
        </tr>
      </thead>
      <tbody>
        ${Object.entries(totals)
          .sort((a, b) => b[1] - a[1])
          .map(
            ([k, n]) =>
              html`<tr data-key=${k}>
                <th scope="row">${k}</th>
                <td data-count=${n}>${number(n)}</td>
              </tr>`,
          )}
      </tbody>
    </table>
    <details>
      <summary>${name} per bucket (${busy.length} with traffic)</summary>
      <table data-table=${`${name}-buckets`}>
        <thead>
          <tr>
            <th scope="col">Bucket</th>
            ${keys.map((k) => html`<th scope="col">${k}</th>`)}
          </tr>
        </thead>
        <tbody>
          ${busy.map(
            ([b, counts]) =>
              html`<tr>
                <th scope="row">${new Date(b).toLocaleString()}</th>
                ${counts.map((n) => html`<td>${n}</td>`)}
              </tr>`,
          )}
        </tbody>
      </table>
    </details>`;
}

function SeriesSection({ id, title, keyTitle, part, totals, buckets, empty }) {
  return html`<section class="overview-card" aria-labelledby=${`${id}-title`} data-section=${id}>
    <h2 id=${`${id}-title`}>${title} <small data-total=${part.total}>${number(part.total)} in the window</small></h2>
    ${
      part.total === 0
        ? html`<p><em>${empty}</em></p>`
        : html`<${SeriesChart}
              label=${`${title} per bucket, by ${keyTitle.toLowerCase()}; the table below has the numbers.`}
              buckets=${buckets}
              series=${part.series}
            />
            <${SeriesTables} name=${id} keyTitle=${keyTitle} totals=${totals} buckets=${buckets} series=${part.series} />`
    }
  </section>`;
}

/** A ranked list (refused tools, intentions, cards): the count and a bar to compare them. */
function TopList({ id, title, keyTitle, rows, empty }) {
  const max = Math.max(1, ...rows.map((r) => r.count));
  return html`<section class="overview-card" aria-labelledby=${`${id}-title`} data-section=${id}>
    <h2 id=${`${id}-title`}>${title}</h2>
    ${
      rows.length === 0
        ? html`<p><em>${empty}</em></p>`
        : html`<table data-table=${id}>
            <thead>
              <tr>
                <th scope="col">${keyTitle}</th>
                <th scope="col">Count</th>
                <th scope="col"><span class="visually-hidden">Share of the largest</span></th>
              </tr>
            </thead>
            <tbody>
              ${rows.map(
                (r) =>
                  html`<tr data-key=${r.key}>
                    <th scope="row"><code>${r.key}</code></th>
                    <td data-count=${r.count}>${number(r.count)}</td>
                    <td><progress value=${r.count} max=${max} aria-hidden="true"></progress></td>
                  </tr>`,
              )}
            </tbody>
          </table>`
    }
  </section>`;
}

export function OverviewPage() {
  const [range, setRange] = useState('1h');
  const [stats, setStats] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    let live = true;
    const load = () =>
      api('GET', `/v1/stats?window=${range}`).then(
        (s) => live && (setStats(s), setError(null)),
        (e) => live && setError(e),
      );
    load();
    const timer = setInterval(load, REFRESH_MS);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [range]);

  const windowSwitch = html`<fieldset class="window-switch" role="group" aria-label="Window">
    ${WINDOWS.map(
      ([w, label]) =>
        html`<button type="button" class=${w === range ? '' : 'outline'} aria-pressed=${w === range ? 'true' : 'false'} onClick=${() => setRange(w)}>
          ${label}
        </button>`,
    )}
  </fieldset>`;

  if (!stats) return html`${windowSwitch}<${ErrorMessage} error=${error} />${error ? '' : html`<p aria-busy="true">Loading the overview…</p>`}`;
  const s = stats;
  const span = WINDOWS.find(([w]) => w === s.window)?.[1].toLowerCase();
  const note = `Counts of the ${span} as of ${new Date(s.generated_at).toLocaleTimeString()}; refreshed every ${REFRESH_MS / 1000} s.`;
  const bucketText = s.bucket_seconds === 60 ? 'per minute' : s.bucket_seconds === 900 ? 'per 15 minutes' : 'per hour';
  return html`${windowSwitch}
    <${ErrorMessage} error=${error} />
    <div class="figures" data-window=${s.window}>
      <article data-figure="pending">
        <header>Approval backlog</header>
        <p class="figure">${number(s.approvals.pending)}</p>
        <small>pending · oldest waiting <span data-figure="oldest-age">${ageText(s.approvals.oldest_pending_age_seconds)}</span></small>
      </article>
      <article data-figure="auto-decided">
        <header>Decided without a human</header>
        <p class="figure">${percentOf(s.auto_decided.share)}</p>
        <small>${number(s.auto_decided.automatic)} by the gateway · ${number(s.auto_decided.human)} by a human (evaluations)</small>
        ${s.auto_decided.share !== null ? html`<progress value=${s.auto_decided.automatic} max=${s.auto_decided.automatic + s.auto_decided.human} aria-hidden="true"></progress>` : ''}
      </article>
      <article data-figure="evaluations">
        <header>Evaluations</header>
        <p class="figure">${number(s.evaluations.total)}</p>
        <small>legacy path, ${bucketText} below</small>
      </article>
      <article data-figure="decisions">
        <header>Decisions</header>
        <p class="figure">${number(s.decisions.total)}</p>
        <small>mandate path, ${bucketText} below</small>
      </article>
    </div>
    <${SeriesSection}
      id="evaluations"
      title="Evaluations by outcome"
      keyTitle="Outcome"
      part=${s.evaluations}
      totals=${s.evaluations.by_outcome}
      buckets=${s.buckets}
      empty="No evaluation in this window."
    />
    <${SeriesSection}
      id="decisions"
      title="Decisions by kind"
      keyTitle="Kind"
      part=${s.decisions}
      totals=${s.decisions.by_kind}
      buckets=${s.buckets}
      empty="No mandate-path decision in this window."
    />
    <div class="grid">
      <${TopList}
        id="refused-tools"
        title="Top refused tools"
        keyTitle="Tool"
        rows=${s.top_refused_tools.map((t) => ({ key: t.tool, count: t.count }))}
        empty="Nothing refused."
      />
      <${TopList}
        id="intentions"
        title="Intentions used"
        keyTitle="Intention"
        rows=${s.intentions.map((t) => ({ key: t.intent_label, count: t.count }))}
        empty="No intention matched."
      />
      <${TopList} id="cards" title="Intent cards used" keyTitle="Card" rows=${s.cards.map((t) => ({ key: t.card_id, count: t.count }))} empty="No card used." />
    </div>
    <p><small>${note}</small></p>`;
}
