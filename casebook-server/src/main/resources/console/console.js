// The Casebook console: reads only the server's own REST API (/api/health, /api/cluster,
// /api/openapi.json) and redraws every 2 s. No framework, no build step.
'use strict';

const REFRESH_MS = 2000;
const HISTORY = 150; // points kept in the requests chart (5 minutes at 2 s)

const state = {
  previous: null, // the last /api/cluster answer, for rates
  rates: [[], [], []], // time (s), reads/s, writes/s
  chart: null,
  openApi: null,
  health: null,
  cluster: null,
};

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  Object.entries(attrs || {}).forEach(([k, v]) => {
    if (k === 'class') e.className = v;
    else if (k === 'title') e.title = v;
    else e.setAttribute(k, v);
  });
  children.flat().forEach((c) => e.append(c instanceof Node ? c : document.createTextNode(String(c))));
  return e;
}

async function getJson(path) {
  const response = await fetch(path, { headers: { Accept: 'application/json' } });
  const body = await response.json();
  if (!response.ok && response.status !== 503) {
    throw new Error(`${path}: ${response.status} ${body.error || ''}`);
  }
  return body;
}

function showError(message) {
  const e = document.getElementById('error');
  e.textContent = message || '';
  e.hidden = !message;
}

function bytes(n) {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let i = 0;
  while (n >= 1024 && i < units.length - 1) { n /= 1024; i++; }
  return `${n.toFixed(i === 0 ? 0 : 1)} ${units[i]}`;
}

// ---- rates from successive cluster answers

function regionKey(r) { return r.name; }

function regionRates(previous, current) {
  const rates = new Map();
  if (!previous) return rates;
  const seconds = Math.max(0.001, (current.atMillis - previous.atMillis) / 1000);
  const before = new Map();
  previous.systems.forEach((s) => s.tables.forEach((t) => t.regions.forEach((r) => before.set(regionKey(r), r))));
  current.systems.forEach((s) => s.tables.forEach((t) => t.regions.forEach((r) => {
    const b = before.get(regionKey(r));
    if (!b) return;
    rates.set(regionKey(r), {
      reads: Math.max(0, r.readRequests - b.readRequests) / seconds,
      writes: Math.max(0, r.writeRequests - b.writeRequests) / seconds,
    });
  })));
  return rates;
}

// ---- overview

function drawCards(health, cluster, totalRate) {
  document.getElementById('hbase-mode').textContent = cluster.mode;
  document.getElementById('region-servers').textContent = String(cluster.regionServers.length);
  const status = document.getElementById('status');
  status.textContent = health.status;
  status.className = `status-${health.status}`;
  document.getElementById('request-rate').textContent = totalRate == null ? '…' : Math.round(totalRate).toLocaleString('en');
}

function drawSystems(health) {
  const body = document.querySelector('#systems tbody');
  body.replaceChildren(...health.systems.map((s) => el('tr', { 'data-system': s.name },
    el('td', {}, el('a', { href: `#/system/${s.name}` }, s.name)),
    el('td', { class: `status-${s.status}` }, s.status),
    el('td', {}, s.summary),
    el('td', {}, s.tables),
    el('td', {}, s.routes),
    el('td', {}, s.listeners.map((l) => `${l.name} ${l.protocol} :${l.port}`).join(', ') || '—'))));
}

function heatColour(rate, max) {
  if (!rate || max <= 0) return '#eef1f4';
  const t = Math.min(1, Math.log1p(rate) / Math.log1p(max));
  // pale yellow -> orange -> deep red
  const r = 255;
  const g = Math.round(235 - 190 * t);
  const b = Math.round(170 - 150 * t);
  return `rgb(${r - Math.round(60 * t * t)},${g},${b})`;
}

// Counted when every region had at most the server's sample of rows, else estimated from sizes.
function rowCount(rows, exact) {
  const n = exact ? rows.toLocaleString('en') : `≈ ${compact(rows)}`;
  return `${n} row${rows === 1 && exact ? '' : 's'}`;
}

function compact(n) {
  if (n < 1000) return String(n);
  const units = [['G', 1e9], ['M', 1e6], ['k', 1e3]];
  const [u, v] = units.find(([, value]) => n >= value);
  return `${(n / v).toFixed(n / v < 10 ? 1 : 0)}${u}`;
}

