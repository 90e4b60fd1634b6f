// The banknote page's clone views: the branches' declared locations (a paged list, a plot of their
// positions, a form to declare, change and remove one) and a branch's day sweep for probable
// clones (both readings, the distance, the time between, the speed against the limit).
import {
  API, DEFAULT_LIMIT, el, errorLine, fetchJson, field, limitInput, pager, query, showError,
  textInput,
} from './banknote-common.js';

const SVG = 'http://www.w3.org/2000/svg';
const PLOT_WIDTH = 560;
const PLOT_HEIGHT = 300;
const PLOT_PAD = 36;
const REASON = { place: 'travel', denomination: 'denomination', edition: 'edition', currency: 'currency' };

function svg(tag, attrs, ...children) {
  const e = document.createElementNS(SVG, tag);
  Object.entries(attrs || {}).forEach(([k, v]) => e.setAttribute(k, String(v)));
  children.flat().forEach((c) => e.append(c instanceof Node ? c : document.createTextNode(String(c))));
  return e;
}

/**
 * The branches as dots on a plain longitude/latitude plot (no map tiles: nothing is fetched).
 * Longitude is shrunk by the cosine of the middle latitude so that distances look about right
 * in the region shown.
 */
function branchPlot(branches) {
  const plot = svg('svg', {
    id: 'bn-loc-plot', class: 'bn-map', viewBox: `0 0 ${PLOT_WIDTH} ${PLOT_HEIGHT}`,
    width: PLOT_WIDTH, height: PLOT_HEIGHT, role: 'img', 'aria-label': 'branch positions',
  });
  plot.append(svg('rect', { x: 0, y: 0, width: PLOT_WIDTH, height: PLOT_HEIGHT, class: 'bn-map-bg' }));
  if (!branches.length) return plot;
  const lats = branches.map((b) => b.lat);
  const lons = branches.map((b) => b.lon);
  const shrink = Math.max(0.1, Math.cos((((Math.min(...lats) + Math.max(...lats)) / 2) * Math.PI) / 180));
  const xs = lons.map((lon) => lon * shrink);
  // At least a degree either way, so one branch (or branches of one city) sits in the middle.
  const spanX = Math.max(1, Math.max(...xs) - Math.min(...xs));
  const spanY = Math.max(1, Math.max(...lats) - Math.min(...lats));
  const scale = Math.min((PLOT_WIDTH - 2 * PLOT_PAD) / spanX, (PLOT_HEIGHT - 2 * PLOT_PAD) / spanY);
  const midX = (Math.min(...xs) + Math.max(...xs)) / 2;
  const midY = (Math.min(...lats) + Math.max(...lats)) / 2;
  const px = (x) => PLOT_WIDTH / 2 + (x - midX) * scale;
  const py = (lat) => PLOT_HEIGHT / 2 - (lat - midY) * scale;
  branches.forEach((b, i) => {
    const x = px(xs[i]);
    const y = py(b.lat);
    plot.append(svg('g', { class: 'bn-map-branch', 'data-branch': b.branch },
      svg('title', {}, `${b.branch}${b.name ? ` (${b.name})` : ''}: ${b.lat}, ${b.lon}`),
      svg('circle', { cx: x.toFixed(1), cy: y.toFixed(1), r: 5, 'data-branch': b.branch }),
      // Labels on the right half point left, so that they stay inside the plot.
      x > PLOT_WIDTH / 2
        ? svg('text', { x: (x - 8).toFixed(1), y: (y + 4).toFixed(1), 'text-anchor': 'end' }, b.name || b.branch)
        : svg('text', { x: (x + 8).toFixed(1), y: (y + 4).toFixed(1) }, b.name || b.branch)));
  });
  const corner = (text, x, y, anchor) => svg('text', { x, y, 'text-anchor': anchor, class: 'bn-map-axis' }, text);
  const lat = (v) => `${Math.abs(v).toFixed(2)}°${v < 0 ? 'S' : 'N'}`;
  const lon = (v) => `${Math.abs(v).toFixed(2)}°${v < 0 ? 'W' : 'E'}`;
  plot.append(
    corner(lat(Math.max(...lats)), 4, 12, 'start'),
    corner(lat(Math.min(...lats)), 4, PLOT_HEIGHT - 4, 'start'),
    corner(`${lon(Math.min(...lons))} … ${lon(Math.max(...lons))}`, PLOT_WIDTH - 4, PLOT_HEIGHT - 4, 'end'));
  return plot;
}

/** A coordinate as the API takes it: a number when it reads as one, else the text (its 400 says why). */
function coordinate(text) {
  const t = text.trim();
  if (t === '') return null;
  return /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(t) ? Number(t) : t;
}

// ---- (7) the branches' locations

