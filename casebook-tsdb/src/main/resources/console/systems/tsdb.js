// The tsdb page: a query builder on the system's OpenTSDB-compatible HTTP API (what OpenTSDB's
// own GUI offers) and an interactive chart of the answer. It calls only /api/query (POST),
// /api/suggest, /api/aggregators and /api/config/filters. A link #/system/tsdb?m=…&start=… plots a query.
'use strict';

(() => {
  const C = window.Casebook;
  const el = C.el;

  const PRESETS = ['15m', '1h', '6h', '24h', '7d'];
  const FILLS = ['none', 'nan', 'null', 'zero'];
  const COLOURS = ['#1f6feb', '#d9480f', '#2b8a3e', '#ae3ec9', '#e8590c', '#0c8599', '#c2255c',
    '#5c940d', '#364fc7', '#a61e4d', '#087f5b', '#862e9c'];
  const CHART_HEIGHT = 320;
  const SUGGEST_DELAY_MS = 150;
  const SUGGEST_MAX = 25;

  // The chart of the page shown now (one page is open at a time), kept for resizing.
  let chart = null;

  window.addEventListener('resize', () => {
    if (chart && chart.root.isConnected) {
      chart.setSize({ width: chartWidth(chart.root.parentElement), height: CHART_HEIGHT });
    }
  });

  function chartWidth(box) {
    return Math.max(300, box.clientWidth - 10);
  }

  /** The error text of a failed answer: OpenTSDB's {error:{message, field}} or the console's. */
  function problem(r) {
    const e = r.json && r.json.error;
    if (e && typeof e === 'object' && e.message) return e.field ? `${e.field}: ${e.message}` : e.message;
    return C.problem(r);
  }

  function colour(i) {
    return COLOURS[i % COLOURS.length];
  }

  // Sorted by key: the API lists tags in the order of their ids, which differs between stores.
  function tagText(tags) {
    return Object.entries(tags || {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => `${k}=${v}`).join(', ');
  }

  /** What a series is called in the legend and the table: its tags, or the metric without any. */
  function seriesLabel(s) {
    return tagText(s.tags) || s.metric;
  }

  /** A filter row's value in OpenTSDB's tag syntax: type(expr), a glob with *, else a|b literals. */
  function autoFilter(value) {
    const m = value.match(/^([A-Za-z_]+)\((.*)\)$/);
    if (m) return { type: m[1].toLowerCase(), filter: m[2] };
    return { type: value.includes('*') ? 'wildcard' : 'literal_or', filter: value };
  }

  function option(value, text, selected) {
    const o = el('option', { value }, text === undefined ? value : text);
    if (selected) o.selected = true;
    return o;
  }

  function checkbox(id, checked) {
    const c = el('input', { type: 'checkbox', id });
    c.checked = !!checked;
    return c;
  }

  const STYLE = `
    #tsdb-query { flex-direction: column; align-items: stretch; }
    #tsdb-query .tsdb-row { display: flex; flex-wrap: wrap; gap: .5rem .8rem; align-items: end; }
    #tsdb-query input[type=checkbox] { min-width: 0; }
    #tsdb-query label.tsdb-check { flex-direction: row; align-items: center; gap: .3rem; padding-bottom: .35rem; }
    #tsdb-query .tsdb-filter { display: flex; gap: .4rem; align-items: center; }
    #tsdb-query .tsdb-filter input[type=text] { min-width: 9rem; }
    #tsdb-query button.tsdb-plain { background: #fff; color: var(--accent); }
    #tsdb-query .tsdb-presets { display: flex; gap: .3rem; padding-bottom: .1rem; }
    #tsdb-query .tsdb-presets button { padding: .3rem .55rem; }
    #tsdb-query input.tsdb-short { min-width: 5rem; width: 5rem; }
    #tsdb-series .tsdb-swatch { display: inline-block; width: .8rem; height: .8rem; border-radius: 2px; margin-right: .4rem; vertical-align: -1px; }
    #tsdb-series td.tsdb-num { text-align: right; font-variant-numeric: tabular-nums; }
    #tsdb-request pre { background: #fff; border: 1px solid var(--line); border-radius: 4px; padding: .5rem; overflow: auto; }
  `;

  /** A datalist filled from /api/suggest as the user types into any input bound to it. */
  function suggester(kind, id, showError) {
    const list = el('datalist', { id });
    let timer = null;
    let asked = null;
    function bind(input) {
      input.setAttribute('list', id);
      const ask = () => {
        clearTimeout(timer);
        timer = setTimeout(async () => {
          const q = input.value;
          if (q === asked) return;
          asked = q;
          try {
            const r = await C.get(`/api/suggest?type=${kind}&max=${SUGGEST_MAX}&q=${encodeURIComponent(q)}`);
            if (!r.ok) { showError(`Suggestions for ${kind}: ${problem(r)}`); return; }
            list.replaceChildren(...(r.json || []).map((name) => el('option', { value: name })));
          } catch (e) {
            showError(`Suggestions for ${kind}: ${e.message}`);
          }
        }, SUGGEST_DELAY_MS);
      };
      input.addEventListener('input', ask);
      input.addEventListener('focus', ask);
    }
    return { list, bind };
  }

  function render(root) {
    chart = null;
    const error = el('p', { id: 'tsdb-error', class: 'error' });
    error.hidden = true;
    const showError = (message) => { error.textContent = message || ''; error.hidden = !message; };

    const metrics = suggester('metrics', 'tsdb-metric-names', showError);
    const tagKeys = suggester('tagk', 'tsdb-tagk-names', showError);
    const tagValues = suggester('tagv', 'tsdb-tagv-names', showError);

    const metric = el('input', { type: 'text', id: 'tsdb-metric', placeholder: 'sys.cpu.user', autocomplete: 'off' });
    metrics.bind(metric);
    // Until /api/aggregators answers, the usual default is enough to run a query.
    const aggregator = el('select', { id: 'tsdb-aggregator' }, option('sum', 'sum', true));
    const dsInterval = el('input', { type: 'text', id: 'tsdb-ds-interval', class: 'tsdb-short', placeholder: '1m', autocomplete: 'off', title: 'Downsample interval: 30s, 1m, 1h, 1d, or 0all for one point; empty for none' });
    const dsFunction = el('select', { id: 'tsdb-ds-function' }, option('avg', 'avg', true));
    const dsFill = el('select', { id: 'tsdb-ds-fill', title: 'What an interval without points gives' }, FILLS.map((f) => option(f, f, f === 'none')));
    const rate = checkbox('tsdb-rate', false);
    const counter = checkbox('tsdb-counter', false);
    counter.disabled = true;
    rate.addEventListener('change', () => { counter.disabled = !rate.checked; });

    let filterTypes = [];
    const filters = el('div', { id: 'tsdb-filters', class: 'tsdb-row' });

    function filterRow() {
      const key = el('input', { type: 'text', class: 'tsdb-tagk', placeholder: 'tag key', autocomplete: 'off' });
      const value = el('input', { type: 'text', class: 'tsdb-tagv', placeholder: 'web01, a|b, web*, *', autocomplete: 'off',
        title: 'Value: exact values separated by |, a glob with *, or type(expression) with type auto' });
      tagKeys.bind(key);
      tagValues.bind(value);
      const type = el('select', { class: 'tsdb-filter-type', title: 'auto: type(expression), a glob when it has *, else exact values (a|b)' },
        option('', 'auto', true), filterTypes.map((t) => option(t.name, t.name)));
      filterTypes.forEach((t, i) => { type.options[i + 1].title = t.description; });
      const groupBy = el('input', { type: 'checkbox', class: 'tsdb-group-by' });
      groupBy.checked = true;
      const row = el('div', { class: 'tsdb-filter', 'data-filter': '' },
        key, '=', type, value,
        el('label', { class: 'tsdb-check', title: 'One series per value of this tag key' }, groupBy, 'group by'),
        el('button', { type: 'button', class: 'tsdb-plain tsdb-remove', title: 'Remove this filter' }, '×'));
      row.querySelector('.tsdb-remove').addEventListener('click', () => row.remove());
      return row;
    }

    const addFilter = el('button', { type: 'button', id: 'tsdb-add-filter', class: 'tsdb-plain' }, '+ tag filter');
    addFilter.addEventListener('click', () => {
      const row = filterRow();
      filters.insertBefore(row, addFilter);
      row.querySelector('.tsdb-tagk').focus();
    });
    filters.append(filterRow(), addFilter);

    const start = el('input', { type: 'text', id: 'tsdb-start', value: '1h-ago', autocomplete: 'off',
      title: '1h-ago, epoch seconds or milliseconds, or yyyy/MM/dd-HH:mm:ss (local time)' });
    const end = el('input', { type: 'text', id: 'tsdb-end', placeholder: 'now', autocomplete: 'off',
      title: 'Empty for now; else as the start' });
    const presets = el('div', { class: 'tsdb-presets' }, PRESETS.map((p) =>
      el('button', { type: 'button', class: 'tsdb-plain', 'data-preset': p, title: `From ${p} ago until now` }, p)));
    const run = el('button', { type: 'submit', id: 'tsdb-run' }, 'Run query');

    const form = el('form', { id: 'tsdb-query', class: 'form' },
      el('div', { class: 'tsdb-row' },
        el('label', {}, 'Metric', metric),
        el('label', {}, 'Aggregator', aggregator),
        el('label', {}, 'Downsample every', dsInterval),
        el('label', {}, 'by', dsFunction),
        el('label', {}, 'fill', dsFill),
        el('label', { class: 'tsdb-check', title: 'Per-second rate of change (after downsampling)' }, rate, 'rate'),
        el('label', { class: 'tsdb-check', title: 'The values are a counter that may wrap or reset' }, counter, 'counter')),
      filters,
      el('div', { class: 'tsdb-row' },
        el('label', {}, 'From', start),
        el('label', {}, 'Until', end),
        presets,
        run));

    const summary = el('p', { id: 'tsdb-summary', class: 'result muted' });
    const chartBox = el('div', { id: 'tsdb-chart', class: 'chart' });
    chartBox.hidden = true;
    const table = el('table', { id: 'tsdb-series', class: 'grid' },
      el('thead', {}, el('tr', {},
        el('th', {}, 'Series (tags)'), el('th', {}, 'Aggregated over'), el('th', {}, 'Points'),
        el('th', {}, 'Last point at'), el('th', {}, 'Last value'))),
      el('tbody', {}));
    table.hidden = true;
    const requestText = el('pre', {});
    const request = el('details', { id: 'tsdb-request' }, el('summary', { class: 'muted' }, 'Request sent: POST /api/query'), requestText);
    request.hidden = true;

    root.replaceChildren(el('style', {}, STYLE),
      el('h3', {}, 'Query'), metrics.list, tagKeys.list, tagValues.list,
      form, error, summary, chartBox, table, request);

    function query() {
      const sub = { aggregator: aggregator.value, metric: metric.value.trim() };
      const interval = dsInterval.value.trim();
      if (interval) {
        sub.downsample = `${interval}-${dsFunction.value}${dsFill.value === 'none' ? '' : `-${dsFill.value}`}`;
      }
      if (rate.checked) {
        sub.rate = true;
        if (counter.checked) sub.rateOptions = { counter: true };
      }
      const wanted = [];
      filters.querySelectorAll('[data-filter]').forEach((row) => {
        const tagk = row.querySelector('.tsdb-tagk').value.trim();
        const value = row.querySelector('.tsdb-tagv').value.trim();
        if (!tagk && !value) return;
        const chosen = row.querySelector('.tsdb-filter-type').value;
        const f = chosen ? { type: chosen, filter: value } : autoFilter(value);
        wanted.push({ type: f.type, tagk, filter: f.filter, groupBy: row.querySelector('.tsdb-group-by').checked });
      });
      if (wanted.length) sub.filters = wanted;
      const body = { start: start.value.trim(), queries: [sub] };
      if (end.value.trim()) body.end = end.value.trim();
      // Absolute dates are typed in the browser's zone, as the chart shows them.
      if (body.start.includes('/') || (body.end || '').includes('/')) {
        body.timezone = Intl.DateTimeFormat().resolvedOptions().timeZone;
      }
      return body;
    }

    function clearAnswer() {
      if (chart) { chart.destroy(); chart = null; }
      chartBox.replaceChildren();
      chartBox.hidden = true;
      table.tBodies[0].replaceChildren();
      table.hidden = true;
      summary.textContent = '';
    }

    function draw(answer, millis) {
      const series = answer.map((s, i) => {
        const times = Object.keys(s.dps || {}).map(Number).sort((a, b) => a - b);
        const values = new Map(times.map((t) => [t, s.dps[String(t)]]));
        return { s, i, times, values, label: seriesLabel(s) };
      });
      const points = series.reduce((n, x) => n + x.times.length, 0);
      summary.textContent = `${series.length} series, ${points.toLocaleString('en')} points, ${Math.round(millis)} ms`;
      if (!series.length) {
        summary.textContent = 'No series matched the metric, filters and time range.';
        return;
      }
      table.tBodies[0].replaceChildren(...series.map((x) => {
        const lastTime = x.times.length ? x.times[x.times.length - 1] : null;
        const last = lastTime === null ? '—' : String(x.values.get(lastTime));
        return el('tr', { 'data-series': x.label },
          el('td', { class: 'tsdb-tags' }, el('span', { class: 'tsdb-swatch', style: `background:${colour(x.i)}` }), x.label),
          el('td', { class: 'tsdb-aggregated' }, (x.s.aggregateTags || []).join(', ') || '—'),
          el('td', { class: 'tsdb-num tsdb-points' }, x.times.length),
          el('td', { class: 'tsdb-last-time' }, lastTime === null ? '—' : new Date(lastTime * 1000).toLocaleString()),
          el('td', { class: 'tsdb-num tsdb-last' }, last));
      }));
      table.hidden = false;

      if (typeof uPlot === 'undefined') return;
      const xs = [...new Set(series.flatMap((x) => x.times))].sort((a, b) => a - b);
      // "NaN" and null (fill policies) are gaps in the chart; the table shows them as answered.
      const ys = series.map((x) => xs.map((t) => {
        const v = x.values.get(t);
        return typeof v === 'number' ? v : null;
      }));
      chartBox.hidden = false;
      chart = new uPlot({
        width: chartWidth(chartBox),
        height: CHART_HEIGHT,
        series: [{}].concat(series.map((x) => ({
          label: x.label,
          stroke: colour(x.i),
          width: 1.5,
          spanGaps: true,
          points: { show: xs.length <= 120 },
        }))),
        axes: [{}, { size: 70 }],
      }, [xs].concat(ys), chartBox);
    }

    let running = 0;
    async function submit() {
      const mine = ++running;
      const body = query();
      requestText.textContent = JSON.stringify(body, null, 2);
      request.hidden = false;
      run.disabled = true;
      const began = performance.now();
      try {
        const r = await C.send('POST', '/api/query', body);
        if (mine !== running) return; // a later query answers instead
        clearAnswer();
        if (!r.ok || !Array.isArray(r.json)) {
          showError(r.ok ? `Unexpected answer: ${r.text.slice(0, 200)}` : problem(r));
          return;
        }
        showError(null);
        draw(r.json, performance.now() - began);
        C.dataDrawn(summary);
      } catch (e) {
        if (mine === running) { clearAnswer(); showError(`The query failed: ${e.message}`); }
      } finally {
        if (mine === running) run.disabled = false;
        form.dataset.answered = String(Number(form.dataset.answered || 0) + 1);
      }
    }

    form.addEventListener('submit', (e) => { e.preventDefault(); submit(); });
    presets.addEventListener('click', (e) => {
      const p = e.target.closest('[data-preset]');
      if (!p) return;
      start.value = `${p.dataset.preset}-ago`;
      end.value = '';
      if (metric.value.trim()) submit();
    });

    async function loadChoices() {
      try {
        const [aggregators, types] = await Promise.all([C.get('/api/aggregators'), C.get('/api/config/filters')]);
        if (!aggregators.ok) { showError(`Aggregators: ${problem(aggregators)}`); } else {
          const names = [...aggregators.json].sort();
          const current = aggregator.value;
          aggregator.replaceChildren(...names.map((n) => option(n, n, n === current)));
          const fn = dsFunction.value || 'avg'; // a link's choice stays
          dsFunction.replaceChildren(...names.filter((n) => n !== 'none').map((n) => option(n, n, n === fn)));
        }
        if (!types.ok) { showError(`Filter types: ${problem(types)}`); } else {
          filterTypes = Object.entries(types.json).map(([name, t]) => ({ name, description: t.description }))
            .sort((a, b) => a.name.localeCompare(b.name));
          filters.querySelectorAll('.tsdb-filter-type').forEach((select) => {
            const chosen = select.value;
            select.replaceChildren(option('', 'auto', chosen === ''),
              ...filterTypes.map((t) => {
                const o = option(t.name, t.name, t.name === chosen);
                o.title = t.description;
                return o;
              }));
          });
        }
      } catch (e) {
        showError(`Could not load the aggregators and filter types: ${e.message}`);
      } finally {
        form.dataset.ready = 'true';
      }
    }
    loadChoices();
    // A link #/system/tsdb?m=…&start=…&end=…&agg=…&ds=1m-avg plots that query at once.
    const p = C.params;
    if (p.m) {
      metric.value = p.m;
      if (p.start) start.value = p.start;
      if (p.end) end.value = p.end;
      if (p.agg) aggregator.replaceChildren(option(p.agg, p.agg, true));
      if (p.ds) {
        // interval-function[-fill], as OpenTSDB writes a downsample
        const [interval, fn, fill] = p.ds.split('-');
        dsInterval.value = interval;
        if (fn) dsFunction.replaceChildren(option(fn, fn, true));
        if (fill && FILLS.includes(fill)) dsFill.value = fill;
      }
      submit();
    }
  }

  C.register('tsdb', { render });
})();