function heatRows(systems, rates, only) {
  let max = 0;
  rates.forEach((v) => { max = Math.max(max, v.reads + v.writes); });
  const out = [];
  systems.filter((s) => !only || s.name === only).forEach((s) => {
    if (!only) out.push(el('div', { class: 'heat-system' }, s.name));
    s.tables.forEach((t) => {
      const cells = t.regions.map((r) => {
        const rate = rates.get(regionKey(r));
        const total = rate ? rate.reads + rate.writes : 0;
        return el('span', {
          class: 'heat-cell',
          'data-region': r.name,
          style: `background:${heatColour(total, max)}`,
          title: `${t.name} region ${r.name}\nstart key: ${r.startKey || '(first)'}\n`
            + `${rate ? `${Math.round(rate.reads)} reads/s, ${Math.round(rate.writes)} writes/s\n` : ''}`
            + `files ${bytes(r.storeFileBytes)}, memstore ${bytes(r.memStoreBytes)}`
            + (r.rows == null ? '' : `\n${rowCount(r.rows, r.rowsExact)}`),
        });
      });
      const size = t.regions.reduce((a, r) => a + r.storeFileBytes + r.memStoreBytes, 0);
      const largest = t.regions.reduce((a, r) => Math.max(a, r.storeFileBytes + r.memStoreBytes), 0);
      const share = size > 0 && t.regions.length > 1 ? ` · largest region ${Math.round((100 * largest) / size)} %` : '';
      const tableAttrs = { class: 'heat-table', 'data-table': t.name };
      if (t.rows != null) tableAttrs['data-rows'] = `${t.rows}${t.rowsExact ? '' : '~'}`;
      out.push(el('div', tableAttrs,
        el('span', { class: 'label', title: `${t.description}\n${t.storage}` }, `${t.name} · ${t.regions.length} region${t.regions.length === 1 ? '' : 's'} · ${bytes(size)}${share}`
          + (t.rows == null ? '' : ` · ${rowCount(t.rows, t.rowsExact)}`)),
        el('div', { class: 'heat-row' }, cells)));
    });
  });
  return out;
}

function drawChart() {
  const target = document.getElementById('rate-chart');
  if (typeof uPlot === 'undefined') return;
  if (!state.chart) {
    state.chart = new uPlot({
      width: Math.max(300, target.clientWidth - 10),
      height: 200,
      series: [{}, { label: 'reads/s', stroke: '#1f6feb' }, { label: 'writes/s', stroke: '#d9480f' }],
      axes: [{}, { size: 60 }],
    }, state.rates, target);
  } else {
    state.chart.setData(state.rates);
  }
}

function recordRates(rates, atMillis) {
  let reads = 0;
  let writes = 0;
  rates.forEach((v) => { reads += v.reads; writes += v.writes; });
  state.rates[0].push(atMillis / 1000);
  state.rates[1].push(reads);
  state.rates[2].push(writes);
  if (state.rates[0].length > HISTORY) state.rates.forEach((a) => a.shift());
  return reads + writes;
}

// ---- a system's page (generic: its tables, regions and routes)

async function drawSystemPage(name) {
  const health = state.health;
  const system = health && health.systems.find((s) => s.name === name);
  document.getElementById('system-name').textContent = name;
  document.getElementById('system-summary').textContent = system ? system.summary : 'no such system';
  if (!state.openApi) state.openApi = await getJson('/api/openapi.json');
  const rows = [];
  Object.entries(state.openApi.paths).forEach(([path, item]) => {
    Object.entries(item).forEach(([method, op]) => {
      if (op.tags && op.tags.includes(name)) {
        rows.push(el('tr', {}, el('td', {}, el('code', {}, method.toUpperCase())), el('td', {}, el('code', {}, path)), el('td', {}, op.summary)));
      }
    });
  });
  document.querySelector('#system-routes tbody').replaceChildren(...rows);
}

// ---- what a system's own page gets (console/systems/<name>.js in its module)

// Every answer comes back as {status, ok, json, text, headers}; a network failure too (status 0),
// so a page shows it like any refusal.
async function send(method, path, body, contentType, extraHeaders) {
  const headers = { Accept: 'application/json', ...(extraHeaders || {}) };
  const token = sessionStorage.getItem('casebook.token');
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers['Content-Type'] = contentType || 'application/json';
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : (typeof body === 'string' ? body : JSON.stringify(body)),
    });
  } catch (e) {
    return { status: 0, ok: false, json: { error: `no answer: ${e.message}` }, text: '', headers: null };
  }
  const text = await response.text();
  let json = null;
  try { json = text ? JSON.parse(text) : null; } catch (e) { json = null; }
  return { status: response.status, ok: response.ok, json, text, headers: response.headers };
}

