// The social feed's console page: a user's timeline (paged), own posts, followers and following,
// and the two writes people try first — publish and follow; #/system/weibo?uid=… opens a user.
// Only /api/weibo/ routes.
'use strict';

(() => {
  const { el } = Casebook;
  const enc = encodeURIComponent;

  function when(ts) {
    return new Date(ts).toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC');
  }

  function postRows(posts) {
    return posts.map((p) => el('tr', { 'data-post': p.id },
      el('td', {}, when(p.ts)), el('td', {}, el('a', { href: '#', 'data-user': p.uid }, p.uid)),
      el('td', {}, p.content)));
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

      async function publish() {
        const r = await Casebook.send('POST', `/api/weibo/users/${enc(uid.value)}/posts`, { content: content.value });
        if (!r.ok) { say(Casebook.problem(r), true); return; }
        content.value = '';
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
        el('label', {}, 'Publish as this user', content), el('button', { type: 'submit' }, 'Publish'),
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
