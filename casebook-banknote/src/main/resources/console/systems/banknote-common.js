// Shared by the banknote page's parts (banknote.js imports them as ES modules): the page's styles,
// API calls with their errors shown in the page, form fields, notes tables and a pager.

const { el } = window.Casebook;
export { el };
export const API = '/api/banknotes';
export const DEFAULT_LIMIT = 100;
export const KIND_LETTER = { atm: 'A', sorter: 'S', counter: 'C', teller: 'T' };

// Page-specific styles live with the page: the console's stylesheet is shared by every system.
export const STYLE = `
  .bn section { margin-bottom: 1.6rem; }
  .bn h3 { margin: .4rem 0 .2rem; font-size: 1rem; }
  .bn table.grid { font-size: 12.5px; }
  .bn table.grid td { white-space: nowrap; }
  .bn .bn-scroll { overflow-x: auto; }
  .bn #bn-suspect-days { width: auto; min-width: 26rem; }
  .bn tr.bn-suspect td[data-field=verdict] { color: var(--bad); font-weight: 600; }
  .bn .bn-link { background: none; border: none; padding: 0; color: var(--accent); cursor: pointer; font: inherit; text-align: left; }
  .bn .bn-pager { display: flex; gap: .8rem; align-items: center; margin: .4rem 0; }
  .bn .bn-pager button { font: inherit; padding: .15rem .7rem; border: 1px solid #c9ced6; border-radius: 4px; background: #fff; cursor: pointer; }
  .bn .bn-pager button:disabled { color: #aab; cursor: default; }
  .bn .bn-timeline { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: .5rem .8rem .3rem; margin: .4rem 0; }
  .bn .bn-lane { display: grid; grid-template-columns: 9rem 1fr; align-items: center; height: 24px; }
  .bn .bn-lane-label { font-family: ui-monospace, monospace; font-size: .75rem; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; color: var(--muted); }
  .bn .bn-track { position: relative; height: 100%; border-bottom: 1px dashed var(--line); }
  .bn .bn-dot { position: absolute; top: 3px; width: 17px; height: 17px; margin-left: -8px; border-radius: 50%; background: #2e7d32; color: #fff; font-size: 10px; line-height: 17px; text-align: center; font-weight: 600; cursor: default; }
  .bn .bn-dot.suspect { background: var(--bad); }
  .bn .bn-axis { display: grid; grid-template-columns: 9rem 1fr 1fr; font-size: .75rem; color: var(--muted); margin-top: .2rem; }
  .bn .bn-legend { font-size: .75rem; color: var(--muted); margin-left: 9rem; }
  .bn .bn-axis span:last-child { text-align: right; }
  .bn tr.bn-selected td { background: #eef4ff; }
  .bn .bn-chart { min-height: 0; margin: .4rem 0; }
  .bn ol.bn-chain { margin: .4rem 0; padding-left: 1.6rem; }
  .bn li.bn-step { margin: .3rem 0; font-size: 13px; }
  .bn li.bn-inferred { color: var(--muted); font-style: italic; }
  .bn li.bn-suspect strong { color: var(--bad); }
  .bn canvas.bn-serial-image { border: 1px solid var(--line); margin-top: .2rem; image-rendering: pixelated; }
  .bn td.num, .bn th.num { text-align: right; font-variant-numeric: tabular-nums; }
  .bn tr.bn-total td { font-weight: 600; border-top: 2px solid var(--line); }
  .bn .bn-status { display: inline-block; padding: .05rem .5rem; border-radius: 3px; color: #fff; font-weight: 600; background: #8a6d00; }
  .bn .bn-status.bn-closed { background: #2e7d32; }
  .bn .bn-status.bn-reopened { background: var(--bad); }
  .bn .bn-loc-view { display: flex; flex-wrap: wrap; gap: 1rem; align-items: flex-start; }
  .bn svg.bn-map { border: 1px solid var(--line); border-radius: 6px; background: #fff; font-size: 11px; }
  .bn svg.bn-map .bn-map-bg { fill: #f6f8fb; }
  .bn svg.bn-map circle { fill: #1565c0; stroke: #fff; stroke-width: 1.5; }
  .bn svg.bn-map .bn-map-axis { fill: #8a94a3; font-size: 10px; }
  .bn tr.bn-travel td[data-field=speedKmh] { color: var(--bad); font-weight: 600; }
  .bn #bn-clones td[data-field=earlier], .bn #bn-clones td[data-field=later], .bn #bn-clones td[data-field=speedKmh] { white-space: normal; min-width: 9rem; }
`;


export function errorLine(id) {
  return el('p', { id, class: 'error', hidden: '' });
}

export function showError(p, message) {
  p.textContent = message || '';
  p.hidden = !message;
}