window.Casebook = {
  pages: {},
  /** A system's page: {render(root)}; called once each time its page is opened. */
  register(name, page) { this.pages[name] = page; },
  el,
  bytes,
  send,
  get: (path) => send('GET', path),
  /**
   * The page's parameters from its link (#/system/<name>?uid=…&from=…): a page given them asks its
   * API at once, so a link shows an answer. Read them in render().
   */
  params: {},
  /**
   * A page calls this with an element it drew its first answer from its API into; the time since
   * navigation lands in body[data-page-data-ms] (once per opened page), for people who look and for
   * bench console. A late answer to a page that was replaced meanwhile (its element no longer in
   * the document) does not stamp the page now shown.
   */
  dataDrawn(drawnInto) {
    if (!drawnInto || !drawnInto.isConnected) return;
    if (!document.body.dataset.pageDataMs) document.body.dataset.pageDataMs = String(Math.round(performance.now()));
  },
  /** The message of a failed answer: the JSON error body, naming the field when there is one. */
  problem(r) {
    if (r.json && r.json.error) return r.json.field ? `${r.json.field}: ${r.json.error}` : r.json.error;
    return `HTTP ${r.status}`;
  },
};

function loadScript(src) {
  return new Promise((resolve, reject) => {
    const s = document.createElement('script');
    s.src = src;
    s.onload = resolve;
    s.onerror = () => reject(new Error(`could not load ${src}`));
    document.body.append(s);
  });
}

let shownPage = null;

// A page is rendered again when its link changes (another system, or other parameters).
async function showOwnPage(name, query, hasPage) {
  const key = `${name}?${query}`;
  if (shownPage === key) return;
  shownPage = key;
  const root = document.getElementById('system-page');
  root.replaceChildren();
  delete document.body.dataset.pageDataMs;
  if (!hasPage) return;
  if (!window.Casebook.pages[name]) await loadScript(`/console/systems/${name}.js`);
  if (shownPage !== key) return; // the link changed while the script loaded: that render wins
  const page = window.Casebook.pages[name];
  window.Casebook.params = Object.fromEntries(new URLSearchParams(query));
  if (page) page.render(root);
}

// ---- refresh loop and routing

// #/ is the overview; #/system/<name>[?parameters] a system's page.
// Backups are listed from HBase's snapshots and sized from its files: every 30 s, not every 2.
const BACKUPS_EVERY_MS = 30000;
let backupsDrawnAt = 0;

