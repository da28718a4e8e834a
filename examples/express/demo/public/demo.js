// The demo page's script (a file, so the page's Content-Security-Policy can forbid inline script).
// Messages arrive over Server-Sent Events; owner actions call the demo-only API under /demo/api.

const $ = (id) => document.getElementById(id);
/** The webhook whose secret URL the page shows, if any. */
let secret = null;

const SAMPLE = {
  text: 'Deploy 142 finished: checkout-service is live',
  blocks: [
    { type: 'header', text: { type: 'plain_text', text: 'Deploy 142 finished' } },
    { type: 'section', text: { type: 'mrkdwn', text: '*checkout-service* is live on `production`, 12 instances healthy' } },
    { type: 'context', elements: [{ type: 'mrkdwn', text: 'Sent from the demo page through the webhook URL' }] },
  ],
};

async function api(path, body) {
  const init = body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
  const response = await fetch(`/demo/api${path}`, init);
  const json = await response.json();
  if (!response.ok) throw new Error(json.message ?? `HTTP ${response.status}`);
  return json;
}

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
  const time = element('time', '', new Date(message.createdAt).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' }));
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

function showSecret(webhook, url) {
  secret = { id: webhook.id, url };
  $('secret').hidden = false;
  $('secret-name').textContent = webhook.name;
  $('secret-url').value = url;
  $('curl').textContent = `curl -i -X POST \\\n  -H 'Content-Type: application/json' \\\n  -d '{"text":"Hello from curl"}' \\\n  '${url}'`;
  $('result').textContent = '';
  $('result').className = 'result';
}

function renderState({ channel, webhooks }) {
  const archived = channel.archived;
  $('channel-state').textContent = archived ? 'archived' : 'active';
  $('channel-state').classList.toggle('archived', archived);
  $('archive').textContent = archived ? 'Unarchive #general' : 'Archive #general';
  $('archive').dataset.archived = String(archived);
  const list = $('webhooks');
  list.replaceChildren();
  $('no-webhooks').hidden = webhooks.length > 0;
  for (const webhook of webhooks) list.append(webhookRow(webhook));
  // A revoked URL is dead: it leaves the screen, and its sample button with it.
  const shownHook = webhooks.find((webhook) => webhook.id === secret?.id);
  if (secret !== null && shownHook?.status !== 'active') {
    $('notice').textContent = `“${shownHook?.name ?? 'The webhook'}” is revoked: its URL now answers 404.`;
    hideSecret();
  }
}

function hideSecret() {
  secret = null;
  $('secret').hidden = true;
  $('secret-url').value = '';
  $('curl').textContent = '';
  $('result').textContent = '';
}

function webhookRow(webhook) {
  const row = element('li', 'webhook');
  row.dataset.id = webhook.id;
  const info = element('div', 'webhook-info');
  info.append(element('span', 'webhook-name', webhook.name), element('span', `pill ${webhook.status}`, webhook.status));
  const detail = webhook.rotatedAt
    ? `rotated ${new Date(webhook.rotatedAt).toLocaleTimeString()}`
    : `created ${new Date(webhook.createdAt).toLocaleTimeString()}`;
  info.append(element('span', 'note', detail));
  row.append(info);
  if (webhook.status !== 'active') return row;
  const actions = element('div', 'actions');
  const rotate = element('button', 'rotate', 'Rotate');
  rotate.type = 'button';
  rotate.addEventListener('click', () =>
    act(async () => {
      const { webhook: rotated, url } = await api(`/webhooks/${encodeURIComponent(webhook.id)}/rotate`, {});
      showSecret(rotated, url);
    }),
  );
  const revoke = element('button', 'revoke danger', 'Revoke');
  revoke.type = 'button';
  revoke.addEventListener('click', () => {
    // Revoking cannot be undone: ask first, in the row itself.
    const confirm = element('div', 'confirm');
    confirm.append(element('span', '', `Revoke “${webhook.name}” for good? Its URL stops working at once.`));
    const yes = element('button', 'confirm-revoke danger', 'Yes, revoke');
    const no = element('button', '', 'Cancel');
    yes.type = no.type = 'button';
    yes.addEventListener('click', () => act(() => api(`/webhooks/${encodeURIComponent(webhook.id)}/revoke`, {})));
    no.addEventListener('click', () => confirm.replaceWith(actions));
    confirm.append(yes, no);
    actions.replaceWith(confirm);
  });
  actions.append(rotate, revoke);
  row.append(actions);
  return row;
}

async function act(work) {
  $('error').textContent = '';
  $('notice').textContent = '';
  try {
    await work();
  } catch (error) {
    $('error').textContent = error.message;
  }
  renderState(await api('/state'));
}

async function sendSample() {
  // Post through the real webhook URL, as any sender would; only its path is used so that the
  // request goes to this page's origin (the Content-Security-Policy allows no other).
  const { pathname } = new URL(secret.url);
  const response = await fetch(pathname, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(SAMPLE) });
  const body = await response.json();
  const ok = response.status === 201 || response.status === 200;
  $('result').className = `result ${ok ? 'ok' : 'failed'}`;
  $('result').textContent = ok ? `${response.status} ${response.statusText}` : `${response.status} ${body.code}: ${body.detail}`;
}

$('create').addEventListener('submit', (event) => {
  event.preventDefault();
  act(async () => {
    const { webhook, url } = await api('/webhooks', { name: $('name').value });
    $('name').value = '';
    showSecret(webhook, url);
  });
});
$('copy').addEventListener('click', async () => {
  await navigator.clipboard.writeText(secret.url);
  $('copy').textContent = 'Copied';
  setTimeout(() => ($('copy').textContent = 'Copy'), 1500);
});
$('sample').addEventListener('click', () => sendSample().catch((error) => ($('result').textContent = error.message)));
$('archive').addEventListener('click', () => act(() => api('/channel', { archived: $('archive').dataset.archived !== 'true' })));

// The stream starts with the channel's history and goes on live. Each event's id is its place in
// the channel's feed: after a dropped connection or a server restart, the browser reconnects with
// the last one (Last-Event-ID) and the stream resumes right after it, so nothing is lost or shown
// twice. A `reset` says the server cannot resume from there (its store was emptied): start over.
const events = new EventSource('/demo/api/events');
events.addEventListener('open', () => ($('live').textContent = 'live'));
events.addEventListener('error', () => ($('live').textContent = 'reconnecting…'));
events.addEventListener('message', (event) => addMessage(JSON.parse(event.data)));
events.addEventListener('reset', () => {
  $('messages').replaceChildren();
  $('empty').hidden = false;
});
act(async () => {});
