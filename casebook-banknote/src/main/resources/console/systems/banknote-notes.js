// The banknote page's note views: a serial's history (table and timeline), what a device read
// between two times, and a branch's suspect notes day by day with a chart of their counts.
import {
  API, KIND_LETTER, el, columns, errorLine, fetchJson, field, isDay, limitInput, notesTable,
  pager, query, showError, textInput,
} from './banknote-common.js';

const MAX_DAYS = 31;
// Counting a day's suspects pages through its listing; past this many pages the count is shown
// as a lower bound rather than holding the page for minutes.
const MAX_COUNT_PAGES = 20;
const COUNT_PAGE = 1000;

let suspectChart = null; // the uPlot instance, destroyed before another is drawn

/** Lets go of the chart of an earlier rendering of the page. */
export function releaseCharts() {
  if (suspectChart) { suspectChart.destroy(); suspectChart = null; }
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

export function historySection(links) {
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

export function deviceSection(links) {
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

export function suspectsSection(links) {
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
