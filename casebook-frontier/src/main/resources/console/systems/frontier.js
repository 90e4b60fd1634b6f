// The frontier's console page: channels (crawl IDs), a channel's hosts (queues) page by page, and
// its daily statistics as a chart and a table. Reads only the frontier's REST routes under
// /api/frontier/; crawlers use URLFrontier gRPC, which a browser cannot speak. A link
// #/system/frontier?crawl=… opens a channel.
'use strict';

(() => {
  const C = window.Casebook;
  const el = C.el;
  const BASE = '/api/frontier/channels';

  // DailyStats fields in the order the table and the chart show them, with their colours.
  const STATS = [
    { field: 'put', label: 'put', colour: '#1f6feb' },
    { field: 'added', label: 'new', colour: '#2e7d32' },
    { field: 'duplicates', label: 'duplicates', colour: '#8e24aa' },
    { field: 'handedOut', label: 'handed out', colour: '#d9480f' },
    { field: 'acknowledged', label: 'acknowledged', colour: '#00838f' },
    { field: 'failed', label: 'failed', colour: '#c62828' },
    { field: 'inQueue', label: 'in queue', colour: '#6b7380' },
  ];

  /** A failed answer, carrying the API's own error text. */
  class ApiError extends Error {}

  async function load(path) {
    let r;
    try {
      r = await C.get(path);
    } catch (e) {
      throw new ApiError(`${path}: ${e.message}`);
    }
    if (!r.ok) throw new ApiError(C.problem(r));
    return r.json;
  }

  function count(n) {
    return Number(n).toLocaleString('en');
  }

  // UTC to the second: the frontier keeps milliseconds, but nobody reads them here.
  function instant(ms) {
    return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
  }

  function cell(field, ...children) {
    return el('td', { 'data-field': field }, ...children);
  }

  function channelPath(crawlId) {
    return `${BASE}/${encodeURIComponent(crawlId)}`;
  }

  function rate(delayMs) {
    if (delayMs <= 0) return 'no delay';
    return `${Number((60000 / delayMs).toFixed(2))}/min`;
  }

  function statsRow(d) {
    return el('tr', { 'data-day': d.day },
      cell('day', d.day),
      STATS.map((s) => cell(s.field, count(d[s.field]))));
  }

  function statsHead(first) {
    return el('thead', {}, el('tr', {}, el('th', {}, first), STATS.map((s) => el('th', {}, s.label))));
  }

  function render(root) {
    // Answers that arrive after another channel was chosen are dropped.
    let generation = 0;
    let crawl = null;
    let hostCursors = [null];
    let statsDays = [];
    let statsNext = null;
    let chart = null;
    let channelsNext = null;

    const error = el('p', { id: 'frontier-error', class: 'error', hidden: '' });
    const channelsBody = el('tbody');
    const channelsMore = el('button', { id: 'frontier-channels-more', type: 'button', hidden: '' }, 'More channels');
    const crawlInput = el('input', { id: 'frontier-crawl', name: 'crawlId', placeholder: 'news', required: '' });
    const hostLimit = el('input', { id: 'frontier-host-limit', name: 'hostLimit', type: 'number', value: '50' });
    const dayLimit = el('input', { id: 'frontier-day-limit', name: 'dayLimit', type: 'number', value: '31' });
    const pick = el('form', { id: 'frontier-pick', class: 'form' },
      el('label', {}, 'Channel (crawl ID)', crawlInput),
      el('label', {}, 'Hosts per page', hostLimit),
      el('label', {}, 'Days per page', dayLimit),
      el('button', { id: 'frontier-show', type: 'submit' }, 'Show'));

    const summary = el('p', { id: 'frontier-channel-summary' });
    const hostsBody = el('tbody');
    const hostsPrevious = el('button', { id: 'frontier-hosts-previous', type: 'button' }, 'Previous');
    const hostsNext = el('button', { id: 'frontier-hosts-next', type: 'button' }, 'Next');
    const hostsPage = el('span', { id: 'frontier-hosts-page', class: 'muted' });
    const hostTitle = el('h4', { id: 'frontier-host-title' });
    const hostTotals = el('p', { id: 'frontier-host-totals', class: 'muted' });
    const hostStatsBody = el('tbody');
    const host = el('div', { id: 'frontier-host', hidden: '' },
      hostTitle, hostTotals,
      el('table', { id: 'frontier-host-stats', class: 'grid' }, statsHead('Day'), hostStatsBody));
    const chartBox = el('div', { id: 'frontier-stats-chart', class: 'chart' });
    const statsBody = el('tbody');
    const statsOlder = el('button', { id: 'frontier-stats-older', type: 'button', hidden: '' }, 'Older days');
    const channelTitle = el('h3', { id: 'frontier-channel-title' });
    const channel = el('section', { id: 'frontier-channel', hidden: '' },
      channelTitle,
      summary,
      el('h4', {}, 'Hosts (queues) ', el('small', { class: 'muted' }, 'click a key for its daily statistics')),
      el('table', { id: 'frontier-hosts', class: 'grid' },
        el('thead', {}, el('tr', {},
          ['Queue key', 'Delay', 'Crawl rate', 'Blocked until', 'Crawl limit', 'Queued', 'Completed', 'Next due']
            .map((h) => el('th', h === 'Crawl rate' ? { title: 'hand-outs per minute that the delay allows' } : {}, h)))),
        hostsBody),
      el('p', { class: 'result' }, hostsPrevious, ' ', hostsNext, ' ', hostsPage),
      host,
      el('h4', {}, 'Daily statistics ', el('small', { class: 'muted' }, 'UTC days; in queue at the end of the day, now for today')),
      chartBox,
      el('table', { id: 'frontier-stats', class: 'grid' }, statsHead('Day'), statsBody),
      el('p', { class: 'result' }, statsOlder));

    root.replaceChildren(
      el('h3', {}, 'Channels'),
      el('table', { id: 'frontier-channels', class: 'grid' },
        el('thead', {}, el('tr', {},
          ['Crawl ID', 'Kind', 'Default delay', 'Queued', 'Completed', 'Created'].map((h) => el('th', {}, h)))),
        channelsBody),
      el('p', { class: 'result' }, channelsMore),
      pick,
      error,
      channel);

    function showError(message) {
      error.textContent = message || '';
      error.hidden = !message;
    }

    // ---- channels

    function channelRow(c) {
      const link = el('a', { href: '#/system/frontier', 'data-pick': c.crawlId }, c.crawlId);
      link.addEventListener('click', (e) => {
        e.preventDefault();
        crawlInput.value = c.crawlId;
        showChannel(c.crawlId);
      });
      return el('tr', { 'data-channel': c.crawlId },
        cell('crawlId', link),
        cell('kind', c.kind),
        cell('delayMs', `${count(c.delayMs)} ms`),
        cell('queued', count(c.queued)),
        cell('completed', count(c.completed)),
        cell('created', c.created ? instant(c.created) : '—'));
    }

    async function loadChannels(more) {
      try {
        const page = await load(`${BASE}?limit=100${more && channelsNext ? `&cursor=${encodeURIComponent(channelsNext)}` : ''}`);
        const rows = page.channels.map(channelRow);
        if (more) channelsBody.append(...rows); else channelsBody.replaceChildren(...rows);
        if (!more && rows.length === 0) {
          channelsBody.append(el('tr', {}, el('td', { colspan: '6', class: 'muted' }, 'No channel yet: a crawler\'s first put creates one.')));
        }
        channelsNext = page.next;
        channelsMore.hidden = !page.next;
        // With a channel in the link, its hosts and statistics are the answer asked for.
        if (!C.params.crawl) C.dataDrawn(channelsBody);
      } catch (e) {
        showError(e.message);
      }
    }

    // ---- one channel

    function channelSummary(c) {
      summary.replaceChildren(
        'Kind ', el('strong', { 'data-field': 'kind' }, c.kind),
        ' · default delay ', el('strong', { 'data-field': 'delayMs' }, `${count(c.delayMs)} ms`),
        ` (${rate(c.delayMs)} per host)`,
        ' · queued ', el('strong', { 'data-field': 'queued' }, count(c.queued)),
        ' · completed ', el('strong', { 'data-field': 'completed' }, count(c.completed)));
    }

    function hostRow(h) {
      const key = el('a', { href: '#/system/frontier', 'data-host-key': h.key }, h.key);
      key.addEventListener('click', (e) => {
        e.preventDefault();
        showHost(h.key);
      });
      const blocked = h.blockedUntil > 0 ? instant(h.blockedUntil) : '—';
      return el('tr', { 'data-host': h.key },
        cell('key', key),
        cell('delayMs', `${count(h.delayMs)} ms `,
          el('span', { class: 'muted' }, h.ownDelayMs == null ? "channel's" : 'own')),
        cell('rate', rate(h.delayMs)),
        cell('blockedUntil', blocked),
        cell('crawlLimit', h.crawlLimit > 0 ? count(h.crawlLimit) : 'none'),
        cell('queued', count(h.queued)),
        cell('completed', count(h.completed)),
        cell('nextDue', h.nextDue == null ? '—' : instant(h.nextDue)));
    }

    async function loadHosts(index) {
      const mine = generation;
      const cursor = hostCursors[index];
      const path = `${channelPath(crawl)}/hosts?limit=${encodeURIComponent(hostLimit.value)}`
        + (cursor ? `&cursor=${encodeURIComponent(cursor)}` : '');
      const page = await load(path);
      if (mine !== generation) return;
      hostCursors = hostCursors.slice(0, index + 1);
      if (page.next) hostCursors.push(page.next);
      hostsBody.replaceChildren(...page.hosts.map(hostRow));
      if (page.hosts.length === 0) {
        hostsBody.append(el('tr', {}, el('td', { colspan: '8', class: 'muted' }, 'No hosts.')));
      }
      hostsBody.dataset.page = String(index);
      hostsPage.textContent = `page ${index + 1}`;
      hostsPrevious.disabled = index === 0;
      hostsNext.disabled = !page.next;
    }

    function drawChart() {
      if (chart) {
        chart.destroy();
        chart = null;
      }
      chartBox.replaceChildren();
      chartBox.dataset.days = String(statsDays.length);
      if (statsDays.length === 0) {
        chartBox.append(el('p', { class: 'muted' }, 'No statistics yet.'));
        return;
      }
      if (typeof uPlot === 'undefined') return;
      const days = statsDays.slice().reverse(); // the API answers newest first
      const data = [days.map((d) => Date.parse(d.day) / 1000)]
        .concat(STATS.map((s) => days.map((d) => d[s.field])));
      chart = new uPlot({
        width: Math.max(300, chartBox.clientWidth - 10),
        height: 220,
        series: [{ label: 'day', value: (u, v) => (v == null ? '' : new Date(v * 1000).toISOString().slice(0, 10)) }]
          .concat(STATS.map((s) => ({ label: s.label, stroke: s.colour, points: { show: true } }))),
        // From the days themselves, half a day either side: for one day alone uPlot would
        // otherwise span 1,000 days (it widens a single x by 86400 / its ms factor).
        scales: { x: { time: true, range: (u) => [u.data[0][0] - 43200, u.data[0][u.data[0].length - 1] + 43200] } },
        // The days are UTC days: their axis too, wherever the browser is.
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
        axes: [{}, { size: 60 }],
      }, data, chartBox);
    }

    async function loadStats(more) {
      const mine = generation;
      const path = `${channelPath(crawl)}/stats?limit=${encodeURIComponent(dayLimit.value)}`
        + (more && statsNext ? `&cursor=${encodeURIComponent(statsNext)}` : '');
      const page = await load(path);
      if (mine !== generation) return;
      statsDays = more ? statsDays.concat(page.days) : page.days;
      statsNext = page.next;
      statsBody.replaceChildren(...statsDays.map(statsRow));
      statsOlder.hidden = !page.next;
      drawChart();
    }

    async function showChannel(crawlId) {
      generation += 1;
      const mine = generation;
      showError(null);
      try {
        const c = await load(channelPath(crawlId));
        if (mine !== generation) return;
        crawl = c.crawlId;
        hostCursors = [null];
        statsDays = [];
        statsNext = null;
        host.hidden = true;
        channelTitle.textContent = `Channel ${c.crawlId}`;
        channelTitle.dataset.crawl = c.crawlId;
        channelSummary(c);
        hostsBody.replaceChildren();
        hostsBody.dataset.page = '0';
        hostsPrevious.disabled = true;
        hostsNext.disabled = true;
        statsBody.replaceChildren();
        channel.hidden = false;
        // Hosts and statistics fail on their own (a bad page size, say): each shows its error.
        const results = await Promise.allSettled([loadHosts(0), loadStats(false)]);
        const failed = results.find((r) => r.status === 'rejected');
        if (failed && mine === generation) showError(failed.reason.message);
        if (!failed && mine === generation) C.dataDrawn(channel);
      } catch (e) {
        if (mine !== generation) return;
        crawl = null;
        channel.hidden = true;
        if (chart) {
          chart.destroy();
          chart = null;
        }
        showError(e.message);
      }
    }

    async function showHost(key) {
      const mine = generation;
      showError(null);
      try {
        const page = await load(`${channelPath(crawl)}/hosts/${encodeURIComponent(key)}/stats?limit=${encodeURIComponent(dayLimit.value)}`);
        if (mine !== generation) return;
        hostTitle.textContent = `Host ${key}`;
        hostTitle.dataset.host = key;
        const handedOut = page.days.reduce((a, d) => a + d.handedOut, 0);
        hostTotals.replaceChildren(
          'Handed out over these days: ', el('strong', { id: 'frontier-host-handed-out' }, count(handedOut)),
          page.next ? ' (older days not shown)' : '');
        hostStatsBody.replaceChildren(...page.days.map(statsRow));
        if (page.days.length === 0) {
          hostStatsBody.append(el('tr', {}, el('td', { colspan: '8', class: 'muted' }, 'No statistics yet.')));
        }
        host.hidden = false;
      } catch (e) {
        if (mine === generation) showError(e.message);
      }
    }

    async function pageHosts(index) {
      showError(null);
      try {
        await loadHosts(index);
      } catch (e) {
        showError(e.message);
      }
    }

    pick.addEventListener('submit', (e) => {
      e.preventDefault();
      showChannel(crawlInput.value.trim());
    });
    channelsMore.addEventListener('click', () => loadChannels(true));
    hostsPrevious.addEventListener('click', () => pageHosts(Number(hostsBody.dataset.page) - 1));
    hostsNext.addEventListener('click', () => pageHosts(Number(hostsBody.dataset.page) + 1));
    statsOlder.addEventListener('click', async () => {
      showError(null);
      try {
        await loadStats(true);
      } catch (e) {
        showError(e.message);
      }
    });

    loadChannels(false);
    // A link #/system/frontier?crawl=… opens that channel too.
    if (C.params.crawl) {
      crawlInput.value = C.params.crawl;
      showChannel(C.params.crawl);
    }
  }

  C.register('frontier', { render });
})();
