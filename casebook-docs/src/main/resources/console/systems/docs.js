// The document store's console page: browse a type's documents by source site and day, open one
// (both families, its version, its comments) and write corrections back over the version read
// (If-Match), showing a conflict instead of overwriting someone else's change. Fields a person
// corrected are marked (a re-crawl keeps them) and can be released to the crawl; the document's
// history lists the changes of people and crawls. Links:
// #/system/docs?type=…&id=… opens a document, ?type=…&source=…&day=… lists documents.
'use strict';

// In a function: console.js declares el, send, state… as globals of the same page.
(() => {
  const { el } = Casebook;
  const API = '/api/docs';
  const LIST_COLUMNS = ['created', 'title', 'author']; // shown in listings when the type has them
  const CELL_CHARS = 200; // longer text is cut in tables (the whole text is in the cell's title)
  const HISTORY_PAGE = 20;

  function docPath(type, id) {
    return `${API}/${encodeURIComponent(type)}/${encodeURIComponent(id)}`;
  }

  // A write-back carries the version it read.
  function sendIfMatch(method, path, bodyText, version) {
    return Casebook.send(method, path, bodyText, 'application/json', { 'If-Match': `"${version}"` });
  }

  function call(method, path, body) {
    return Casebook.send(method, path, body);
  }

  function show(target, message) {
    target.textContent = message || '';
    target.hidden = !message;
  }

  function cut(text) {
    const s = String(text);
    return s.length > CELL_CHARS ? `${s.slice(0, CELL_CHARS)}…` : s;
  }

  function display(value) {
    if (value == null) return '';
    return Array.isArray(value) ? value.join(', ') : String(value);
  }

  // ---- field values between the document's JSON and the form

  const NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

  function asText(kind, value) {
    if (value == null) return '';
    if (kind === 'KEYWORDS') return value.join('\n');
    return String(value);
  }

  /**
   * The JSON of one edited value, as text: numbers go in verbatim (no rounding through a JS
   * number), anything else a number field gets goes as a string for the API to refuse by name.
   * Empty removes the field.
   */
  function asJson(kind, text) {
    if (kind === 'KEYWORDS') {
      const list = text.split('\n').map((s) => s.trim()).filter((s) => s);
      return list.length ? JSON.stringify(list) : 'null';
    }
    if (text.trim() === '') return 'null';
    if (kind === 'LONG' || kind === 'DOUBLE' || kind === 'TIME') {
      const t = text.trim();
      return NUMBER.test(t) ? t : JSON.stringify(t);
    }
    return JSON.stringify(text);
  }

  function fieldInput(field, value) {
    const text = asText(field.kind, value);
    const attrs = { id: `docs-field-${field.name}`, 'data-field': field.name, 'data-kind': field.kind };
    let input;
    if (field.kind === 'TEXT' || field.kind === 'KEYWORDS') {
      const lines = text.split('\n').length;
      input = el('textarea', { ...attrs, rows: String(Math.min(8, Math.max(2, lines + 1))), cols: '80' });
      input.value = text;
    } else {
      input = el('input', { ...attrs, type: 'text', size: '40' });
      input.value = text;
    }
    // What the control holds as read (a textarea turns \r\n into \n): the baseline for "changed".
    input.dataset.initial = input.value;
    return input;
  }

  function render(root) {
    const types = new Map(); // name -> {name, fields, parents}, from the registry route

    // ---- browse

    const typeSelect = el('select', { id: 'docs-type' });
    const source = el('input', { id: 'docs-source', type: 'text', placeholder: 'blog.example.com', size: '28' });
    const day = el('input', { id: 'docs-day', type: 'text', placeholder: 'YYYY-MM-DD', size: '11' });
    const listLimit = el('input', { id: 'docs-limit', type: 'text', value: '20', size: '4' });
    const listButton = el('button', { id: 'docs-list-button', type: 'submit' }, 'List');
    const browseForm = el('form', { id: 'docs-browse', class: 'form' },
      el('label', {}, 'Type', typeSelect),
      el('label', {}, 'Source site (host)', source),
      el('label', {}, 'Day created (UTC)', day),
      el('label', {}, 'Per page', listLimit),
      listButton);
    const browseError = el('p', { id: 'docs-browse-error', class: 'error' });
    const listHead = el('thead');
    const listBody = el('tbody');
    const listTable = el('table', { id: 'docs-list', class: 'grid' }, listHead, listBody);
    const listMore = el('button', { id: 'docs-list-more', type: 'button' }, 'More');
    const listNote = el('p', { id: 'docs-list-note', class: 'muted' });
    let listQuery = null; // {type, source, day, limit, next}

    // ---- one document

    const openType = el('select', { id: 'docs-open-type' });
    const openId = el('input', { id: 'docs-open-id', type: 'text', size: '60', placeholder: 'https://blog.example.com/p/1' });
    const openForm = el('form', { id: 'docs-open', class: 'form' },
      el('label', {}, 'Type', openType),
      el('label', {}, 'Id', openId),
      el('button', { id: 'docs-open-button', type: 'submit' }, 'Open'));
    const openError = el('p', { id: 'docs-open-error', class: 'error' });
    const docView = el('div', { id: 'docs-doc' });
    let opened = null; // {type: DocType, doc: the document as read}

    [browseError, listTable, listMore, listNote, openError, docView].forEach((e) => { e.hidden = true; });
    root.replaceChildren(
      el('h3', {}, 'Documents by source site and day'),
      browseForm, browseError, listNote, listTable, listMore,
      el('h3', {}, 'Open a document'),
      openForm, openError, docView);

    async function typeOf(name) {
      if (types.has(name)) return types.get(name);
      const r = await call('GET', `${API}/_types/${encodeURIComponent(name)}`);
      if (!r.ok) throw new Error(Casebook.problem(r));
      types.set(name, r.json);
      return r.json;
    }

    function childrenOf(name) {
      return [...types.values()].filter((t) => (t.parents || []).includes(name));
    }

    async function loadTypes() {
      const r = await call('GET', `${API}/_types`);
      if (!r.ok) {
        show(browseError, Casebook.problem(r));
        return;
      }
      r.json.types.forEach((t) => types.set(t.name, t));
      const names = [...types.keys()].sort();
      const options = (selected) => names.map((n) => {
        const o = el('option', { value: n }, n);
        o.selected = n === selected;
        return o;
      });
      typeSelect.replaceChildren(...options(names.includes('blog') ? 'blog' : names[0]));
      openType.replaceChildren(...options(names.includes('blog') ? 'blog' : names[0]));
    }

    // ---- listing

    function listColumns(type) {
      const names = type.fields.map((f) => f.name);
      const wanted = LIST_COLUMNS.filter((n) => names.includes(n));
      return wanted.length ? wanted : names.slice(0, 3);
    }

    function listRow(type, d, columns) {
      const open = el('a', { href: '#', 'data-open': d.id, title: 'Open this document' }, d.id);
      open.addEventListener('click', (e) => {
        e.preventDefault();
        openDocument(type.name, d.id);
      });
      return el('tr', { 'data-id': d.id },
        el('td', {}, open),
        columns.map((c) => {
          const v = display(d.fields[c]);
          return el('td', { 'data-column': c, title: v }, cut(v));
        }),
        el('td', {}, el('code', {}, String(d.version))));
    }

    async function listPage(append) {
      const q = listQuery;
      const params = new URLSearchParams({ source: q.source, day: q.day, limit: q.limit });
      if (append && q.next) params.set('cursor', q.next);
      listButton.disabled = true;
      listMore.disabled = true;
      try {
        const type = await typeOf(q.type);
        const r = await call('GET', `${API}/${encodeURIComponent(q.type)}?${params}`);
        if (!r.ok) {
          show(browseError, Casebook.problem(r));
          return;
        }
        show(browseError, null);
        const columns = listColumns(type);
        if (!append) {
          listHead.replaceChildren(el('tr', {}, el('th', {}, 'Id'), columns.map((c) => el('th', {}, c)), el('th', {}, 'Version')));
          listBody.replaceChildren();
        }
        listBody.append(...r.json.documents.map((d) => listRow(type, d, columns)));
        q.next = r.json.next;
        listTable.hidden = listBody.children.length === 0;
        listMore.hidden = !q.next;
        listNote.textContent = listBody.children.length
          ? `${listBody.children.length} ${q.type} document(s) from ${q.source} created ${q.day}, oldest first${q.next ? '; more follow' : ''}`
          : `No ${q.type} document from ${q.source} created ${q.day}`;
        listNote.hidden = false;
        Casebook.dataDrawn(listBody);
      } catch (e) {
        show(browseError, e.message);
      } finally {
        listButton.disabled = false;
        listMore.disabled = false;
      }
    }

    browseForm.addEventListener('submit', (e) => {
      e.preventDefault();
      listQuery = { type: typeSelect.value, source: source.value.trim(), day: day.value.trim(), limit: listLimit.value.trim(), next: null };
      listPage(false);
    });
    listMore.addEventListener('click', () => listPage(true));

    // ---- a document: fields, save, conflict, comments

    async function openDocument(typeName, id) {
      openType.value = typeName;
      openId.value = id;
      show(openError, null);
      let type;
      try {
        type = await typeOf(typeName);
      } catch (e) {
        show(openError, e.message);
        return;
      }
      const r = await call('GET', docPath(typeName, id));
      if (!r.ok) {
        show(openError, Casebook.problem(r));
        return;
      }
      drawDocument(type, r.json);
      Casebook.dataDrawn(docView);
    }

    openForm.addEventListener('submit', (e) => {
      e.preventDefault();
      openDocument(openType.value, openId.value.trim());
    });

    function drawDocument(type, doc) {
      opened = { type, doc };
      const corrected = doc.corrected || {};
      const version = el('code', { id: 'docs-version', 'data-version': String(doc.version) }, String(doc.version));
      const head = [el('strong', {}, doc.type), ' ', el('code', { id: 'docs-doc-id' }, doc.id), ' · version ', version];
      if (doc.parent) {
        const up = el('a', { href: '#', id: 'docs-parent' }, `${doc.parent.type} ${doc.parent.id}`);
        up.addEventListener('click', (e) => {
          e.preventDefault();
          openDocument(doc.parent.type, doc.parent.id);
        });
        head.push(' · comment on ', up);
      }
      const rows = [];
      ['BI', 'DI'].forEach((family) => {
        type.fields.filter((f) => f.family === family).forEach((f) => {
          const mark = corrected[f.name];
          const attrs = { 'data-field': f.name, 'data-family': family };
          if (mark) attrs['data-corrected'] = mark.by;
          rows.push(el('tr', attrs,
            el('td', {}, family), el('td', {}, el('label', { for: `docs-field-${f.name}` }, f.name)),
            el('td', { class: 'muted' }, f.kind.toLowerCase()), el('td', {}, fieldInput(f, doc.fields[f.name])),
            el('td', {}, mark ? correctionMark(doc, f.name, mark) : '')));
        });
      });
      const save = el('button', { id: 'docs-save', type: 'submit', title: `PATCH the changed fields with If-Match: "${doc.version}"` }, 'Save changes');
      const editor = el('input', { id: 'docs-editor', type: 'text', size: '16', placeholder: 'person', value: lastEditor });
      const reread = el('button', { id: 'docs-reread', type: 'button', title: 'Read the document again, dropping unsaved edits' }, 'Read again');
      const saveResult = el('p', { id: 'docs-save-result', class: 'result muted' });
      const saveError = el('p', { id: 'docs-save-error', class: 'error' });
      const conflict = el('div', { id: 'docs-conflict', class: 'error' });
      [saveResult, saveError, conflict].forEach((e) => { e.hidden = true; });
      const editForm = el('form', { id: 'docs-edit' },
        el('table', { id: 'docs-fields', class: 'grid' },
          el('thead', {}, el('tr', {}, el('th', {}, 'Family'), el('th', {}, 'Field'), el('th', {}, 'Kind'), el('th', {}, 'Value'), el('th', {}, 'Corrected'))),
          el('tbody', {}, rows)),
        el('p', { class: 'muted' }, 'Only changed fields are written; an empty value removes the field; keywords one per line. '
          + 'A field you change is marked corrected: re-crawls keep it until the correction is dropped.'),
        el('div', { class: 'form' }, el('label', {}, 'Your name', editor), save, reread));
      editForm.addEventListener('submit', (e) => {
        e.preventDefault();
        saveChanges(editForm, save, { saveResult, saveError, conflict });
      });
      reread.addEventListener('click', () => openDocument(doc.type, doc.id));

      const parts = [el('h3', {}, ...head)];
      if (type.fields.some((f) => f.name === 'url') && type.fields.some((f) => f.name === 'created')
          && doc.fields.url && doc.fields.created) {
        const sameDay = el('button', { id: 'docs-same-day', type: 'button' }, 'List this site\'s documents of that day');
        sameDay.addEventListener('click', () => {
          let host = '';
          try { host = new URL(doc.fields.url).hostname; } catch (e) { host = ''; }
          typeSelect.value = doc.type;
          source.value = host;
          day.value = String(doc.fields.created).slice(0, 10);
          browseForm.requestSubmit();
        });
        parts.push(el('p', {}, sameDay));
      }
      parts.push(editForm, saveResult, saveError, conflict, historyView(type, doc), commentsView(type, doc));
      docView.replaceChildren(...parts);
      docView.hidden = false;
    }

    /** The fields whose control differs from what was read: name -> {kind, text, json}. */
    function changes(form) {
      const out = new Map();
      form.querySelectorAll('[data-field][data-kind]').forEach((input) => {
        if (input.value !== input.dataset.initial) {
          out.set(input.dataset.field, { kind: input.dataset.kind, text: input.value, json: asJson(input.dataset.kind, input.value) });
        }
      });
      return out;
    }

    // The name edits are recorded under, kept while the page is open.
    let lastEditor = '';

    function withEditor(path) {
      const name = (document.getElementById('docs-editor') || {}).value || '';
      lastEditor = name.trim();
      return lastEditor ? `${path}?editor=${encodeURIComponent(lastEditor)}` : path;
    }

    // A corrected field: who set it, when and at which version, and a button that releases it to
    // the next crawl (DELETE …/corrections/{field} over the version read).
    function correctionMark(doc, field, mark) {
      const drop = el('button', { type: 'button', 'data-drop': field, title: 'The field keeps its value until the next crawl replaces it' }, 'Drop correction');
      drop.addEventListener('click', async () => {
        drop.disabled = true;
        const r = await sendIfMatch('DELETE', withEditor(`${docPath(doc.type, doc.id)}/corrections/${encodeURIComponent(field)}`), undefined, doc.version);
        if (r.ok) {
          drawDocument(opened.type, r.json);
          show(document.getElementById('docs-save-result'), `Dropped the correction of ${field}: version ${doc.version} → ${r.json.version}`);
        } else {
          drop.disabled = false;
          show(document.getElementById('docs-save-error'), Casebook.problem(r));
        }
      });
      return el('span', { class: 'docs-corrected', 'data-corrected-by': mark.by },
        el('strong', {}, '✎ corrected'), ` by ${mark.by}, ${mark.at}, version ${mark.version} `, drop);
    }

    async function saveChanges(form, button, out) {
      const { type, doc } = opened;
      const changed = changes(form);
      [out.saveError, out.saveResult, out.conflict].forEach((e) => show(e, null));
      if (changed.size === 0) {
        show(out.saveResult, 'Nothing changed.');
        return;
      }
      const body = `{${[...changed].map(([name, c]) => `${JSON.stringify(name)}:${c.json}`).join(',')}}`;
      button.disabled = true;
      const r = await sendIfMatch('PATCH', withEditor(docPath(doc.type, doc.id)), body, doc.version);
      button.disabled = false;
      if (r.ok) {
        drawDocument(type, r.json);
        const result = document.getElementById('docs-save-result');
        show(result, `Saved ${[...changed.keys()].join(', ')}: version ${doc.version} → ${r.json.version}`);
      } else if (r.status === 412) {
        await showConflict(changed, r, out.conflict);
      } else {
        show(out.saveError, Casebook.problem(r));
      }
    }

    // Someone wrote the document after it was read: nothing was stored. Show what is stored now
    // next to the edits, and offer to read it again; the edits stay in the form meanwhile.
    async function showConflict(changed, answer, target) {
      const { doc } = opened;
      const now = await call('GET', docPath(doc.type, doc.id));
      const parts = [
        el('p', {}, el('strong', {}, 'Not saved: the document changed since it was read. '),
          el('span', { id: 'docs-conflict-message' }, Casebook.problem(answer))),
      ];
      if (now.ok) {
        parts.push(el('p', {}, `Read at version ${doc.version}; stored now: version `,
          el('code', { id: 'docs-conflict-version', 'data-version': String(now.json.version) }, String(now.json.version))));
        parts.push(el('table', { id: 'docs-conflict-fields', class: 'grid' },
          el('thead', {}, el('tr', {}, el('th', {}, 'Field'), el('th', {}, 'Read'), el('th', {}, 'Your edit'), el('th', {}, 'Stored now'))),
          el('tbody', {}, [...changed].map(([name, c]) => el('tr', { 'data-field': name },
            el('td', {}, name),
            el('td', { 'data-value': 'read' }, cut(display(doc.fields[name]))),
            el('td', { 'data-value': 'yours' }, cut(c.text)),
            el('td', { 'data-value': 'stored' }, cut(display(now.json.fields[name]))))))));
      } else {
        parts.push(el('p', { id: 'docs-conflict-now' }, `Reading it again: ${Casebook.problem(now)}`));
      }
      const reload = el('button', { id: 'docs-reload', type: 'button' }, 'Reload the stored version (drops your edits)');
      reload.addEventListener('click', () => openDocument(doc.type, doc.id));
      parts.push(el('p', {}, reload));
      target.replaceChildren(...parts);
      target.hidden = false;
    }

    // ---- history of the open document

    function historyValue(v) {
      return v == null ? '∅' : cut(display(v));
    }

    // One change: "field: before → after", a crawl's value a correction kept out, a cut value.
    function historyChange(c) {
      const parts = [el('code', {}, c.field), ': ', historyValue(c.before), ' → ', historyValue(c.after)];
      if (c.kept) parts.push(el('em', {}, ' (offered by the crawl, kept out by the correction)'));
      if (c.cut) parts.push(el('em', {}, ' (cut)'));
      return el('li', { 'data-field': c.field, 'data-kept': String(c.kept) }, ...parts);
    }

    function historyView(type, doc) {
      const box = el('div', { id: 'docs-history-view' }, el('h4', {}, 'History'));
      const note = el('p', { id: 'docs-history-note', class: 'muted' });
      const error = el('p', { id: 'docs-history-error', class: 'error' });
      const body = el('tbody');
      const table = el('table', { id: 'docs-history', class: 'grid' },
        el('thead', {}, el('tr', {}, el('th', {}, 'Version'), el('th', {}, 'When'), el('th', {}, 'Side'), el('th', {}, 'Who'), el('th', {}, 'Changes'))),
        body);
      const more = el('button', { id: 'docs-history-more', type: 'button' }, 'More');
      [error, table, more].forEach((e) => { e.hidden = true; });
      let next = null;

      async function page(append) {
        const params = new URLSearchParams({ limit: String(HISTORY_PAGE) });
        if (append && next) params.set('cursor', next);
        more.disabled = true;
        const r = await call('GET', `${docPath(doc.type, doc.id)}/history?${params}`);
        more.disabled = false;
        if (!r.ok) {
          show(error, Casebook.problem(r));
          return;
        }
        show(error, null);
        if (!append) body.replaceChildren();
        body.append(...r.json.entries.map((e) => el('tr', { 'data-version': String(e.version), 'data-side': e.side },
          el('td', {}, el('code', {}, String(e.version))),
          el('td', {}, e.at),
          el('td', {}, e.side),
          el('td', {}, e.by || ''),
          el('td', {}, el('ul', {},
            e.changes.map(historyChange),
            e.dropped.map((f) => el('li', { 'data-dropped': f }, 'dropped the correction of ', el('code', {}, f))))))));
        next = r.json.next;
        table.hidden = body.children.length === 0;
        more.hidden = !next;
        note.textContent = body.children.length
          ? `${body.children.length} change(s), newest first${next ? '; more follow' : ''}`
          : 'No history: nobody has edited this document (crawls enter the history once a person has).';
      }

      more.addEventListener('click', () => page(true));
      box.append(note, error, table, more);
      page(false);
      return box;
    }

    // ---- comments of the open document

    function commentsView(type, doc) {
      const children = childrenOf(type.name);
      const box = el('div', { id: 'docs-comments-view' }, el('h4', {}, 'Comments'));
      if (!children.length) {
        box.append(el('p', { class: 'muted', id: 'docs-comments-none' }, `${type.name} documents take no comments.`));
        return box;
      }
      const childSelect = el('select', { id: 'docs-comment-type' },
        children.map((c) => el('option', { value: c.name }, c.name)));
      const order = el('select', { id: 'docs-comment-order' },
        el('option', { value: 'newest' }, 'newest first'), el('option', { value: 'oldest' }, 'oldest first'));
      const limit = el('input', { id: 'docs-comment-limit', type: 'text', value: '20', size: '4' });
      const form = el('form', { id: 'docs-comments-form', class: 'form' },
        children.length > 1 ? el('label', {}, 'Kind', childSelect) : '',
        el('label', {}, 'Order', order), el('label', {}, 'Per page', limit),
        el('button', { id: 'docs-comments-button', type: 'submit' }, 'Show'));
      const error = el('p', { id: 'docs-comments-error', class: 'error' });
      const note = el('p', { id: 'docs-comments-note', class: 'muted' });
      const head = el('thead');
      const body = el('tbody');
      const table = el('table', { id: 'docs-comments', class: 'grid' }, head, body);
      const more = el('button', { id: 'docs-comments-more', type: 'button' }, 'More');
      [error, table, more].forEach((e) => { e.hidden = true; });
      let next = null;

      async function page(append) {
        const child = types.get(childSelect.value);
        const params = new URLSearchParams({ childType: child.name, order: order.value, limit: limit.value.trim() });
        if (append && next) params.set('cursor', next);
        more.disabled = true;
        const r = await call('GET', `${docPath(doc.type, doc.id)}/comments?${params}`);
        more.disabled = false;
        if (!r.ok) {
          show(error, Casebook.problem(r));
          return;
        }
        show(error, null);
        const columns = child.fields.map((f) => f.name);
        if (!append) {
          head.replaceChildren(el('tr', {}, columns.map((c) => el('th', {}, c)), el('th', {}, 'Version'), el('th', {}, '')));
          body.replaceChildren();
        }
        body.append(...r.json.documents.map((c) => {
          const open = el('a', { href: '#', 'data-open': c.id, title: c.id }, 'open');
          open.addEventListener('click', (e) => {
            e.preventDefault();
            openDocument(child.name, c.id);
          });
          return el('tr', { 'data-id': c.id },
            columns.map((name) => {
              const v = display(c.fields[name]);
              return el('td', { 'data-column': name, title: v }, cut(v));
            }),
            el('td', {}, el('code', {}, String(c.version))),
            el('td', {}, open));
        }));
        next = r.json.next;
        table.hidden = body.children.length === 0;
        more.hidden = !next;
        note.textContent = body.children.length
          ? `${body.children.length} shown, ${order.value} first${next ? '; more follow' : ''}`
          : 'No comments.';
      }

      form.addEventListener('submit', (e) => {
        e.preventDefault();
        page(false);
      });
      more.addEventListener('click', () => page(true));
      box.append(form, error, note, table, more);
      page(false);
      return box;
    }

    // A link #/system/docs?type=…&id=… opens a document; ?type=…&source=…&day=… lists documents.
    const p = Casebook.params;
    loadTypes().then(() => {
      if (p.type && p.id) {
        openDocument(p.type, p.id);
      } else if (p.type && p.source && p.day) {
        typeSelect.value = p.type;
        source.value = p.source;
        day.value = p.day;
        listQuery = { type: p.type, source: p.source, day: p.day, limit: listLimit.value.trim(), next: null };
        listPage(false);
      } else {
        Casebook.dataDrawn(typeSelect); // the type list is the answer
      }
    });
  }

  Casebook.register('docs', { render });
})();
