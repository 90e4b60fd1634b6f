// The banknote system's console page: a note's history by serial (table and timeline), what a
// device read between two times, a branch's daily settlement (the table, its status, a chart of
// notes per hour, CSV), and a branch's suspect notes day by day with a chart of their counts. It
// calls only the banknote API under /api/banknotes; every answer that fails is shown in the page
// with the API's own text. A link #/system/banknote?serial=… looks a note up, ?branch=…&day=…
// settles a day, ?dispute=… builds a serial's dispute pack.
'use strict';

(() => {
  const { el } = window.Casebook;
  const API = '/api/banknotes';
  const DEFAULT_LIMIT = 100;
  const MAX_DAYS = 31;
  // Counting a day's suspects pages through its listing; past this many pages the count is shown
  // as a lower bound rather than holding the page for minutes.
  const MAX_COUNT_PAGES = 20;
  const COUNT_PAGE = 1000;
  const KIND_LETTER = { atm: 'A', sorter: 'S', counter: 'C', teller: 'T' };

  // Page-specific styles live with the page: the console's stylesheet is shared by every system.
  const STYLE = `
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
  `;

  let suspectChart = null; // the uPlot instance, destroyed before another is drawn
  let settleChart = null;

  function errorLine(id) {
    return el('p', { id, class: 'error', hidden: '' });
  }

  function showError(p, message) {
    p.textContent = message || '';
    p.hidden = !message;
  }

  /** A GET to the API: the answer, or null after writing why into {@code errorBox}. */
  async function fetchJson(path, errorBox) {
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

  function query(params) {
    const q = new URLSearchParams();
    Object.entries(params).forEach(([k, v]) => {
      if (v !== null && v !== undefined && v !== '') q.set(k, String(v));
    });
    const s = q.toString();
    return s ? `?${s}` : '';
  }

  function field(label, control) {
    return el('label', {}, label, control);
  }

  function textInput(id, placeholder, size) {
    return el('input', { id, type: 'text', placeholder, size: String(size || 14), autocomplete: 'off' });
  }

  function limitInput(id) {
    return el('input', { id, type: 'number', min: '1', max: '1000', value: String(DEFAULT_LIMIT), style: 'min-width:5rem;width:5rem' });
  }

  // ---- notes tables

  function linkButton(text, title, onClick) {
    const b = el('button', { type: 'button', class: 'bn-link', title }, text);
    b.addEventListener('click', onClick);
    return b;
  }

  /** The columns of a notes table; {@code links} turns serials and devices into look-ups. */
  function columns(withSerial, links) {
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

  function notesTable(id, notes, cols) {
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

  function pager(prefix, onTurn) {
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
        label.textContent = `page ${state.index + 1} · ${count} note${count === 1 ? '' : 's'}${state.next ? ' · more follow' : ''}`;
      },
    };
  }

  // ---- a note's history as a timeline: one lane per branch, oldest on the left

  function timeline(notes) {
    const box = el('div', { id: 'bn-timeline', class: 'bn-timeline' });
    if (!notes.length) return box;
    const times = notes.map((n) => Date.parse(n.time));
    const min = Math.min(...times);
    const max = Math.max(...times);
    // Lanes in the order the note reached the branches.
    const oldestFirst = [...notes].sort((x, y) => Date.parse(x.time) - Date.parse(y.time));
    const branches = [...new Set(oldestFirst.map((n) => n.branch))];
    branches.forEach((branch) => {
      const dots = notes.filter((n) => n.branch === branch).map((n) => {
        const t = Date.parse(n.time);
        const left = max === min ? 50 : 2 + (96 * (t - min)) / (max - min);
        return el('span', {
          class: `bn-dot ${n.verdict}`,
          style: `left:${left.toFixed(2)}%`,
          'data-device': n.device,
          'data-source': n.source,
          'data-record': String(n.record),
          title: `${n.time}\n${n.operation} at ${n.device} (${n.deviceKind}), branch ${n.branch}\n${n.verdict}, ${n.denomination} ${n.currency}`,
        }, KIND_LETTER[n.deviceKind] || '?');
      });
      box.append(el('div', { class: 'bn-lane', 'data-branch': branch },
        el('span', { class: 'bn-lane-label', title: branch }, branch),
        el('div', { class: 'bn-track' }, dots)));
    });
    box.append(
      el('div', { class: 'bn-axis' }, el('span', {}),
        el('span', {}, new Date(min).toISOString().replace('.000Z', 'Z')),
        el('span', {}, max === min ? '' : new Date(max).toISOString().replace('.000Z', 'Z'))),
      el('div', { class: 'bn-legend' }, 'A atm · S sorter · C counter · T teller; green genuine, red suspect'));
    return box;
  }

  // ---- (1) a note's history

  function historySection(links) {
    const serial = textInput('bn-serial', 'XN15115812', 14);
    const limit = limitInput('bn-history-limit');
    const form = el('form', { class: 'form', id: 'bn-history-form' },
      field('Serial number', serial), field('Per page', limit),
      el('button', { type: 'submit', id: 'bn-lookup' }, 'Look up'));
    const error = errorLine('bn-history-error');
    const summary = el('p', { id: 'bn-history-summary', class: 'muted' });
    const body = el('div', { id: 'bn-history-body' });
    let current = '';
    const pages = pager('bn-history', (cursor, step) => load(cursor, step));

    let asking = 0; // only the latest question's answer is drawn
    async function load(cursor, step) {
      const mine = ++asking;
      const answer = await fetchJson(`${API}/${encodeURIComponent(current)}${query({ limit: limit.value, cursor })}`, error);
      if (mine !== asking) return;
      if (!answer) { body.replaceChildren(); summary.textContent = ''; return; }
      pages.shown(step, cursor, answer.next, answer.notes.length);
      summary.textContent = answer.notes.length
        ? `Serial ${answer.serial}: its readings, newest first.`
        : `No record of serial ${answer.serial}.`;
      body.replaceChildren(...(answer.notes.length
        ? [timeline(answer.notes), notesTable('bn-history', answer.notes, columns(false, links)), pages.bar]
        : []));
      window.Casebook.dataDrawn(body);
    }

    form.addEventListener('submit', (e) => {
      e.preventDefault();
      current = serial.value.trim();
      if (!current) { showError(error, 'Enter a serial number.'); return; }
      pages.reset();
      load(null, 0);
    });
    return {
      node: el('section', { id: 'bn-history-section' },
        el('h3', {}, 'Where has this note been?'),
        el('p', { class: 'muted' }, 'Every reading of a serial number by any device, newest first (GET /api/banknotes/{serial}).'),
        form, error, summary, body),
      lookUp(s) {
        serial.value = s;
        form.requestSubmit();
        form.scrollIntoView({ block: 'nearest' });
      },
    };
  }

  // ---- (2) a device's window

  function deviceSection(links) {
    const device = textInput('bn-device', 'BOC20/JLGF/JL303MHJ40079', 26);
    const from = textInput('bn-from', '2026-02-24 or 2026-02-24T10:00', 22);
    const to = textInput('bn-to', '2026-02-25', 22);
    const limit = limitInput('bn-device-limit');
    const form = el('form', { class: 'form', id: 'bn-device-form' },
      field('Device', device), field('From', from), field('To (exclusive)', to), field('Per page', limit),
      el('button', { type: 'submit', id: 'bn-device-show' }, 'Show'));
    const error = errorLine('bn-device-error');
    const summary = el('p', { id: 'bn-device-summary', class: 'muted' });
    const body = el('div', { id: 'bn-device-body' });
    let asked = null;
    const pages = pager('bn-device', (cursor, step) => load(cursor, step));

    let asking = 0; // only the latest question's answer is drawn
    async function load(cursor, step) {
      const mine = ++asking;
      const path = `${API}/devices/${encodeURIComponent(asked.device)}${query({ from: asked.from, to: asked.to, limit: limit.value, cursor })}`;
      const answer = await fetchJson(path, error);
      if (mine !== asking) return;
      if (!answer) { body.replaceChildren(); summary.textContent = ''; return; }
      pages.shown(step, cursor, answer.next, answer.notes.length);
      summary.textContent = `${answer.device} from ${answer.from} to ${answer.to}, oldest first${answer.notes.length ? '.' : ': nothing read.'}`;
      body.replaceChildren(...(answer.notes.length ? [notesTable('bn-device-notes', answer.notes, columns(true, links)), pages.bar] : []));
      window.Casebook.dataDrawn(body);
    }

    form.addEventListener('submit', (e) => {
      e.preventDefault();
      asked = { device: device.value.trim(), from: from.value.trim(), to: to.value.trim() };
      if (!asked.device) { showError(error, 'Enter a device id.'); return; }
      pages.reset();
      load(null, 0);
    });
    return {
      node: el('section', { id: 'bn-device-section' },
        el('h3', {}, 'What did this device read?'),
        el('p', { class: 'muted' }, 'The notes a device read in [from, to), oldest first (GET /api/banknotes/devices/{id}). '
          + 'Times are ISO-8601; without an offset, and plain dates, they are in the bank\'s zone.'),
        form, error, summary, body),
      around(n) {
        const t = Date.parse(n.time);
        device.value = n.device;
        from.value = new Date(t - 3600e3).toISOString();
        to.value = new Date(t + 3600e3).toISOString();
        form.requestSubmit();
      },
    };
  }

  // ---- (3) suspects of a branch, day by day

  function isDay(s) {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
    const t = Date.parse(`${s}T00:00:00Z`);
    return !Number.isNaN(t) && new Date(t).toISOString().startsWith(s);
  }

  /** The days from {@code first} to {@code last}, both included, as YYYY-MM-DD. */
  function daysBetween(first, last) {
    const out = [];
    for (let t = Date.parse(`${first}T00:00:00Z`); t <= Date.parse(`${last}T00:00:00Z`); t += 86400e3) {
      out.push(new Date(t).toISOString().slice(0, 10));
    }
    return out;
  }

  function drawSuspectChart(target, days, counts) {
    if (suspectChart) { suspectChart.destroy(); suspectChart = null; }
    target.replaceChildren();
    if (typeof uPlot === 'undefined') return;
    const xs = days.map((d, i) => i);
    const every = Math.max(1, Math.ceil(days.length / 12));
    suspectChart = new uPlot({
      width: Math.max(300, target.clientWidth - 10),
      height: 180,
      legend: { show: false },
      cursor: { drag: { x: false, y: false } },
      scales: {
        x: { time: false, range: () => [-0.5, days.length - 0.5] },
        y: { range: (u, lo, hi) => [0, Math.max(1, hi) * 1.15] },
      },
      axes: [
        { splits: () => xs.filter((i) => i % every === 0), values: (u, splits) => splits.map((i) => days[i] || '') },
        // Counts are whole: ticks only at whole numbers.
        { size: 50, label: 'suspect notes', incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000] },
      ],
      series: [{}, {
        label: 'suspect notes',
        stroke: '#c62828',
        fill: 'rgba(198,40,40,.35)',
        paths: uPlot.paths.bars({ size: [0.6, 60] }),
        points: { show: false },
      }],
    }, [xs, counts], target);
  }

  function suspectsSection(links) {
    const branch = textInput('bn-branch', '0110-001', 14);
    const first = textInput('bn-first-day', 'YYYY-MM-DD', 11);
    const last = textInput('bn-last-day', 'YYYY-MM-DD (optional)', 16);
    const limit = limitInput('bn-suspects-limit');
    const form = el('form', { class: 'form', id: 'bn-suspects-form' },
      field('Branch', branch), field('First day', first), field('Last day', last), field('Per page', limit),
      el('button', { type: 'submit', id: 'bn-suspects-show' }, 'Show'));
    const error = errorLine('bn-suspects-error');
    const summary = el('p', { id: 'bn-suspects-summary', class: 'muted' });
    const chart = el('div', { id: 'bn-suspects-chart', class: 'chart bn-chart' });
    const dayTable = el('table', { id: 'bn-suspect-days', class: 'grid' });
    const dayTitle = el('h3', { id: 'bn-suspects-day' });
    const notesBox = el('div', { id: 'bn-suspects-body' });
    const results = el('div', { hidden: '' }, chart, dayTable, dayTitle, notesBox);
    let asked = null;
    let day = null;
    const pages = pager('bn-suspects', (cursor, step) => loadDay(cursor, step));

    /** How many suspects branch {@code b} has on day {@code d}: its listing paged through, or null. */
    async function count(b, d) {
      let total = 0;
      let cursor = null;
      for (let page = 0; page < MAX_COUNT_PAGES; page++) {
        const answer = await fetchJson(`${API}/suspects${query({ branch: b, day: d, limit: COUNT_PAGE, cursor })}`, error);
        if (!answer) return null;
        total += answer.notes.length;
        if (!answer.next) return { total, exact: true };
        cursor = answer.next;
      }
      return { total, exact: false };
    }

    let asking = 0; // only the latest question's answer is drawn
    async function loadDay(cursor, step) {
      const mine = ++asking;
      const answer = await fetchJson(`${API}/suspects${query({ branch: asked.branch, day, limit: limit.value, cursor })}`, error);
      if (mine !== asking) return;
      if (!answer) { notesBox.replaceChildren(); return; }
      pages.shown(step, cursor, answer.next, answer.notes.length);
      dayTitle.textContent = `Suspect notes of ${answer.branch} on ${answer.day}`;
      notesBox.replaceChildren(...(answer.notes.length
        ? [notesTable('bn-suspects', answer.notes, columns(true, links)), pages.bar]
        : [el('p', { class: 'muted' }, 'None.')]));
    }

    function select(d) {
      day = d;
      dayTable.querySelectorAll('tbody tr').forEach((tr) => tr.classList.toggle('bn-selected', tr.dataset.day === d));
      pages.reset();
      loadDay(null, 0);
    }

    let submitted = 0; // a newer question stops the counting of an older one
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      const mine = ++submitted;
      const b = branch.value.trim();
      const f = first.value.trim();
      const l = last.value.trim() || f;
      results.hidden = true;
      summary.textContent = '';
      if (!b) { showError(error, 'Enter a branch.'); return; }
      asked = { branch: b };
      // A day the page cannot read goes to the API as it is: its answer names what is wrong.
      const unread = [f, l].find((d) => !isDay(d));
      let days;
      if (unread !== undefined) {
        const answer = await fetchJson(`${API}/suspects${query({ branch: b, day: unread, limit: 1 })}`, error);
        if (!answer || mine !== submitted) return;
        days = [unread];
      } else {
        days = daysBetween(f, l);
      }
      if (!days.length) { showError(error, 'The last day comes before the first.'); return; }
      if (days.length > MAX_DAYS) { showError(error, `At most ${MAX_DAYS} days at a time.`); return; }
      summary.textContent = 'Counting…';
      const counts = [];
      for (const d of days) {
        const c = await count(b, d);
        if (mine !== submitted) return;
        if (!c) { summary.textContent = ''; return; }
        counts.push(c);
      }
      const total = counts.reduce((a, c) => a + c.total, 0);
      summary.textContent = `${total} suspect note${total === 1 ? '' : 's'} at ${b} over ${days.length} day${days.length === 1 ? '' : 's'}.`;
      dayTable.replaceChildren(
        el('thead', {}, el('tr', {}, el('th', {}, 'Day'), el('th', {}, 'Suspect notes'), el('th', {}, ''))),
        el('tbody', {}, days.map((d, i) => {
          const show = el('button', { type: 'button', class: 'bn-link', 'data-show-day': d }, 'show');
          show.addEventListener('click', () => select(d));
          return el('tr', { 'data-day': d },
            el('td', { 'data-field': 'day' }, d),
            el('td', { 'data-field': 'count' }, `${counts[i].total}${counts[i].exact ? '' : '+'}`),
            el('td', {}, show));
        })));
      results.hidden = false;
      drawSuspectChart(chart, days, counts.map((c) => c.total));
      const firstWithSuspects = days.findIndex((d, i) => counts[i].total > 0);
      select(days[firstWithSuspects < 0 ? 0 : firstWithSuspects]);
    });
    return el('section', { id: 'bn-suspects-section' },
      el('h3', {}, 'Suspect notes of a branch'),
      el('p', { class: 'muted' }, `Counted day by day (days in the bank's zone, at most ${MAX_DAYS}), then one day's notes by time (GET /api/banknotes/suspects?branch=&day=).`),
      form, error, summary, results);
  }

  // ---- (4) a branch's daily settlement

  const OPERATIONS = ['deposit', 'withdrawal', 'sorting', 'counting'];

  function drawHourChart(target, hours) {
    if (settleChart) { settleChart.destroy(); settleChart = null; }
    target.replaceChildren();
    if (typeof uPlot === 'undefined') return;
    const xs = hours.map((h) => h.hour);
    settleChart = new uPlot({
      width: Math.max(300, target.clientWidth - 10),
      height: 180,
      legend: { show: true },
      cursor: { drag: { x: false, y: false } },
      scales: {
        x: { time: false, range: () => [-0.5, 23.5] },
        y: { range: (u, lo, hi) => [0, Math.max(1, hi) * 1.15] },
      },
      axes: [
        { splits: () => xs.filter((h) => h % 2 === 0), values: (u, splits) => splits.map((h) => `${String(h).padStart(2, '0')}h`) },
        { size: 60, label: 'notes', incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000, 100000, 200000, 500000, 1000000] },
      ],
      series: [{ label: 'hour' }, {
        label: 'notes',
        stroke: '#1565c0',
        fill: 'rgba(21,101,192,.35)',
        paths: uPlot.paths.bars({ size: [0.7, 60] }),
        points: { show: false },
      }, {
        label: 'suspect',
        stroke: '#c62828',
        fill: 'rgba(198,40,40,.6)',
        paths: uPlot.paths.bars({ size: [0.3, 20] }),
        points: { show: false },
      }],
    }, [xs, hours.map((h) => h.notes), hours.map((h) => h.suspects)], target);
  }

  function settlementSection() {
    const branch = textInput('bn-settle-branch', '0110-001', 14);
    const day = textInput('bn-settle-day', 'YYYY-MM-DD', 11);
    const form = el('form', { class: 'form', id: 'bn-settle-form' },
      field('Branch', branch), field('Business day', day),
      el('button', { type: 'submit', id: 'bn-settle-show' }, 'Settle'));
    const error = errorLine('bn-settle-error');
    const summary = el('p', { id: 'bn-settle-summary' });
    const body = el('div', { id: 'bn-settle-body' });
    let asked = null;

    function statusText(s) {
      if (s.status === 'closed') return `closed at ${s.closedAt}`;
      if (s.status === 'reopened') {
        const late = s.lateFiles.filter((l) => !l.redeclared).length;
        return `${late} file${late === 1 ? '' : 's'} arrived after ${late === 1 ? 'its' : 'their'} device declared the day delivered`;
      }
      return 'waiting for every device that reported to declare its files delivered';
    }

    function linesTable(s) {
      const head = ['Device', 'Kind', 'Denomination', ...OPERATIONS.map((o) => o[0].toUpperCase() + o.slice(1)), 'Suspect', 'Total', 'Files'];
      const num = (v) => el('td', { class: 'num' }, String(v));
      const rows = s.lines.map((l) => el('tr', { 'data-device': l.device, 'data-currency': l.currency, 'data-denomination': String(l.denomination) },
        el('td', { 'data-field': 'device' }, l.device),
        el('td', { 'data-field': 'deviceKind' }, l.deviceKind),
        el('td', { 'data-field': 'denomination' }, `${l.denomination} ${l.currency}`),
        ...OPERATIONS.map((o) => { const c = num(l[o]); c.dataset.field = o; return c; }),
        (() => { const c = num(l.suspects); c.dataset.field = 'suspects'; return c; })(),
        (() => { const c = num(l.total); c.dataset.field = 'total'; return c; })(),
        el('td', { 'data-field': 'files' }, l.files.map((f) => `${f.source} (${f.notes})`).join(', '))));
      const t = s.totals;
      const total = el('tr', { class: 'bn-total', id: 'bn-settle-total' },
        el('td', { colspan: '3' }, 'Total'),
        ...OPERATIONS.map((o) => { const c = num(t[o]); c.dataset.field = o; return c; }),
        (() => { const c = num(t.suspects); c.dataset.field = 'suspects'; return c; })(),
        (() => { const c = num(t.total); c.dataset.field = 'total'; return c; })(),
        el('td', {}));
      return el('div', { class: 'bn-scroll' }, el('table', { id: 'bn-settlement', class: 'grid' },
        el('thead', {}, el('tr', {}, head.map((h, i) => el('th', i >= 3 && i < head.length - 1 ? { class: 'num' } : {}, h)))),
        el('tbody', {}, rows), el('tfoot', {}, total)));
    }

    function devicesTable(s) {
      return el('div', { class: 'bn-scroll' }, el('table', { id: 'bn-settle-devices', class: 'grid' },
        el('thead', {}, el('tr', {}, ['Device', 'Notes', 'Declared delivered', 'Files'].map((h) => el('th', {}, h)))),
        el('tbody', {}, s.devices.map((d) => {
          let declared;
          if (d.declared) {
            declared = d.declared;
          } else {
            declared = el('button', { type: 'button', class: 'bn-link', 'data-declare': d.device, title: 'Record that this device delivered every file of the day' }, 'declare delivered');
            declared.addEventListener('click', () => declare(d.device));
          }
          return el('tr', { 'data-device': d.device },
            el('td', { 'data-field': 'device' }, d.device),
            el('td', { 'data-field': 'notes', class: 'num' }, String(d.counts.total)),
            el('td', { 'data-field': 'declared' }, declared),
            el('td', { 'data-field': 'files' }, d.files.map((f) => `${f.source} (${f.notes}${f.late ? ', late' : ''}${f.recounted ? ', recounted' : ''})`).join(', ')));
        }))));
    }

    function lateList(s) {
      if (!s.lateFiles.length) return [];
      return [el('h3', {}, 'Late files'),
        el('ul', { id: 'bn-settle-late' }, s.lateFiles.map((l) => el('li', { 'data-device': l.device, 'data-source': l.source },
          `${l.source} from ${l.device}: ${l.notes} notes stored ${l.stored}, after the declaration of ${l.declared}${l.redeclared ? ' (declared again since)' : ''}`)))];
    }

    let asking = 0; // only the latest question's answer is drawn
    async function load() {
      const mine = ++asking;
      const q = query({ branch: asked.branch, day: asked.day });
      const s = await fetchJson(`${API}/settlement${q}`, error);
      if (mine !== asking) return;
      if (!s) { body.replaceChildren(); summary.replaceChildren(); return; }
      summary.replaceChildren(
        el('span', { id: 'bn-settle-status', class: `bn-status bn-${s.status}`, 'data-status': s.status }, s.status),
        ` ${s.branch} on ${s.day} (${s.zone}): ${statusText(s)}`,
        ` · ${s.totals.total} notes, ${s.totals.suspects} suspect, ${s.devices.length} device${s.devices.length === 1 ? '' : 's'} · `,
        el('a', { id: 'bn-settle-csv', href: `${API}/settlement${query({ branch: s.branch, day: s.day, format: 'csv' })}`, download: `settlement-${s.day}.csv` }, 'CSV'));
      const chart = el('div', { id: 'bn-settle-chart', class: 'chart bn-chart' });
      body.replaceChildren(...(s.lines.length
        ? [linesTable(s), el('h3', {}, 'Notes per hour'), chart]
        : [el('p', { class: 'muted', id: 'bn-settle-none' }, 'No notes counted on this day.')]),
      ...(s.devices.length ? [el('h3', {}, 'Devices'), devicesTable(s)] : []),
      ...lateList(s));
      if (s.lines.length) drawHourChart(chart, s.hours);
      window.Casebook.dataDrawn(body);
    }

    async function declare(device) {
      const path = `${API}/settlement/${encodeURIComponent(asked.branch)}/${encodeURIComponent(asked.day)}/devices/${encodeURIComponent(device)}/delivered`;
      const r = await window.Casebook.send('POST', path);
      if (!r.ok) { showError(error, window.Casebook.problem(r)); return; }
      await load();
    }

    form.addEventListener('submit', (e) => {
      e.preventDefault();
      asked = { branch: branch.value.trim(), day: day.value.trim() };
      load();
    });
    return {
      node: el('section', { id: 'bn-settle-section' },
        el('h3', {}, 'Daily settlement'),
        el('p', { class: 'muted' }, 'A branch\'s business day (the bank\'s zone): the notes each device counted, per denomination, by operation, with suspects and the files they came in. '
          + 'The day is closed once every device that reported has declared its files delivered; a file arriving later reopens it (GET /api/banknotes/settlement?branch=&day=).'),
        form, error, summary, body),
      show(b, d) {
        branch.value = b;
        day.value = d;
        form.requestSubmit();
        form.scrollIntoView({ block: 'start' });
      },
    };
  }

  // ---- (5) a dispute pack: the custody chain of one serial to its payout

  const STAGE_LABEL = {
    deposit: 'Taken in',
    sorting: 'Sorted',
    bundle: 'Counted into a bundle',
    cassette: 'In the ATM\'s cassette (inferred)',
    payout: 'Paid out',
  };

  /** The FSN serial image (8-byte header, then per character 32 little-endian u32 columns, bit 31 on top) on a canvas. */
  function serialImage(base64) {
    let bytes;
    try { bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)); } catch (e) { return null; }
    if (bytes.length < 8) return null;
    const chars = bytes[0] | (bytes[1] << 8);
    if (!chars || bytes.length < 8 + chars * 128) return null;
    const canvas = el('canvas', { class: 'bn-serial-image', width: String(chars * 32), height: '32' });
    const g = canvas.getContext('2d');
    g.fillStyle = '#fff';
    g.fillRect(0, 0, chars * 32, 32);
    g.fillStyle = '#111';
    for (let c = 0; c < chars; c++) {
      for (let x = 0; x < 32; x++) {
        const at = 8 + c * 128 + x * 4;
        const word = (bytes[at] | (bytes[at + 1] << 8) | (bytes[at + 2] << 16) | (bytes[at + 3] << 24)) >>> 0;
        for (let y = 0; y < 32; y++) {
          if ((word >>> (31 - y)) & 1) g.fillRect(c * 32 + x, y, 1, 1);
        }
      }
    }
    return canvas;
  }

  function disputeSection() {
    const serial = textInput('bn-dispute-serial', 'XN15115812', 14);
    const form = el('form', { class: 'form', id: 'bn-dispute-form' },
      field('Serial number', serial),
      el('button', { type: 'submit', id: 'bn-dispute-show' }, 'Build the pack'));
    const error = errorLine('bn-dispute-error');
    const summary = el('p', { id: 'bn-dispute-summary', class: 'muted' });
    const body = el('div', { id: 'bn-dispute-body' });

    function step(st, i) {
      const n = st.note;
      const what = n
        ? `${n.time} · ${n.device} (${n.deviceKind}) at ${n.branch} · ${n.operation}, batch ${n.batch} · ${n.verdict} · ${n.source} #${n.record}`
        : `${st.device}: between ${st.after || '?'} and ${st.before}; no device reads a cassette load`;
      const image = n && n.image ? serialImage(n.image) : null;
      return el('li', { class: `bn-step${st.inferred ? ' bn-inferred' : ''}${n && n.verdict === 'suspect' ? ' bn-suspect' : ''}`, 'data-stage': st.stage, 'data-index': String(i) },
        el('strong', {}, STAGE_LABEL[st.stage] || st.stage), ' ', el('span', { class: 'bn-step-what' }, what),
        ...(image ? [el('div', {}, image)] : []));
    }

    let asking = 0;
    async function load(s) {
      const mine = ++asking;
      const pack = await fetchJson(`${API}/dispute/${encodeURIComponent(s)}`, error);
      if (mine !== asking) return;
      if (!pack) { body.replaceChildren(); summary.textContent = ''; return; }
      summary.textContent = pack.paidOut
        ? `Serial ${pack.serial}: paid out by ${pack.paidOut.device} at ${pack.paidOut.time}; ${pack.earlier} earlier reading${pack.earlier === 1 ? '' : 's'} before this chain.`
        : (pack.chain.length ? `Serial ${pack.serial}: never paid out; its readings so far.` : `No record of serial ${pack.serial}.`);
      body.replaceChildren(
        ...(pack.chain.length ? [el('ol', { id: 'bn-dispute-chain', class: 'bn-chain' }, pack.chain.map(step))] : []),
        ...(pack.after.length ? [el('h3', {}, 'Read after the payout'), el('ol', { id: 'bn-dispute-after', class: 'bn-chain' }, pack.after.map(step))] : []),
        ...(pack.clones.length ? [el('p', { id: 'bn-dispute-clones', class: 'error' }, `${pack.clones.length} impossible reading${pack.clones.length === 1 ? '' : 's'}: ${pack.clones.map((c) => `${c.differs.join(', ')} changed at ${c.later.time}`).join('; ')}`)] : []));
      window.Casebook.dataDrawn(body);
    }

    form.addEventListener('submit', (e) => {
      e.preventDefault();
      const s = serial.value.trim();
      if (!s) { showError(error, 'Enter a serial number.'); return; }
      load(s);
    });
    return {
      node: el('section', { id: 'bn-dispute-section' },
        el('h3', {}, 'Dispute pack'),
        el('p', { class: 'muted' }, 'For a disputed note: its custody chain, oldest first, up to its latest payout (taken in, sorter batch, bundle, ATM cassette, payout) as far as the readings tell, with the serial images the devices kept, and what was read after (GET /api/banknotes/dispute/{serial}).'),
        form, error, summary, body),
      show(s) { serial.value = s; form.requestSubmit(); form.scrollIntoView({ block: 'start' }); },
    };
  }

  // ---- (6) the watch list and its hits

  function watchSection(links) {
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

  window.Casebook.register('banknote', {
    render(root) {
      if (suspectChart) { suspectChart.destroy(); suspectChart = null; }
      if (settleChart) { settleChart.destroy(); settleChart = null; }
      const links = {};
      const history = historySection(links);
      const device = deviceSection(links);
      const settlement = settlementSection();
      const dispute = disputeSection();
      links.serial = (n) => history.lookUp(n.serial);
      links.device = (n) => device.around(n);
      root.replaceChildren(el('div', { class: 'bn' },
        el('style', {}, STYLE),
        history.node,
        device.node,
        settlement.node,
        dispute.node,
        suspectsSection(links),
        watchSection(links)));
      // A link #/system/banknote?serial=… looks that note up at once; ?branch=…&day=… settles a
      // branch's day.
      const p = window.Casebook.params;
      if (p.serial) history.lookUp(p.serial);
      if (p.branch && p.day) settlement.show(p.branch, p.day);
      if (p.dispute) dispute.show(p.dispute);
    },
  });
})();
