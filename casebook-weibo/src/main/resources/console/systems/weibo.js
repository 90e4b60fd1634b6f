// The social feed's console page: a user's timeline (paged), own posts, followers and following,
// and the two writes people try first — publish (with a title and images) and follow;
// #/system/weibo?uid=… opens a user. Only /api/weibo/ routes.
'use strict';

(() => {
  const { el } = Casebook;
  const enc = encodeURIComponent;

  function when(ts) {
    return new Date(ts).toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC');
  }

  // An image is shown only when its reference is an https URL; an opaque id names an upload the
  // page cannot fetch, so it is shown as text. Lazy and bounded, so a grid of nine stays small.
  function image(i) {
    if (!/^https:\/\//i.test(i.ref)) return el('span', { class: 'muted weibo-image-id' }, `image ${i.ref}`);
    const attrs = { src: i.ref, loading: 'lazy', alt: i.alt || '', class: 'weibo-image',
      style: 'max-width:160px;max-height:160px;object-fit:contain;margin:2px' };
    if (i.width && i.height) { attrs.width = i.width; attrs.height = i.height; }
    return el('img', attrs);
  }

  function postCell(p) {
    const parts = [];
    if (p.title) parts.push(el('strong', { class: 'weibo-title' }, p.title));
    parts.push(el('div', { class: 'weibo-content' }, p.content));
    if (p.images && p.images.length) parts.push(el('div', { class: 'weibo-images' }, p.images.map(image)));
    return el('td', {}, parts);
  }

  function postRows(posts) {
    return posts.map((p) => el('tr', { 'data-post': p.id },
      el('td', {}, when(p.ts)), el('td', {}, el('a', { href: '#', 'data-user': p.uid }, p.uid)),
      postCell(p)));
  }

  Casebook.register('weibo', {
    render(root) {
      const uid = el('input', { id: 'weibo-uid', placeholder: 'user id', required: '' });
      const message = el('p', { id: 'weibo-message', class: 'result' });
      const stats = el('p', { id: 'weibo-stats', class: 'muted' });
      const timelineBody = el('tbody', { id: 'weibo-timeline' });
      const postsBody = el('tbody', { id: 'weibo-posts' });
      const followers = el('ul', { id: 'weibo-followers' });
      const following = el('ul', { id: 'weibo-following' });
      const more = el('button', { id: 'weibo-more', type: 'button', hidden: '' }, 'Older posts');
      const content = el('input', { id: 'weibo-content', placeholder: 'what is happening?', size: '40' });
      const title = el('input', { id: 'weibo-title', placeholder: 'title (optional)', size: '24' });
      const images = el('textarea', { id: 'weibo-images', rows: '2', cols: '40',
        placeholder: 'images (optional): one https:// URL or image id a line, then | alt text' });
      const target = el('input', { id: 'weibo-target', placeholder: 'user to follow' });
      let next = null;

      function say(text, isError) {
        message.textContent = text || '';
        message.className = isError ? 'error' : 'result';
      }

      async function timeline(append) {
        const cursor = append && next ? `&cursor=${enc(next)}` : '';
        const r = await Casebook.get(`/api/weibo/users/${enc(uid.value)}/timeline?limit=20${cursor}`);
        if (!r.ok) { say(Casebook.problem(r), true); return; }
        if (!append) timelineBody.replaceChildren();
        timelineBody.append(...postRows(r.json.posts));
        next = r.json.next;
        more.hidden = !next;
      }

      async function users(path, list) {
        const r = await Casebook.get(`/api/weibo/users/${enc(uid.value)}/${path}?limit=100`);
        if (!r.ok) { say(Casebook.problem(r), true); return; }
        list.replaceChildren(...r.json.users.map((u) => el('li', {}, u)));
        if (!r.json.users.length) list.append(el('li', { class: 'muted' }, 'nobody'));
      }

      async function show() {
        say('');
        if (!uid.value) { say('user id: required', true); return; }
        const s = await Casebook.get(`/api/weibo/users/${enc(uid.value)}`);
        if (!s.ok) { say(Casebook.problem(s), true); return; }
        stats.textContent = `${s.json.followers} followers · follows ${s.json.following} · `
          + `${s.json.posts} posts · fan-out ${s.json.fanOutOnRead ? 'on read (many followers)' : 'on write'}`;
        await timeline(false);
        const own = await Casebook.get(`/api/weibo/users/${enc(uid.value)}/posts?limit=20`);
        if (own.ok) postsBody.replaceChildren(...postRows(own.json.posts));
        await users('followers', followers);
        await users('following', following);
        Casebook.dataDrawn(postsBody);
      }

      // One image a line: its reference, then optionally `| alt text`; empty fields are left out
      // of the body, so the API sees only what was typed.
      function publishBody() {
        const body = { content: content.value };
        if (title.value) body.title = title.value;
        const lines = images.value.split('\n').filter((l) => l.trim());
        if (lines.length) {
          body.images = lines.map((l) => {
            const bar = l.indexOf('|');
            const ref = (bar < 0 ? l : l.slice(0, bar)).trim();
            const alt = bar < 0 ? '' : l.slice(bar + 1).trim();
            return alt ? { ref, alt } : { ref };
          });
        }
        return body;
      }

      async function publish() {
        const r = await Casebook.send('POST', `/api/weibo/users/${enc(uid.value)}/posts`, publishBody());
        if (!r.ok) { say(Casebook.problem(r), true); return; }
        content.value = '';
        title.value = '';
        images.value = '';
        await show();
        say(`published ${r.json.id}`);
      }

      async function follow() {
        const r = await Casebook.send('PUT', `/api/weibo/users/${enc(uid.value)}/following/${enc(target.value)}`);
        if (!r.ok) { say(Casebook.problem(r), true); return; }
        await show();
        say(`${uid.value} now follows ${target.value}`);
      }

      const showForm = el('form', { class: 'form', id: 'weibo-show' },
        el('label', {}, 'User', uid), el('button', { type: 'submit' }, 'Show'));
      showForm.addEventListener('submit', (e) => { e.preventDefault(); show(); });
      const publishForm = el('form', { class: 'form', id: 'weibo-publish' },
        el('label', {}, 'Publish as this user', content), el('label', {}, 'Title', title),
        el('label', {}, 'Images', images), el('button', { type: 'submit' }, 'Publish'),
        el('label', {}, 'Follow', target), el('button', { type: 'button', id: 'weibo-follow' }, 'Follow'));
      publishForm.addEventListener('submit', (e) => { e.preventDefault(); publish(); });
      publishForm.querySelector('#weibo-follow').addEventListener('click', follow);
      more.addEventListener('click', () => timeline(true));
      root.addEventListener('click', (e) => {
        const u = e.target.getAttribute && e.target.getAttribute('data-user');
        if (u) { e.preventDefault(); uid.value = u; show(); }
      });

      const table = (body) => el('table', { class: 'grid' },
        el('thead', {}, el('tr', {}, el('th', {}, 'When'), el('th', {}, 'Who'), el('th', {}, 'Post'))), body);
      root.append(showForm, message, stats, publishForm,
        el('h3', {}, 'Timeline'), table(timelineBody), more,
        el('h3', {}, 'Own posts'), table(postsBody),
        el('div', { class: 'cards' },
          el('div', { class: 'card' }, el('h3', {}, 'Followers'), followers),
          el('div', { class: 'card' }, el('h3', {}, 'Following'), following)));
      // A link #/system/weibo?uid=… shows that user at once.
      if (Casebook.params.uid) { uid.value = Casebook.params.uid; show(); }
    },
  });
})();
