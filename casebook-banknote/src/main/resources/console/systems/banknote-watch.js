// The banknote page's watch list: its entries, adding and removing them, and a branch's hits of a
// day.
import {
  API, DEFAULT_LIMIT, el, columns, errorLine, fetchJson, field, notesTable, pager, query,
  showError, textInput,
} from './banknote-common.js';

// ---- (6) the watch list and its hits

export function watchSection(links) {
  const pattern = textInput('bn-watch-pattern', 'AB12?????? or XN15115812', 16);
  const denomination = el('input', { id: 'bn-watch-denomination', type: 'number', min: '1', placeholder: 'any', style: 'min-width:5rem;width:5rem' });
  const note = textInput('bn-watch-note', 'reason (PBOC notice …)', 22);
  const by = textInput('bn-watch-by', 'who', 10);
  const addForm = el('form', { class: 'form', id: 'bn-watch-form' },
    field('Serial or pattern', pattern), field('Denomination', denomination), field('Reason', note), field('Added by', by),
    el('button', { type: 'submit', id: 'bn-watch-add' }, 'Add'));
  const error = errorLine('bn-watch-error');
  const listBox = el('div', { id: 'bn-watch-list' });
  const pages = pager('bn-watch', (cursor, step) => loadList(cursor, step));

  let asking = 0; // only the latest answer is drawn
  async function loadList(cursor, step) {
    const mine = ++asking;
    const answer = await fetchJson(`${API}/watch${query({ limit: DEFAULT_LIMIT, cursor })}`, error);
    if (mine !== asking || !answer) return;
    pages.shown(step, cursor, answer.next, answer.entries.length);
    listBox.replaceChildren(answer.entries.length
      ? el('div', { class: 'bn-scroll' }, el('table', { id: 'bn-watch-entries', class: 'grid' },
        el('thead', {}, el('tr', {}, ['Pattern', 'Denomination', 'Reason', 'Added by', 'Added (UTC)', 'Id', ''].map((h) => el('th', {}, h)))),
        el('tbody', {}, answer.entries.map((e) => {
          const remove = el('button', { type: 'button', class: 'bn-link', 'data-remove': e.id }, 'remove');
          remove.addEventListener('click', () => removeEntry(e.id));
          return el('tr', { 'data-id': e.id, 'data-pattern': e.pattern },
            el('td', { 'data-field': 'pattern' }, e.pattern),
            el('td', { 'data-field': 'denomination' }, e.denomination == null ? 'any' : String(e.denomination)),
            el('td', { 'data-field': 'note' }, e.note),
            el('td', { 'data-field': 'addedBy' }, e.addedBy),
            el('td', { 'data-field': 'added' }, e.added),
            el('td', { 'data-field': 'id' }, e.id),
            el('td', {}, remove));
        }))), pages.bar)
      : el('p', { class: 'muted', id: 'bn-watch-empty' }, 'The watch list is empty.'));
  }

  async function change(method, path, body) {
    const r = await window.Casebook.send(method, path, body);
    if (!r.ok) { showError(error, window.Casebook.problem(r)); return false; }
    showError(error, null);
    pages.reset();
    await loadList(null, 0);
    return true;
  }

  async function removeEntry(id) {
    await change('DELETE', `${API}/watch/${encodeURIComponent(id)}`);
  }

  addForm.addEventListener('submit', async (e) => {
    e.preventDefault();
    const d = denomination.value.trim();
    const added = await change('POST', `${API}/watch`, {
      pattern: pattern.value.trim(),
      denomination: d === '' ? null : Number(d),
      note: note.value.trim(),
      addedBy: by.value.trim(),
    });
    if (added) pattern.value = '';
  });

  const branch = textInput('bn-hits-branch', '0110-001', 14);
  const day = textInput('bn-hits-day', 'YYYY-MM-DD', 11);
  const hitsForm = el('form', { class: 'form', id: 'bn-hits-form' },
    field('Branch', branch), field('Day', day),
    el('button', { type: 'submit', id: 'bn-hits-show' }, 'Show hits'));
  const hitsError = errorLine('bn-hits-error');
  const hitsBox = el('div', { id: 'bn-hits-body' });
  let asked = null;
  const hitPages = pager('bn-hits', (cursor, step) => loadHits(cursor, step));
  let askingHits = 0;
  async function loadHits(cursor, step) {
    const mine = ++askingHits;
    const answer = await fetchJson(`${API}/watch/hits${query({ branch: asked.branch, day: asked.day, limit: DEFAULT_LIMIT, cursor })}`, hitsError);
    if (mine !== askingHits) return;
    if (!answer) { hitsBox.replaceChildren(); return; }
    hitPages.shown(step, cursor, answer.next, answer.hits.length);
    const cols = [{ key: 'pattern', label: 'Matched', cell: (n) => n.matched }, ...columns(true, links)];
    hitsBox.replaceChildren(...(answer.hits.length
      ? [notesTable('bn-hits', answer.hits.map((h) => ({ ...h.note, matched: h.pattern })), cols), hitPages.bar]
      : [el('p', { class: 'muted', id: 'bn-hits-none' }, 'No hits.')]));
  }
  hitsForm.addEventListener('submit', (e) => {
    e.preventDefault();
    asked = { branch: branch.value.trim(), day: day.value.trim() };
    hitPages.reset();
    loadHits(null, 0);
  });

  loadList(null, 0);
  return el('section', { id: 'bn-watch-section' },
    el('h3', {}, 'Watch list'),
    el('p', { class: 'muted' }, 'Serials and patterns the bank watches for (? is any one character; a pattern matches serials of its own length). '
      + 'Every note stored is checked as it arrives (POST/GET/DELETE /api/banknotes/watch).'),
    addForm, error, listBox,
    el('h3', {}, 'Hits of a day'),
    el('p', { class: 'muted' }, 'Notes of a branch on a day that matched the list, newest first (GET /api/banknotes/watch/hits?branch=&day=).'),
    hitsForm, hitsError, hitsBox);
}
