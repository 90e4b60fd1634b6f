// The trails page of the Casebook console: a user's trail over a day range as a timeline (one lane
// per behaviour) and a table, a user's latest records, the seed-000 task (users who did all
// four behaviours between two dates), conditions across behaviours and on values (which of
// a list of users match "login THEN play WITHIN 2h" and the like), and the behaviours the
// registry knows (the four built-ins and those declared since, with their fields). A link
// #/system/trails?uid=…&from=…&to=… opens a trail. Calls only /api/trails/behaviours,
// /api/trails/{uid}, /api/trails/{uid}/latest, /api/trails/query and /api/trails/match.
'use strict';

(() => {
  const C = window.Casebook;
  const el = C.el;

  /** The four built-in behaviours (Behaviour.label()), in their row-key order, with a lane colour. */
  const BUILT_INS = [
    { name: 'login', colour: '#1f6feb' },
    { name: 'play', colour: '#2e7d32' },
    { name: 'visit', colour: '#8e44ad' },
    { name: 'order', colour: '#d9480f' },
  ];
  /** Lane colours of declared behaviours, by id, in turn. */
  const DECLARED_COLOURS = ['#b08800', '#0b7285', '#c2255c', '#5c940d', '#364fc7', '#e8590c', '#862e9c', '#2b8a3e'];
  /**
   * Every behaviour the registry knows, by id: the built-ins until GET /api/trails/behaviours
   * answers (a page drawn before it still shows them), then the declared ones after them.
   */
  let behaviours = BUILT_INS.map((b) => ({ ...b, builtIn: true, fields: [] }));
  const DAY_MS = 86400000;
  /** Users per request of the active-users task: the module's own chunk for its direct query. */
  const ACTIVE_CHUNK = 500;
  /** Users per request of a condition: the most POST /api/trails/match takes. */
  const MATCH_CHUNK = 10000;

  const STYLE = `
#trails-page .trails-timeline { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: .5rem .8rem .3rem; margin: .5rem 0; }
#trails-page .trails-lane { display: grid; grid-template-columns: 5rem 1fr; align-items: center; height: 26px; }
#trails-page .trails-lane-name { font-size: .8rem; color: var(--muted); }
#trails-page .trails-track { position: relative; height: 22px; border-bottom: 1px solid var(--line); }
#trails-page .trails-day { position: absolute; top: 0; bottom: 0; border-left: 1px dashed #dde1e6; }
#trails-page .trail-mark { position: absolute; top: 4px; width: 8px; height: 14px; margin-left: -4px; border-radius: 2px; opacity: .85; }
#trails-page .trail-mark:hover { opacity: 1; outline: 2px solid var(--ink); }
#trails-page .trails-axis { position: relative; height: 1.2rem; margin-left: 5rem; font-size: .72rem; color: var(--muted); }
#trails-page .trails-axis span { position: absolute; white-space: nowrap; transform: translateX(-50%); }
#trails-page textarea { font: inherit; padding: .25rem .4rem; border: 1px solid #c9ced6; border-radius: 4px; min-width: 14rem; min-height: 4.5rem; }
#trails-page .trails-types-field { display: flex; flex-direction: column; font-size: .8rem; color: var(--muted); gap: .15rem; }
#trails-page .trails-types { display: flex; gap: .6rem; align-items: center; min-height: 1.9rem; font-size: .9rem; }
#trails-page .form .trails-types label { flex-direction: row; align-items: center; gap: .2rem; color: var(--ink); font-size: .9rem; }
#trails-page .form .trails-types input { min-width: 0; }
#trails-page .trails-scroll { max-height: 26rem; overflow: auto; border: 1px solid var(--line); }
#trails-page .trails-scroll table.grid { border: 0; }
#trails-page .trails-scroll thead th { position: sticky; top: 0; }
#trails-page #trails-latest-more { font: inherit; padding: .25rem .8rem; border-radius: 4px; border: 1px solid var(--accent); background: #fff; color: var(--accent); cursor: pointer; }
#trails-page td.trails-details { font-family: ui-monospace, monospace; font-size: .8rem; }
`;

  function utcDay(ms) { return new Date(ms).toISOString().slice(0, 10); }

  function todayMinus(days) { return utcDay(Date.now() - days * DAY_MS); }

  /**
   * The event's own fields: everything but uid, type and ts, in the answer's order; its extra
   * fields (those its behaviour does not declare) last, as extra.NAME.
   */
  function fieldsOf(event) {
    const own = Object.entries(event)
      .filter(([k]) => k !== 'uid' && k !== 'type' && k !== 'ts' && k !== 'extra');
    const extra = Object.entries(event.extra || {}).map(([k, v]) => [`extra.${k}`, v]);
    return own.concat(extra);
  }

  function details(event) {
    return fieldsOf(event).map(([k, v]) => `${k}=${v}`).join(', ');
  }

  function colourOf(type) {
    const b = behaviours.find((x) => x.name === type);
    return b ? b.colour : '#6b7380';
  }

  /** Reads the registry's behaviours; the built-ins keep their colours, declared ones get theirs. */
  async function loadBehaviours() {
    const r = await C.get('/api/trails/behaviours');
    if (!r.ok) throw new Error(C.problem(r));
    behaviours = r.json.behaviours.map((b) => {
      const builtIn = BUILT_INS.find((x) => x.name === b.name);
      const colour = builtIn ? builtIn.colour : DECLARED_COLOURS[b.id % DECLARED_COLOURS.length];
      return { name: b.name, id: b.id, builtIn: b.builtIn, fields: b.fields, colour };
    });
    return behaviours;
  }

  function input(id, value, attrs) {
    return el('input', Object.assign({ id, value: value == null ? '' : value, autocomplete: 'off' }, attrs || {}));
  }

  function field(text, control) { return el('label', {}, text, control); }

  /** An area for one section's answer: an error line and the result, with its state for tests. */
  function outcome(prefix) {
    const error = el('p', { id: `${prefix}-error`, class: 'error' });
    error.hidden = true;
    const status = el('p', { id: `${prefix}-status`, class: 'muted' });
    const result = el('div', { id: `${prefix}-result`, class: 'result', 'data-state': 'idle' });
    let sequence = 0;
    return {
      nodes: [error, status, result],
      status,
      result,
      /** Starts a request; answers of an older one are then ignored (see current()). */
      begin(message) {
        sequence += 1;
        error.hidden = true;
        error.textContent = '';
        status.textContent = message;
        result.replaceChildren();
        result.dataset.state = 'loading';
        return sequence;
      },
      current(ticket) { return ticket === sequence; },
      fail(message) {
        error.textContent = message;
        error.hidden = false;
        status.textContent = '';
        result.dataset.state = 'error';
      },
      done(message, ...children) {
        status.textContent = message;
        result.replaceChildren(...children);
        result.dataset.state = 'done';
      },
    };
  }

  /** A table of events in a box of its own height, so a long trail leaves the page usable. */
  function eventTable(id, events, numbered) {
    return el('div', { class: 'trails-scroll' }, el('table', { id, class: 'grid' },
      el('thead', {}, el('tr', {}, numbered ? el('th', {}, '#') : [], el('th', {}, 'Time (UTC)'),
        el('th', {}, 'Behaviour'), el('th', {}, 'Details'))),
      el('tbody', {}, events.map((e, i) => eventRow(e, numbered ? i + 1 : 0)))));
  }

  function eventRow(e, number) {
    return el('tr', { 'data-type': e.type, 'data-ts': e.ts },
      number ? el('td', {}, number) : [],
      el('td', {}, e.ts),
      el('td', {}, el('span', { style: `color:${colourOf(e.type)}` }, e.type)),
      el('td', { class: 'trails-details' }, details(e)));
  }

  // ---- the trail: a timeline and a table

  /** Day ticks: every day on short ranges, fewer labels (about a dozen) on long ones. */
  function dayTicks(startMs, days) {
    const labelEvery = Math.max(1, Math.ceil(days / 12));
    const ticks = [];
    for (let d = 0; d <= days; d++) {
      const labelled = d % labelEvery === 0 && d < days;
      if (labelled || days <= 62) ticks.push({ at: d / days, label: labelled ? utcDay(startMs + d * DAY_MS) : null });
    }
    return ticks;
  }

  function timeline(events, lanes, startMs, days) {
    const span = days * DAY_MS;
    const ticks = dayTicks(startMs, days);
    const pct = (x) => `${(x * 100).toFixed(4)}%`;
    const rows = lanes.map((lane) => el('div', { class: 'trails-lane', 'data-lane': lane },
      el('span', { class: 'trails-lane-name' }, lane),
      el('div', { class: 'trails-track' },
        ticks.map((t) => el('span', { class: 'trails-day', style: `left:${pct(t.at)}` })),
        events.filter((e) => e.type === lane).map((e) => {
          const at = Math.min(1, Math.max(0, (Date.parse(e.ts) - startMs) / span));
          const lines = [`${e.type} at ${e.ts}`].concat(fieldsOf(e).map(([k, v]) => `${k}: ${v}`));
          return el('span', {
            class: 'trail-mark',
            'data-type': e.type,
            'data-ts': e.ts,
            style: `left:${pct(at)};background:${colourOf(e.type)}`,
            title: lines.join('\n'),
          });
        }))));
    const axis = el('div', { class: 'trails-axis' },
      ticks.filter((t) => t.label).map((t) => el('span', { style: `left:${pct(t.at + 0.5 / days)}` }, t.label)));
    return el('div', { id: 'trails-timeline', class: 'trails-timeline' }, rows, axis);
  }

  function trailSection(share) {
    const uid = input('trails-uid', '', { placeholder: 'user id' });
    const from = input('trails-from', todayMinus(6), { placeholder: 'YYYY-MM-DD', size: '11' });
    const to = input('trails-to', todayMinus(0), { placeholder: 'YYYY-MM-DD', size: '11' });
    let boxes = [];
    const typesBox = el('span', { class: 'trails-types', id: 'trails-types' });
    /** One box per behaviour the registry knows, all ticked. */
    function drawBoxes() {
      boxes = behaviours.map((b) => el('input', { type: 'checkbox', id: `trails-type-${b.name}`, value: b.name }));
      boxes.forEach((b) => { b.checked = true; });
      typesBox.replaceChildren(...boxes.map((b) => el('label', {}, b, b.value)));
    }
    drawBoxes();
    share.behavioursLoaded.push(drawBoxes);
    const button = el('button', { id: 'trails-show', type: 'submit' }, 'Show trail');
    const out = outcome('trails-trail');
    const form = el('form', { id: 'trails-trail-form', class: 'form', novalidate: '' },
      field('User', uid), field('From (UTC day)', from), field('To (UTC day)', to),
      el('div', { class: 'trails-types-field' }, 'Behaviours', typesBox),
      button);

    async function show() {
      const types = boxes.filter((b) => b.checked).map((b) => b.value);
      const asked = types.length ? types : behaviours.map((b) => b.name);
      const ticket = out.begin('Reading…');
      const params = new URLSearchParams({ from: from.value });
      if (to.value.trim()) params.set('to', to.value);
      if (types.length && types.length < boxes.length) params.set('types', types.join(','));
      try {
        const r = await C.get(`/api/trails/${encodeURIComponent(uid.value)}?${params}`);
        if (!out.current(ticket)) return;
        if (!r.ok) { out.fail(C.problem(r)); return; }
        // The answer came back, so the dates are valid YYYY-MM-DD (the API trims them).
        const startMs = Date.parse(`${from.value.trim()}T00:00:00Z`);
        const endMs = Date.parse(`${(to.value.trim() || from.value.trim())}T00:00:00Z`) + DAY_MS;
        const days = Math.round((endMs - startMs) / DAY_MS);
        const events = r.json.events;
        // A behaviour declared after the page read the registry still gets its lane.
        const lanes = asked.concat([...new Set(events.map((e) => e.type))].filter((t) => !asked.includes(t)));
        const counts = lanes.map((l) => `${events.filter((e) => e.type === l).length} ${l}`).join(', ');
        out.done(`${events.length} event${events.length === 1 ? '' : 's'} of ${r.json.uid} (${counts}); hover a mark for its details.`,
          timeline(events, lanes, startMs, days),
          events.length ? eventTable('trails-events', events, false) : el('p', { id: 'trails-events-none', class: 'muted' }, 'No events in this range.'));
        C.dataDrawn(out.result);
      } catch (e) {
        if (out.current(ticket)) out.fail(`Could not read the trail: ${e.message}`);
      }
    }

    form.addEventListener('submit', (ev) => { ev.preventDefault(); show(); });
    share.showTrail = (user, fromDay, toDay) => {
      uid.value = user;
      from.value = fromDay;
      to.value = toDay;
      boxes.forEach((b) => { b.checked = true; });
      show();
      form.scrollIntoView({ behavior: 'smooth' });
    };
    return [el('h3', {}, 'Trail'), form, ...out.nodes];
  }

  // ---- the latest records, newest first, paged

  function latestSection() {
    const uid = input('trails-latest-uid', '', { placeholder: 'user id' });
    const limit = input('trails-latest-limit', '10', { inputmode: 'numeric', title: '1 to 1000', style: 'min-width:5rem;width:6rem' });
    const layout = el('select', { id: 'trails-latest-layout' },
      el('option', { value: 'wide' }, 'wide (a row per user)'), el('option', { value: 'tall' }, 'tall (a row per record)'));
    const out = outcome('trails-latest');
    const form = el('form', { id: 'trails-latest-form', class: 'form', novalidate: '' },
      field('User', uid), field('Latest N', limit), field('History table', layout),
      el('button', { id: 'trails-latest-show', type: 'submit' }, 'Show latest'));
    let shown = []; // the rows on screen, for "more"
    let asked = null; // the question the shown rows answer

    async function load(cursor) {
      const q = cursor ? asked : { uid: uid.value, limit: limit.value, layout: layout.value };
      const ticket = out.begin(cursor ? 'Reading the next page…' : 'Reading…');
      const params = new URLSearchParams({ limit: q.limit, layout: q.layout });
      if (cursor) params.set('cursor', cursor);
      try {
        const r = await C.get(`/api/trails/${encodeURIComponent(q.uid)}/latest?${params}`);
        if (!out.current(ticket)) return;
        if (!r.ok) { out.fail(C.problem(r)); return; }
        asked = q;
        shown = (cursor ? shown : []).concat(r.json.events);
        const more = el('button', { id: 'trails-latest-more', type: 'button', 'data-cursor': r.json.next || '' }, `Next ${q.limit}`);
        more.addEventListener('click', () => load(r.json.next));
        out.done(`${shown.length} latest record${shown.length === 1 ? '' : 's'} of ${r.json.uid}, newest first${r.json.next ? '' : ' (no more)'}.`,
          shown.length ? eventTable('trails-latest-table', shown, true) : el('p', { class: 'muted' }, 'No records.'),
          r.json.next ? el('p', {}, more) : []);
      } catch (e) {
        if (out.current(ticket)) out.fail(`Could not read the latest records: ${e.message}`);
      }
    }

    form.addEventListener('submit', (ev) => { ev.preventDefault(); load(null); });
    return [el('h3', {}, 'Latest records'), form, ...out.nodes];
  }

  // ---- the seed-000 task: users who did all four behaviours in a day range

  function activeSection(share) {
    const users = el('textarea', { id: 'trails-active-users', placeholder: 'one user id per line', spellcheck: 'false' });
    const from = input('trails-active-from', todayMinus(6), { placeholder: 'YYYY-MM-DD', size: '11' });
    const to = input('trails-active-to', todayMinus(0), { placeholder: 'YYYY-MM-DD', size: '11' });
    const out = outcome('trails-active');
    const form = el('form', { id: 'trails-active-form', class: 'form', novalidate: '' },
      field('Users (one per line)', users), field('From (UTC day)', from), field('To (UTC day)', to),
      el('button', { id: 'trails-active-run', type: 'submit' }, 'Find active users'));

    async function run() {
      // One id per line: ids may hold commas and spaces, never a line break.
      const list = users.value.split('\n').map((u) => u.trim()).filter((u) => u);
      const ticket = out.begin('Reading…');
      const trails = [];
      try {
        // At least one request, so an empty list gets the API's own answer.
        for (let i = 0; i === 0 || i < list.length; i += ACTIVE_CHUNK) {
          const body = { users: list.slice(i, i + ACTIVE_CHUNK), from: from.value };
          if (to.value.trim()) body.to = to.value;
          const r = await C.send('POST', '/api/trails/query', body);
          if (!out.current(ticket)) return;
          if (!r.ok) { out.fail(C.problem(r)); return; }
          trails.push(...r.json.trails);
          out.status.textContent = `Read ${trails.length} of ${list.length} users…`;
        }
      } catch (e) {
        if (out.current(ticket)) out.fail(`Could not run the task: ${e.message}`);
        return;
      }
      const toDay = to.value.trim() || from.value.trim();
      const fromDay = from.value.trim();
      const counted = trails.map((t) => ({
        uid: t.uid,
        events: t.events,
        counts: BUILT_INS.map((b) => t.events.filter((e) => e.type === b.name).length),
      }));
      const active = counted.filter((t) => t.counts.every((n) => n > 0));
      const others = counted.filter((t) => !t.counts.every((n) => n > 0));
      const rows = active.map((t) => {
        const link = el('a', { href: '#', class: 'trails-active-uid', title: 'Show this trail above' }, t.uid);
        link.addEventListener('click', (ev) => { ev.preventDefault(); share.showTrail(t.uid, fromDay, toDay); });
        return el('tr', { 'data-uid': t.uid },
          el('td', {}, link),
          el('td', {}, t.events.length),
          t.counts.map((n, i) => el('td', { 'data-type': BUILT_INS[i].name }, n)),
          el('td', {}, t.events[0].ts),
          el('td', {}, t.events[t.events.length - 1].ts));
      });
      const table = el('div', { class: 'trails-scroll' }, el('table', { id: 'trails-active-table', class: 'grid' },
        el('thead', {}, el('tr', {}, el('th', {}, 'User'), el('th', {}, 'Events'),
          BUILT_INS.map((b) => el('th', {}, b.name)), el('th', {}, 'First'), el('th', {}, 'Last'))),
        el('tbody', {}, rows)));
      const missing = others.slice(0, 20).map((t) => {
        const did = BUILT_INS.filter((b, i) => t.counts[i] > 0).map((b) => b.name);
        return `${t.uid} (${did.length ? did.join(', ') : 'nothing'})`;
      });
      out.done(`${active.length} of ${counted.length} users did all four behaviours (${BUILT_INS.map((b) => b.name).join(', ')}) between ${fromDay} and ${toDay}.`,
        table,
        others.length ? el('p', { id: 'trails-active-others', class: 'muted' },
          `Not active: ${missing.join('; ')}${others.length > missing.length ? `; and ${others.length - missing.length} more` : ''}`) : []);
    }

    form.addEventListener('submit', (ev) => { ev.preventDefault(); run(); });
    return [el('h3', {}, 'Active users (seed-000 task)'),
      el('p', { class: 'muted' }, 'Users who did all four behaviours between two days, read with POST /api/trails/query in chunks of 500 users.'),
      form, ...out.nodes];
  }

  // ---- conditions across behaviours and on values (seed 000 §3.2.1)

  function matchSection(share) {
    const query = input('trails-match-query', 'login THEN play WITHIN 2h',
      { placeholder: "play AND order WITHIN 1d WHERE order.price > 10", size: '48', spellcheck: 'false' });
    const users = el('textarea', { id: 'trails-match-users', placeholder: 'one user id per line', spellcheck: 'false' });
    const from = input('trails-match-from', todayMinus(6), { placeholder: 'YYYY-MM-DD', size: '11' });
    const to = input('trails-match-to', todayMinus(0), { placeholder: 'YYYY-MM-DD', size: '11' });
    const out = outcome('trails-match');
    const form = el('form', { id: 'trails-match-form', class: 'form', novalidate: '' },
      field('Condition', query), field('Users (one per line)', users),
      field('From (UTC day)', from), field('To (UTC day)', to),
      el('button', { id: 'trails-match-run', type: 'submit' }, 'Match'));

    async function run() {
      const list = users.value.split('\n').map((u) => u.trim()).filter((u) => u);
      const ticket = out.begin('Matching…');
      const matched = [];
      let tested = 0;
      try {
        // At least one request, so an empty list or a bad condition gets the API's own answer.
        for (let i = 0; i === 0 || i < list.length; i += MATCH_CHUNK) {
          const body = { query: query.value, users: list.slice(i, i + MATCH_CHUNK), from: from.value };
          if (to.value.trim()) body.to = to.value;
          const r = await C.send('POST', '/api/trails/match', body);
          if (!out.current(ticket)) return;
          if (!r.ok) { out.fail(C.problem(r)); return; }
          matched.push(...r.json.matched);
          tested += r.json.users;
        }
      } catch (e) {
        if (out.current(ticket)) out.fail(`Could not match: ${e.message}`);
        return;
      }
      const fromDay = from.value.trim();
      const toDay = to.value.trim() || fromDay;
      const rows = matched.map((uid) => {
        const link = el('a', { href: '#', class: 'trails-match-uid', title: 'Show this trail above' }, uid);
        link.addEventListener('click', (ev) => { ev.preventDefault(); share.showTrail(uid, fromDay, toDay); });
        return el('tr', { 'data-uid': uid }, el('td', {}, link));
      });
      out.done(`${matched.length} of ${tested} users match ${query.value.trim()} between ${fromDay} and ${toDay}.`,
        el('div', { class: 'trails-scroll' }, el('table', { id: 'trails-match-table', class: 'grid' },
          el('thead', {}, el('tr', {}, el('th', {}, 'User'))), el('tbody', {}, rows))));
    }

    form.addEventListener('submit', (ev) => { ev.preventDefault(); run(); });
    return [el('h3', {}, 'Conditions across behaviours'),
      el('p', { class: 'muted' }, "Behaviours (login, play, visit, order, and any declared below) joined by AND, OR, NOT and THEN (one after the other), "
        + "WITHIN 30s/15m/2h/1d between the matched events, and WHERE tests on fields, e.g. "
        + "play WHERE play.channel = 'news' AND play.duration >= 600. Read with POST /api/trails/match."),
      form, ...out.nodes];
  }

  // ---- the behaviours the registry knows

  function behavioursSection(share) {
    const out = outcome('trails-behaviours');
    function draw() {
      const rows = behaviours.map((b) => el('tr', { 'data-behaviour': b.name },
        el('td', {}, el('span', { style: `color:${b.colour}` }, b.name)),
        el('td', { class: 'num' }, b.id),
        el('td', {}, b.builtIn ? 'built in' : 'declared'),
        el('td', {}, b.fields.map((f) => `${f.name} (${f.kind.toLowerCase()})`).join(', '))));
      out.done(`${behaviours.length} behaviours: ${behaviours.filter((b) => b.builtIn).length} built in, `
        + `${behaviours.filter((b) => !b.builtIn).length} declared (PUT /api/trails/behaviours/{name}, or trails behaviour declare).`,
        el('table', { id: 'trails-behaviours-table', class: 'grid' },
          el('thead', {}, el('tr', {}, el('th', {}, 'Behaviour'), el('th', {}, 'Id'), el('th', {}, 'Kind'), el('th', {}, 'Fields'))),
          el('tbody', {}, rows)));
    }
    const ticket = out.begin('Reading the registry…');
    loadBehaviours().then(() => {
      if (!out.current(ticket)) return;
      draw();
      share.behavioursLoaded.forEach((f) => f());
      C.dataDrawn(out.result);
    }, (e) => { if (out.current(ticket)) out.fail(`Could not read the behaviours: ${e.message}`); });
    return [el('h3', {}, 'Behaviours'),
      el('p', { class: 'muted' }, 'The four built-ins and the behaviours declared since, with their fields; fields a line does not declare are kept too, as extra.NAME.'),
      ...out.nodes];
  }

  C.register('trails', {
    render(root) {
      const share = { behavioursLoaded: [] };
      root.replaceChildren(el('div', { id: 'trails-page' },
        el('style', {}, STYLE),
        trailSection(share),
        latestSection(),
        activeSection(share),
        matchSection(share),
        behavioursSection(share)));
      // A link #/system/trails?uid=…&from=…&to=… shows that trail at once.
      const p = C.params;
      if (p.uid) share.showTrail(p.uid, p.from || todayMinus(6), p.to || p.from || todayMinus(0));
    },
  });
})();
