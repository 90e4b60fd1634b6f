// The banknote page's settlement views: a branch's daily settlement (the table, its status, a
// chart of notes per hour, CSV, declaring devices delivered) and a serial's dispute pack.
import { API, el, errorLine, fetchJson, field, query, showError, textInput } from './banknote-common.js';

let settleChart = null; // the uPlot instance, destroyed before another is drawn

/** Lets go of the chart of an earlier rendering of the page. */
export function releaseCharts() {
  if (settleChart) { settleChart.destroy(); settleChart = null; }
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

export function settlementSection() {
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

export function disputeSection() {
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