export function branchesSection() {
  const id = textInput('bn-loc-id', '0110-001', 14);
  const lat = textInput('bn-loc-lat', '39.9042', 10);
  const lon = textInput('bn-loc-lon', '116.4074', 10);
  const name = textInput('bn-loc-name', 'name (optional)', 18);
  const form = el('form', { class: 'form', id: 'bn-loc-form' },
    field('Branch', id), field('Latitude', lat), field('Longitude', lon), field('Name', name),
    el('button', { type: 'submit', id: 'bn-loc-save' }, 'Save'));
  const error = errorLine('bn-loc-error');
  const listBox = el('div', { id: 'bn-loc-list' });
  const pages = pager('bn-loc', (cursor, step) => load(cursor, step), 'branch', 'branches');
  let shownCursor = null;

  let asking = 0; // only the latest answer is drawn
  async function load(cursor, step) {
    const mine = ++asking;
    const answer = await fetchJson(`${API}/branches${query({ limit: DEFAULT_LIMIT, cursor })}`, error);
    if (mine !== asking || !answer) return;
    shownCursor = cursor;
    pages.shown(step, cursor, answer.next, answer.branches.length);
    listBox.replaceChildren(...(answer.branches.length
      ? [el('div', { class: 'bn-loc-view' },
        el('div', { class: 'bn-scroll' }, el('table', { id: 'bn-locations', class: 'grid' },
          el('thead', {}, el('tr', {}, ['Branch', 'Name', 'Latitude', 'Longitude', '', ''].map((h) => el('th', {}, h)))),
          el('tbody', {}, answer.branches.map(row)))),
        branchPlot(answer.branches)), pages.bar]
      : [el('p', { class: 'muted', id: 'bn-loc-empty' }, 'No branch has a location: travel is not checked.')]));
  }

  function row(b) {
    const edit = el('button', { type: 'button', class: 'bn-link', 'data-edit-branch': b.branch }, 'edit');
    edit.addEventListener('click', () => {
      id.value = b.branch;
      lat.value = String(b.lat);
      lon.value = String(b.lon);
      name.value = b.name || '';
      id.focus();
    });
    const remove = el('button', { type: 'button', class: 'bn-link', 'data-remove-branch': b.branch }, 'remove');
    remove.addEventListener('click', () => change('DELETE', b.branch));
    return el('tr', { 'data-branch': b.branch },
      el('td', { 'data-field': 'branch' }, b.branch),
      el('td', { 'data-field': 'name' }, b.name || '—'),
      el('td', { 'data-field': 'lat', class: 'num' }, String(b.lat)),
      el('td', { 'data-field': 'lon', class: 'num' }, String(b.lon)),
      el('td', {}, edit), el('td', {}, remove));
  }

  // Writes go through Casebook.send, which carries the console's token as every write does.
  async function change(method, branch, body) {
    const r = await window.Casebook.send(method, `${API}/branches/${encodeURIComponent(branch)}`, body);
    if (!r.ok) { showError(error, window.Casebook.problem(r)); return false; }
    showError(error, null);
    await load(shownCursor, 0);
    return true;
  }

  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const b = id.value.trim();
    if (!b) { showError(error, 'Enter a branch.'); return; }
    const body = { lat: coordinate(lat.value), lon: coordinate(lon.value) };
    if (name.value.trim()) body.name = name.value.trim();
    if (await change('PUT', b, body)) { id.value = ''; lat.value = ''; lon.value = ''; name.value = ''; }
  });

  load(null, 0);
  return el('section', { id: 'bn-loc-section' },
    el('h3', {}, 'Branches'),
    el('p', { class: 'muted' }, 'Where the bank\'s branches are (degrees, WGS84): readings at branches with a location are checked for impossible travel; '
      + 'a declaration replaces the branch\'s earlier one (GET/PUT/DELETE /api/banknotes/branches/{branch}).'),
    form, error, listBox);
}

// ---- (8) probable clones: a branch's day swept

function reading(n) {
  return el('span', { title: `${n.operation}, ${n.deviceKind}, ${n.denomination} ${n.currency}${n.edition == null ? '' : ` (${n.edition})`}` },
    `${n.time} · ${n.branch} · ${n.device}`);
}

function hoursText(h) {
  if (h == null) return '—';
  return h < 1 ? `${(h * 60).toFixed(1)} min` : `${h.toFixed(2)} h`;
}

function speedText(c, limits) {
  if (c.distanceKm == null) return '—';
  if (c.speedKmh == null) return 'no time between';
  const over = limits && limits.maxSpeedKmh ? ` (${(c.speedKmh / limits.maxSpeedKmh).toFixed(1)}× the ${limits.maxSpeedKmh} km/h limit)` : '';
  return `${c.speedKmh.toFixed(1)} km/h${over}`;
}

