// The archive's console page: start an import of a directory on the server and follow it, the
// imports with their reports (phases as bars, records/s over the imports as a chart), the latest
// seed 001 §3.2 experiment (bench archive: import time vs users, one line per case), and a user
// with profile, followers, friends and statuses (paged). Only /api/archive/ routes.
'use strict';

(() => {
  const { el } = Casebook;
  const enc = encodeURIComponent;

  function phaseBars(phases) {
    const entries = Object.entries(phases || {});
    const max = Math.max(0.001, ...entries.map(([, s]) => s));
    return el('div', { class: 'archive-phases' }, entries.map(([name, s]) => el('div', { class: 'archive-phase', 'data-phase': name },
      el('span', { class: 'muted' }, name),
      el('span', { class: 'archive-bar', style: `width:${Math.max(2, Math.round(240 * s / max))}px` }),
      el('span', {}, `${s.toFixed(2)} s`))));
  }

  Casebook.register('archive', {
    render(root) {
      const message = el('p', { id: 'archive-message', class: 'result' });
      const say = (text, isError) => { message.textContent = text || ''; message.className = isError ? 'error' : 'result'; };
      const input = el('input', { id: 'archive-input', placeholder: 'directory on the server', size: '40' });
      const mode = el('select', { id: 'archive-mode' }, el('option', { value: 'bulkload' }, 'bulk load (MapReduce → HFiles)'), el('option', { value: 'put' }, 'put path'));
      const badRecords = el('select', { id: 'archive-bad-records' }, el('option', { value: 'quarantine-file' }, 'quarantine the whole file'), el('option', { value: 'salvage' }, 'salvage: load good records, set bad ones aside'));
      const importsBody = el('tbody', { id: 'archive-imports' });
      const report = el('div', { id: 'archive-report' });
      const chart = el('div', { id: 'archive-chart', class: 'chart' });
      const uid = el('input', { id: 'archive-uid', placeholder: 'user id' });
      const profile = el('div', { id: 'archive-user' });
      const statusesBody = el('tbody', { id: 'archive-statuses' });
      const more = el('button', { id: 'archive-more', type: 'button', hidden: '' }, 'Older statuses');
      const experiment = el('div', { id: 'archive-experiment' });
      const experimentChart = el('div', { id: 'archive-experiment-chart', class: 'chart' });
      let next = null;
      let plot = null;
      let experimentPlot = null;

      // Import time vs users, one series per case; uPlot wants one x array, so a case without a
      // run at some size has a gap there.
      async function experiments() {
        const r = await Casebook.get('/api/archive/experiments?limit=1');
        if (!r.ok) { experiment.replaceChildren(el('p', { class: 'error' }, Casebook.problem(r))); return; }
        const latest = r.json.experiments[0];
        if (!latest) {
          experiment.replaceChildren(el('p', { class: 'muted', id: 'archive-experiment-none' },
            'No experiment recorded yet: ./casebook bench archive runs one and keeps its results here.'));
          return;
        }
        const res = latest.results;
        const users = [...new Set(res.runs.map((run) => run.users))].sort((a, b) => a - b);
        const cases = [...new Set(res.runs.map((run) => run.case))].sort();
        const data = [users, ...cases.map((c) => users.map((u) => {
          const run = res.runs.find((x) => x.case === c && x.users === u);
          return run ? run.seconds : null;
        }))];
        const colours = ['#d9480f', '#7048e8', '#1f6feb'];
        const names = cases.map((c) => {
          const run = res.runs.find((x) => x.case === c);
          return `case ${c}: ${run.caseName}`;
        });
        const cmp = res.bulkloadVsPut;
        const bad = res.plantedBadFiles;
        experiment.replaceChildren(el('p', { id: 'archive-experiment-summary' },
          `Recorded ${latest.recordedAt.replace('T', ' ').replace('Z', ' UTC')}: ${res.runs.length} runs over `
          + `${users.map((u) => u.toLocaleString('en')).join(', ')} users, ${res.regions} regions. `
          + (cmp ? `Bulk load ${Math.round(cmp.bulkloadRecordsPerSecond).toLocaleString('en')} records/s, `
            + `put ${Math.round(cmp.putRecordsPerSecond).toLocaleString('en')} records/s (${cmp.speedup.toFixed(2)}×). ` : '')
          + (bad ? `Planted bad files: ${bad.quarantined} of ${bad.files} quarantined, ${bad.usersLoaded} of ${bad.usersExpected} users loaded.` : '')));
        if (typeof uPlot === 'undefined') return;
        const opts = { width: 520, height: 200, scales: { x: { time: false } },
          axes: [{ label: 'users' }, { label: 'seconds', size: 60 }],
          series: [{ label: 'users' }, ...names.map((n, i) => ({ label: n, stroke: colours[i % colours.length], points: { size: 6 } }))] };
        if (experimentPlot) experimentPlot.destroy();
        experimentPlot = new uPlot(opts, data, experimentChart);
        experimentChart.dataset.points = String(res.runs.length);
      }

      function showReport(job) {
        const r = job.report;
        if (!r) { report.replaceChildren(el('p', { class: job.error ? 'error' : 'muted' }, job.error || job.state)); return; }
        report.replaceChildren(
          el('p', { id: 'archive-report-summary' }, `${job.id}: ${r.users.toLocaleString('en')} users, `
            + `${r.statuses.toLocaleString('en')} statuses, ${r.filesLoaded} files loaded, ${r.filesSkipped} quarantined, `
            + `${r.recordsPerSecond.toLocaleString('en')} records/s in ${r.seconds.toFixed(1)} s (${r.mode}, ${r.regions} regions)`),
          salvageSummary(r),
          phaseBars(r.phaseSeconds),
          r.skipped.length ? el('ul', {}, r.skipped.map((s) => el('li', {}, `${s.file}: ${s.reason}`))) : '',
          (r.salvaged || []).length ? el('ul', { id: 'archive-salvaged' }, r.salvaged.map((s) => el('li', {},
            `${s.file}: ${s.recordsSetAside.toLocaleString('en')} set aside (${reasons(s.byReason)}), see ${s.rejectsFile}`))) : '');
      }

      // Reports of imports made before salvage existed have no such counts.
      function salvageSummary(r) {
        if (r.recordsSetAside === undefined) return '';
        return el('p', { id: 'archive-report-salvage' }, `bad records: ${r.badRecords}; ${r.recordsLoaded.toLocaleString('en')} records loaded, `
          + `${r.recordsSetAside.toLocaleString('en')} set aside${r.recordsSetAside ? ` (${reasons(r.setAsideByReason)})` : ''}, `
          + `${r.filesSalvaged} files salvaged, ${r.filesSkipped} quarantined whole`);
      }

      function reasons(byReason) {
        return Object.entries(byReason).map(([k, n]) => `${k} ${n.toLocaleString('en')}`).join(', ');
      }

      async function imports() {
        const r = await Casebook.get('/api/archive/imports?limit=50');
        if (!r.ok) { say(Casebook.problem(r), true); return; }
        importsBody.replaceChildren(...r.json.imports.map((j) => {
          const row = el('tr', { 'data-import': j.id, 'data-state': j.state },
            el('td', {}, el('a', { href: '#' }, j.id)), el('td', {}, j.state), el('td', {}, j.mode),
            el('td', {}, j.startedAt || ''), el('td', {}, j.report ? j.report.statuses.toLocaleString('en') : ''),
            el('td', {}, j.report ? j.report.recordsPerSecond.toLocaleString('en') : ''));
          row.querySelector('a').addEventListener('click', (e) => { e.preventDefault(); showReport(j); });
          return row;
        }));
        const done = r.json.imports.filter((j) => j.report).reverse();
        if (done.length && typeof uPlot !== 'undefined') {
          const data = [done.map((_, i) => i + 1), done.map((j) => j.report.recordsPerSecond)];
          if (!plot) {
            plot = new uPlot({ width: 520, height: 160, scales: { x: { time: false } },
              series: [{ label: 'import' }, { label: 'records/s', stroke: '#1f6feb', points: { size: 6 } }] }, data, chart);
          } else {
            plot.setData(data);
          }
        }
        // With a user in the link, the user's statuses are the answer asked for (see statuses()).
        if (!Casebook.params.uid) Casebook.dataDrawn(importsBody);
        return r.json.imports;
      }

      async function follow(id) {
        for (;;) {
          const r = await Casebook.get(`/api/archive/imports/${enc(id)}`);
          if (!r.ok) { say(Casebook.problem(r), true); return; }
          if (r.json.state !== 'running') {
            say(`import ${id} ${r.json.state}`, r.json.state === 'failed');
            showReport(r.json);
            await imports();
            return;
          }
          say(`import ${id} running…`);
          await new Promise((resolve) => setTimeout(resolve, 1000));
        }
      }

      async function start() {
        const r = await Casebook.send('POST', '/api/archive/imports', { input: input.value, mode: mode.value, badRecords: badRecords.value });
        if (!r.ok) { say(Casebook.problem(r), true); return; }
        await imports();
        await follow(r.json.id);
      }

      async function statuses(append) {
        const cursor = append && next ? `&cursor=${enc(next)}` : '';
        const r = await Casebook.get(`/api/archive/users/${enc(uid.value)}/statuses?limit=20${cursor}`);
        if (!r.ok) { say(Casebook.problem(r), true); return; }
        if (!append) statusesBody.replaceChildren();
        statusesBody.append(...r.json.statuses.map((s) => el('tr', { 'data-status': String(s.id) },
          el('td', {}, String(s.id)), el('td', {}, new Date(s.createdAt).toISOString().slice(0, 16).replace('T', ' ')),
          el('td', {}, s.text), el('td', {}, s.source || ''), el('td', {}, `${s.reposts} / ${s.comments} / ${s.attitudes}`))));
        next = r.json.next;
        more.hidden = !next;
        Casebook.dataDrawn(statusesBody);
      }

      async function user() {
        say('');
        const r = await Casebook.get(`/api/archive/users/${enc(uid.value)}`);
        if (!r.ok) { say(Casebook.problem(r), true); profile.replaceChildren(); statusesBody.replaceChildren(); return; }
        const u = r.json;
        profile.replaceChildren(
          el('p', { id: 'archive-user-summary' }, `${u.uid}: ${u.followers.length} followers, ${u.friends.length} friends`),
          el('table', { class: 'grid' }, el('tbody', {}, Object.entries(u.profile).map(([k, v]) => el('tr', {}, el('th', {}, k), el('td', {}, v))))));
        await statuses(false);
      }

      const importForm = el('form', { class: 'form', id: 'archive-import' },
        el('label', {}, 'Import a directory on the server', input), el('label', {}, 'Mode', mode),
        el('label', {}, 'Bad records', badRecords), el('button', { type: 'submit' }, 'Import'));
      importForm.addEventListener('submit', (e) => { e.preventDefault(); start(); });
      const userForm = el('form', { class: 'form', id: 'archive-user-form' },
        el('label', {}, 'User', uid), el('button', { type: 'submit' }, 'Show'));
      userForm.addEventListener('submit', (e) => { e.preventDefault(); user(); });
      more.addEventListener('click', () => statuses(true));

      root.append(importForm, message,
        el('h3', {}, 'Imports'),
        el('table', { class: 'grid' }, el('thead', {}, el('tr', {}, ['Import', 'State', 'Mode', 'Started', 'Statuses', 'Records/s'].map((h) => el('th', {}, h)))), importsBody),
        report, el('h3', {}, 'Records per second, import by import'), chart,
        el('h3', {}, 'Experiment: import time vs users (seed 001 §3.2)'), experiment, experimentChart,
        el('h3', {}, 'A user'), userForm, profile,
        el('table', { class: 'grid' }, el('thead', {}, el('tr', {}, ['Id', 'Created', 'Text', 'Source', 'Reposts / comments / likes'].map((h) => el('th', {}, h)))), statusesBody),
        more);
      imports();
      experiments();
      // A link #/system/archive?uid=… shows that user too.
      if (Casebook.params.uid) { uid.value = Casebook.params.uid; user(); }
    },
  });
})();
