// The list part every console page shares: filters above, then the list's error, its table (or
// the note when it is empty) and the pager. A page loads its list with usePagedList and hands
// the result (`list`) here; rows stay the page's own (their data-* attributes and buttons).
import { ErrorMessage, html, Listing } from './ui.js';

/** A filter: a labelled select; '' among the options reads "any". */
export function FilterSelect({ label, name, value, options, onChange }) {
  return html`<label
    >${label}<select name=${name} value=${value} onChange=${(e) => onChange(e.target.value)}>
      ${options.map((o) => html`<option value=${o}>${o || 'any'}</option>`)}
    </select></label
  >`;
}

/**
 * A loaded list: its error (or `error`, an action's on its rows), the table with `head` and a
 * `row` per item, `empty` when there are none, then the pager unless `paged` is false.
 */
export function ListPage({ list, error, empty, head, row, paged = true }) {
  return html`<${ErrorMessage} error=${list.error || error} />
    <${Listing} page=${list.page} empty=${empty} head=${head} row=${row} />
    ${paged && list.pager}`;
}

/** A titled section of a page holding one list, its filters above it. */
export function ListSection({ id, title, filters, ...list }) {
  return html`<section aria-labelledby=${`${id}-title`}>
    <h2 id=${`${id}-title`}>${title}</h2>
    <div class="filters">${filters}</div>
    <${ListPage} ...${list} />
  </section>`;
}
