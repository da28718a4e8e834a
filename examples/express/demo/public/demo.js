// The demo page's script (a file, so the page's Content-Security-Policy can forbid inline script).
// Messages arrive over Server-Sent Events; the webhooks are <channel-webhooks-settings>'s, on the
// management API under /demo/api/manage.

const $ = (id) => document.getElementById(id);
const settings = document.querySelector('channel-webhooks-settings');

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function addMessage(message) {
  const item = messageItem(message);
  const list = $('messages');
  const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
  list.append(item);
  $('empty').hidden = true;
  if (atBottom) list.scrollTop = list.scrollHeight;
}

function messageItem(message) {
  const item = element('li', 'message');
  item.dataset.id = message.id;
  const name = message.author.name;
  item.append(element('div', 'avatar', [...name.trim()][0]?.toUpperCase() ?? '?'));
  const main = element('div', 'message-main');
  const meta = element('div', 'meta');
  meta.append(element('span', 'author', name), element('span', 'badge', 'webhook'));
  const time = element(
    'time',
    '',
    new Date(message.createdAt).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' }),
  );
  time.dateTime = message.createdAt;
  meta.append(time);
  const content = element('div', 'content');
  // toHtml's output, made on the server from allow-listed elements only, with every string escaped;
  // null when the server could not render this message.
  if (typeof message.html === 'string') content.innerHTML = message.html;
  else content.append(element('p', 'unrenderable', 'This message could not be shown.'));
  main.append(meta, content);
  item.append(main);
  return item;
}

// The stream starts with the channel's history and goes on live. Each event's id is its place in
// the channel's feed: after a dropped connection or a server restart, the browser reconnects with
// the last one (Last-Event-ID) and the stream resumes right after it, so nothing is lost or shown
// twice. A `reset` says the server cannot resume from there (its store was emptied): start over.
const events = new EventSource('/demo/api/events');
events.addEventListener('open', () => ($('live').textContent = 'live'));
events.addEventListener('error', () => ($('live').textContent = 'reconnecting…'));
events.addEventListener('message', (event) => {
  addMessage(JSON.parse(event.data));
  refreshSoon();
});
events.addEventListener('reset', () => {
  $('messages').replaceChildren();
  $('empty').hidden = false;
});

/** A message changes its webhook's "last post": the settings load their list again, once for a burst. */
let refreshing = false;
function refreshSoon() {
  if (refreshing) return;
  refreshing = true;
  setTimeout(() => {
    refreshing = false;
    settings.refresh();
  }, 500);
}