async function drawBackups() {
  const list = await getJson('/api/backups');
  const body = document.querySelector('#backups tbody');
  if (list.backups.length === 0) {
    body.replaceChildren(el('tr', {}, el('td', { colspan: '6' }, 'No backup yet.')));
    return;
  }
  body.replaceChildren(...list.backups.map((b) => el('tr', { 'data-backup': b.name },
    el('td', {}, b.name),
    el('td', {}, b.created.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC')),
    el('td', {}, b.systems.join(', ')),
    el('td', {}, String(b.tables.length)),
    el('td', {}, b.bytes < 0 ? '—' : bytes(b.bytes)),
    el('td', {}, b.bytesFreedByDelete < 0 ? '—' : bytes(b.bytesFreedByDelete)))));
}

// The audit trail needs an admin's token: asked with the tab's token, every 10 s.
const AUDIT_EVERY_MS = 10000;
let auditDrawnAt = 0;
let auditRefusedToken = null; // the token (or '' for none) the trail last refused: not asked again

function auditMessage(text) {
  document.querySelector('#audit tbody').replaceChildren(el('tr', {}, el('td', { colspan: '7' }, text)));
}

async function drawAudit() {
  const params = new URLSearchParams({ limit: '50' });
  const who = document.getElementById('audit-who').value.trim();
  const system = document.getElementById('audit-system').value.trim();
  if (who) params.set('who', who);
  if (system) params.set('system', system);
  const token = sessionStorage.getItem('casebook.token') || '';
  if (auditRefusedToken === token) return;
  const r = await send('GET', `/api/audit?${params}`);
  if (r.status === 401 || r.status === 403) {
    auditRefusedToken = token;
    auditMessage('Admins only: give an admin token with the Token button.');
    return;
  }
  if (r.status === 404) {
    auditMessage('This server keeps no audit trail.');
    return;
  }
  if (!r.ok) {
    auditMessage(`Could not read the audit trail: ${(r.json && r.json.error) || r.status}`);
    return;
  }
  if (r.json.entries.length === 0) {
    auditMessage('Nothing recorded in the last 7 days.');
    return;
  }
  document.querySelector('#audit tbody').replaceChildren(...r.json.entries.map((e) => el('tr', {
    class: /^(4|5)\d\d$|DENIED|UNAUTHENTICATED|refused|failed/.test(e.outcome) ? 'refused' : '',
  },
  el('td', {}, e.time.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC')),
  el('td', {}, e.who),
  el('td', {}, e.system),
  el('td', {}, e.action),
  el('td', {}, el('code', {}, e.what)),
  el('td', {}, e.outcome),
  el('td', {}, e.remote))));
}

function route() {
  const hash = location.hash || '#/';
  const m = hash.match(/^#\/system\/([a-z0-9]+)(?:\?(.*))?$/);
  document.getElementById('overview').hidden = !!m;
  document.getElementById('system').hidden = !m;
  const base = hash.split('?')[0];
  document.querySelectorAll('#nav a').forEach((a) => a.classList.toggle('current', a.getAttribute('href') === base));
  return m ? { name: m[1], query: m[2] || '' } : null;
}

function drawNav(health) {
  const nav = document.getElementById('nav');
  const links = [el('a', { href: '#/' }, 'Overview')].concat(
    health.systems.map((s) => el('a', { href: `#/system/${s.name}` }, s.name)));
  if (nav.children.length !== links.length) nav.replaceChildren(...links);
}

async function refresh() {
  try {
    const [health, cluster] = await Promise.all([getJson('/api/health'), getJson('/api/cluster')]);
    state.health = health;
    const rates = regionRates(state.previous, cluster);
    const total = state.previous ? recordRates(rates, cluster.atMillis) : null;
    state.previous = cluster;
    drawNav(health);
    const system = route();
    drawCards(health, cluster, total);
    drawSystems(health);
    document.getElementById('heatmap').replaceChildren(...heatRows(cluster.systems, rates, null));
    if (system) {
      const entry = cluster.systems.find((x) => x.name === system.name);
      await showOwnPage(system.name, system.query, !!(entry && entry.page));
      await drawSystemPage(system.name);
      document.getElementById('system-tables').replaceChildren(...heatRows(cluster.systems, rates, system.name));
    } else {
      shownPage = null;
      drawChart();
      if (Date.now() - auditDrawnAt >= AUDIT_EVERY_MS) {
        auditDrawnAt = Date.now();
        drawAudit().catch((e) => auditMessage(`Could not read the audit trail: ${e.message}`));
      }
      if (Date.now() - backupsDrawnAt >= BACKUPS_EVERY_MS) {
        backupsDrawnAt = Date.now();
        drawBackups().catch((e) => {
          document.querySelector('#backups tbody').replaceChildren(
            el('tr', {}, el('td', { colspan: '6' }, `Could not list backups: ${e.message}`)));
        });
      }
    }
    showError(null);
    // Time from navigation to the first data drawn, for tests and people who look.
    if (!document.body.dataset.firstDataMs) document.body.dataset.firstDataMs = String(Math.round(performance.now()));
    document.body.dataset.refreshed = String(Number(document.body.dataset.refreshed || 0) + 1);
  } catch (e) {
    showError(`Could not refresh: ${e.message}`);
  }
}

document.getElementById('token').addEventListener('click', () => {
  const t = prompt('Token for writes (kept in this tab only; empty to forget it)',
    sessionStorage.getItem('casebook.token') || '');
  if (t === null) return;
  if (t) sessionStorage.setItem('casebook.token', t); else sessionStorage.removeItem('casebook.token');
  auditDrawnAt = 0;
});
['audit-who', 'audit-system'].forEach((id) => document.getElementById(id).addEventListener('change', () => {
  auditDrawnAt = 0;
  refresh();
}));
window.addEventListener('hashchange', refresh);
refresh();
setInterval(refresh, REFRESH_MS);
