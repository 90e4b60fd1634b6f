// The banknote system's console page. It calls only the banknote API under /api/banknotes; every
// answer that fails is shown in the page with the API's own text. Its parts are ES modules beside
// this script (banknote-<part>.js): notes (a serial's history as table and timeline, what a device
// read between two times, a branch's suspects day by day), settlement (a branch's day, a dispute
// pack), watch (the watch list and its hits) and clones (the branches' locations, a day's sweep
// for probable clones). A link #/system/banknote?serial=… looks a note up, ?branch=…&day=…
// settles a day, ?dispute=… builds a serial's dispute pack, ?clones=…&day=… sweeps a branch's day.
'use strict';

(() => {
  const { el } = window.Casebook;
  // Resolved against this script's own address, which the console chose.
  const here = document.currentScript.src;
  const PARTS = ['common', 'notes', 'settlement', 'watch', 'clones'];
  let loading = null;

  function parts() {
    if (!loading) {
      loading = Promise.all(PARTS.map((p) => import(new URL(`banknote-${p}.js`, here).href)));
      loading.catch(() => { loading = null; });
    }
    return loading;
  }

  function draw(page, p, [common, notes, settle, watch, clones]) {
    notes.releaseCharts();
    settle.releaseCharts();
    const links = {};
    const history = notes.historySection(links);
    const device = notes.deviceSection(links);
    const settlement = settle.settlementSection();
    const dispute = settle.disputeSection();
    const sweep = clones.clonesSection();
    links.serial = (n) => history.lookUp(n.serial);
    links.device = (n) => device.around(n);
    page.replaceChildren(
      el('style', {}, common.STYLE),
      history.node,
      device.node,
      settlement.node,
      dispute.node,
      notes.suspectsSection(links),
      watch.watchSection(links),
      clones.branchesSection(),
      sweep.node);
    // A link's parameters ask the API at once.
    if (p.serial) history.lookUp(p.serial);
    if (p.branch && p.day) settlement.show(p.branch, p.day);
    if (p.dispute) dispute.show(p.dispute);
    if (p.clones && p.day) sweep.show(p.clones, p.day);
  }

  window.Casebook.register('banknote', {
    render(root) {
      const page = el('div', { class: 'bn' });
      const p = window.Casebook.params;
      root.replaceChildren(page);
      parts().then(
        (modules) => {
          // The console empties the root when the link changes: a page replaced meanwhile stays so.
          if (page.isConnected) draw(page, p, modules);
        },
        (e) => {
          if (page.isConnected) page.replaceChildren(el('p', { class: 'error', id: 'bn-load-error' }, `Could not load the page: ${e.message}`));
        });
    },
  });
})();