/** A GET to the API: the answer, or null after writing why into {@code errorBox}. */
export async function fetchJson(path, errorBox) {
  let r;
  try {
    r = await window.Casebook.get(path);
  } catch (e) {
    showError(errorBox, `Could not reach the server: ${e.message}`);
    return null;
  }
  if (!r.ok) {
    showError(errorBox, window.Casebook.problem(r));
    return null;
  }
  showError(errorBox, null);
  return r.json;
}

export function query(params) {
  const q = new URLSearchParams();
  Object.entries(params).forEach(([k, v]) => {
    if (v !== null && v !== undefined && v !== '') q.set(k, String(v));
  });
  const s = q.toString();
  return s ? `?${s}` : '';
}

export function field(label, control) {
  return el('label', {}, label, control);
}

export function textInput(id, placeholder, size) {
  return el('input', { id, type: 'text', placeholder, size: String(size || 14), autocomplete: 'off' });
}

export function limitInput(id) {
  return el('input', { id, type: 'number', min: '1', max: '1000', value: String(DEFAULT_LIMIT), style: 'min-width:5rem;width:5rem' });
}

// ---- notes tables

export function linkButton(text, title, onClick) {
  const b = el('button', { type: 'button', class: 'bn-link', title }, text);
  b.addEventListener('click', onClick);
  return b;
}

/** The columns of a notes table; {@code links} turns serials and devices into look-ups. */
export function columns(withSerial, links) {
  const cols = [];
  if (withSerial) {
    cols.push({ key: 'serial', label: 'Serial', cell: (n) => (links.serial ? linkButton(n.serial, 'Show this note\'s history', () => links.serial(n)) : n.serial) });
  }
  cols.push(
    { key: 'time', label: 'Time (UTC)', cell: (n) => n.time },
    { key: 'device', label: 'Device', cell: (n) => (links.device ? linkButton(n.device, 'Show what this device read in the hour around this reading', () => links.device(n)) : n.device) },
    { key: 'deviceKind', label: 'Kind', cell: (n) => n.deviceKind },
    { key: 'branch', label: 'Branch', cell: (n) => n.branch },
    { key: 'operation', label: 'Operation', cell: (n) => n.operation },
    { key: 'batch', label: 'Batch', cell: (n) => n.batch },
    { key: 'verdict', label: 'Verdict', cell: (n) => n.verdict },
    { key: 'denomination', label: 'Denomination', cell: (n) => `${n.denomination} ${n.currency}` },
    { key: 'edition', label: 'Edition', cell: (n) => (n.edition == null ? '—' : String(n.edition)) },
    { key: 'errorCodes', label: 'Error codes', cell: (n) => (n.errorCodes || []).join(', ') || '—' },
    { key: 'source', label: 'Source #record', cell: (n) => `${n.source} #${n.record}` },
  );
  return cols;
}

export function notesTable(id, notes, cols) {
  return el('div', { class: 'bn-scroll' }, el('table', { id, class: 'grid' },
    el('thead', {}, el('tr', {}, cols.map((c) => el('th', {}, c.label)))),
    el('tbody', {}, notes.map((n) => el('tr', {
      class: n.verdict === 'suspect' ? 'bn-suspect' : '',
      'data-serial': n.serial,
      'data-device': n.device,
      'data-source': n.source,
      'data-record': String(n.record),
    }, cols.map((c) => el('td', { 'data-field': c.key }, c.cell(n))))))));
}

// ---- paging: a stack of cursors, so Previous returns to the page shown before

/** A pager; {@code noun} and {@code nouns} name what a page lists (the label counts them). */
export function pager(prefix, onTurn, noun = 'note', nouns = `${noun}s`) {
  const prev = el('button', { type: 'button', id: `${prefix}-prev` }, '‹ Previous');
  const next = el('button', { type: 'button', id: `${prefix}-next` }, 'Next ›');
  const label = el('span', { id: `${prefix}-page`, class: 'muted' });
  const bar = el('div', { class: 'bn-pager' }, prev, label, next);
  const state = { cursors: [null], index: 0, next: null };
  prev.addEventListener('click', () => {
    if (state.index > 0) onTurn(state.cursors[state.index - 1], -1);
  });
  next.addEventListener('click', () => {
    if (state.next) onTurn(state.next, +1);
  });
  return {
    bar,
    reset() { state.cursors = [null]; state.index = 0; state.next = null; },
    /** Records the page just shown: {@code step} is how it was reached (0 first, ±1). */
    shown(step, cursor, nextCursor, count) {
      if (step > 0) { state.index++; state.cursors[state.index] = cursor; state.cursors.length = state.index + 1; }
      if (step < 0) state.index--;
      state.next = nextCursor || null;
      prev.disabled = state.index === 0;
      next.disabled = !state.next;
      label.textContent = `page ${state.index + 1} · ${count} ${count === 1 ? noun : nouns}${state.next ? ' · more follow' : ''}`;
    },
  };
}

/** A day as YYYY-MM-DD that the calendar has. */
export function isDay(s) {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const t = Date.parse(`${s}T00:00:00Z`);
  return !Number.isNaN(t) && new Date(t).toISOString().startsWith(s);
}

