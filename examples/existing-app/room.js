// The room page's script: the app's own stream of its posts table (people's and webhooks' posts
// alike), and its own form for a person's post. The browser's EventSource reconnects by itself and
// sends the last sequence number it saw, so a restart of the app neither loses nor repeats a post.
const main = document.querySelector('main');
const channel = encodeURIComponent(main.dataset.channelId);
const list = document.getElementById('posts');
const live = document.getElementById('live');
const form = document.getElementById('post');
const input = document.getElementById('text');

const stream = new EventSource(`/channels/${channel}/events`);
stream.addEventListener('open', () => {
  live.textContent = 'live';
});
stream.addEventListener('error', () => {
  live.textContent = 'reconnecting…';
});
stream.addEventListener('post', (event) => {
  const post = JSON.parse(event.data);
  const item = document.createElement('li');
  item.className = `post ${post.kind}`;
  const author = document.createElement('span');
  author.className = 'author';
  author.textContent = post.author;
  item.append(author);
  if (post.kind === 'webhook') {
    const badge = document.createElement('span');
    badge.className = 'badge';
    badge.textContent = 'webhook';
    item.append(badge);
  }
  const text = document.createElement('span');
  text.className = 'text';
  text.textContent = post.text;
  item.append(text);
  list.append(item);
});

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  const answer = await fetch(`/channels/${channel}/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ text: input.value }),
  });
  // The post reaches the list through the stream, as everyone else's does.
  if (answer.ok) input.value = '';
  else live.textContent = `Not sent (${answer.status}); try again.`;
});