function serialLinks(serial) {
  const q = encodeURIComponent(serial);
  return [
    el('a', { href: `#/system/banknote?serial=${q}`, 'data-link': 'history', title: 'Where has this note been?' }, serial),
    ' ',
    el('a', { href: `#/system/banknote?dispute=${q}`, 'data-link': 'dispute', class: 'muted', title: 'Its dispute pack' }, 'dispute'),
  ];
}

function clonesTable(clones, limits) {
  const head = ['Serial', 'Reason', 'Earlier reading', 'Later reading', 'Distance', 'Time between', 'Speed'];
  return el('div', { class: 'bn-scroll' }, el('table', { id: 'bn-clones', class: 'grid' },
    el('thead', {}, el('tr', {}, head.map((h) => el('th', {}, h)))),
    el('tbody', {}, clones.map((c) => el('tr', {
      'data-serial': c.later.serial,
      'data-differs': c.differs.join(','),
      class: c.differs.includes('place') ? 'bn-travel' : '',
    },
    el('td', { 'data-field': 'serial' }, serialLinks(c.later.serial)),
    el('td', { 'data-field': 'reason' }, c.differs.map((d) => REASON[d] || d).join(', ')),
    el('td', { 'data-field': 'earlier' }, reading(c.earlier)),
    el('td', { 'data-field': 'later' }, reading(c.later)),
    el('td', { 'data-field': 'distanceKm', class: 'num' }, c.distanceKm == null ? '—' : `${c.distanceKm.toFixed(1)} km`),
    el('td', { 'data-field': 'hours', class: 'num' }, hoursText(c.hours)),
    el('td', { 'data-field': 'speedKmh', class: 'num' }, speedText(c, limits)))))));
}

export function clonesSection() {
  const branch = textInput('bn-sweep-branch', '0110-001', 14);
  const day = textInput('bn-sweep-day', 'YYYY-MM-DD', 11);
  const limit = limitInput('bn-sweep-limit');
  const form = el('form', { class: 'form', id: 'bn-sweep-form' },
    field('Branch', branch), field('Day', day), field('Clones per page', limit),
    el('button', { type: 'submit', id: 'bn-sweep-show' }, 'Sweep'));
  const error = errorLine('bn-sweep-error');
  const summary = el('p', { id: 'bn-sweep-summary', class: 'muted' });
  const body = el('div', { id: 'bn-sweep-body' });
  let asked = null;
  const pages = pager('bn-sweep', (cursor, step) => load(cursor, step), 'clone');

  let asking = 0; // only the latest question's answer is drawn
  async function load(cursor, step) {
    const mine = ++asking;
    const answer = await fetchJson(`${API}/clones${query({ branch: asked.branch, day: asked.day, limit: limit.value, cursor })}`, error);
    if (mine !== asking) return;
    if (!answer) { body.replaceChildren(); summary.textContent = ''; return; }
    const known = { maxSpeedKmh: answer.maxSpeedKmh, minDistanceKm: answer.minDistanceKm };
    pages.shown(step, cursor, answer.next, answer.clones.length);
    summary.textContent = `${answer.branch} on ${answer.day}: ${answer.serials} serial${answer.serials === 1 ? '' : 's'} read there, `
      + `${answer.checked} checked on this page against their histories`
      + `${answer.unlocated ? `, ${answer.unlocated} pair${answer.unlocated === 1 ? '' : 's'} not checked for travel (a branch without a location)` : ''}`
      + `${answer.truncated ? `, ${answer.truncated} histor${answer.truncated === 1 ? 'y' : 'ies'} too long to check before the day` : ''}`
      + `. Travel is flagged over ${known.maxSpeedKmh} km/h between branches at least ${known.minDistanceKm} km apart.`;
    body.replaceChildren(
      ...(answer.clones.length
        ? [clonesTable(answer.clones, known)]
        : [el('p', { class: 'muted', id: 'bn-sweep-none' }, answer.next ? 'No probable clone among these serials; more follow.' : 'No probable clone.')]),
      pages.bar);
    window.Casebook.dataDrawn(body);
  }

  form.addEventListener('submit', (e) => {
    e.preventDefault();
    asked = { branch: branch.value.trim(), day: day.value.trim() };
    if (!asked.branch) { showError(error, 'Enter a branch.'); return; }
    pages.reset();
    load(null, 0);
  });
  return {
    node: el('section', { id: 'bn-sweep-section' },
      el('h3', {}, 'Probable clones of a branch\'s day'),
      el('p', { class: 'muted' }, 'Every serial read at a branch on a day (the bank\'s zone) checked against its history: read at two branches further apart than a note travels in the time between, '
        + 'or with another denomination or edition (GET /api/banknotes/clones?branch=&day=). A page may list few clones and still have more to follow.'),
      form, error, summary, body),
    show(b, d) {
      branch.value = b;
      day.value = d;
      form.requestSubmit();
      form.scrollIntoView({ block: 'start' });
    },
  };
}
