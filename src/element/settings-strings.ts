/**
 * Every text the settings element shows or announces. Set the element's `strings` property to
 * replace some or all of them; the ones with arguments are functions. Dates are formatted by the
 * reader's locale (`Intl.DateTimeFormat`), or the element's `locale` property.
 *
 * @example
 * ```ts
 * settings.strings = {
 *   title: 'Webhooks entrants',
 *   newWebhook: 'Nouveau webhook',
 *   revokeConfirm: (name) => `Révoquer « ${name} » pour de bon ?`,
 * };
 * ```
 */
export interface SettingsStrings {
  /** The element's heading. */
  title: string;
  /** The button that opens the form of a new webhook. */
  newWebhook: string;
  /** Shown while the list loads. */
  loading: string;
  /** The heading of the empty state. */
  emptyTitle: string;
  /** What an incoming webhook is, in the empty state. */
  emptyWhat: (channel: string) => string;
  /** How a sender uses one, in the empty state, before an example request. */
  emptyHow: string;
  /** The example request of the empty state. */
  emptyExample: string;
  /** The title of the form of a new webhook. */
  createTitle: (channel: string) => string;
  /** The label of the name field. */
  nameLabel: string;
  /** What the name is for, under its field. */
  nameHelp: string;
  /** The label of the description field. */
  descriptionLabel: string;
  /** What the description is for, under its field. */
  descriptionHelp: string;
  /** The label of the avatar field. */
  avatarLabel: string;
  /** What the avatar must be, under its field. */
  avatarHelp: string;
  /** A name the server refused. */
  invalidName: string;
  /** A description the server refused. */
  invalidDescription: string;
  /** An avatar URL the server refused. */
  invalidAvatarUrl: string;
  /** Marks the optional fields. */
  optional: string;
  /** The form's submit button. */
  create: string;
  /** The submit button while the webhook is created. */
  creating: string;
  /** The button that closes a form or a confirmation without a change. */
  cancel: string;
  /** An active webhook's state. */
  active: string;
  /** A revoked webhook's state. */
  revoked: string;
  /** When the webhook was created. */
  createdAt: (date: string) => string;
  /** When its URL was last rotated. */
  rotatedAt: (date: string) => string;
  /** When it was revoked. */
  revokedAt: (date: string) => string;
  /** When it last stored a message. */
  lastPostAt: (date: string) => string;
  /** A webhook that never stored a message. */
  noPostYet: string;
  /** The button that opens a webhook's recent posts. */
  history: string;
  /** The button that rotates a webhook's URL. */
  rotate: string;
  /** The button that revokes a webhook. */
  revoke: string;
  /** The title of the confirmation before a rotation. */
  rotateTitle: (name: string) => string;
  /** What a rotation does, in its confirmation. */
  rotateConfirm: (name: string) => string;
  /** The confirmation's button that rotates. */
  rotateYes: string;
  /** That button while the URL is rotated. */
  rotating: string;
  /** The title of the confirmation before a revocation. */
  revokeTitle: (name: string) => string;
  /** What a revocation does (and that it cannot be undone), in its confirmation. */
  revokeConfirm: (name: string) => string;
  /** The confirmation's button that revokes. */
  revokeYes: string;
  /** That button while the webhook is revoked. */
  revoking: string;
  /** The title of the dialog that shows a new webhook's URL. */
  urlTitleCreated: (name: string) => string;
  /** The title of the dialog that shows a rotated webhook's new URL. */
  urlTitleRotated: (name: string) => string;
  /** The warning that the URL is shown once and is a credential. */
  urlWarning: (channel: string) => string;
  /** After a rotation: what the old URL does now. */
  urlOldAnswers404: string;
  /** The label of the URL's field. */
  urlLabel: string;
  /** The button that copies the URL. */
  copy: string;
  /** A copy button once it copied. */
  copied: string;
  /** When the clipboard refused: the text is selected for the reader to copy. */
  copyFailed: string;
  /** The label of the curl line. */
  curlLabel: string;
  /** The button that copies the curl line. */
  copyCurl: string;
  /** The button that posts a test message. */
  sendTest: string;
  /** That button while the message is sent. */
  sending: string;
  /** The `text` of the test message. */
  testText: (name: string) => string;
  /** The test message was stored. */
  testSent: (status: number) => string;
  /** The endpoint refused the test message: its status, problem code and detail. */
  testRefused: (status: number, code: string, detail: string) => string;
  /** The server offers no test message (the management API was given no handler). */
  testUnavailable: string;
  /** The button that closes the URL's dialog. */
  done: string;
  /** The title of a webhook's recent posts. */
  historyTitle: (name: string) => string;
  /** What the recent posts are. */
  historyIntro: string;
  /** A webhook no post reached yet. */
  historyEmpty: string;
  /** The server keeps no history of posts. */
  historyUnavailable: string;
  /** Shown while the recent posts load. */
  historyLoading: string;
  /** What a post's answer means, by its status; `count` is more than 1 for a minute's 429s or 415s. */
  postOutcome: (status: number, count: number) => string;
  /** The post's idempotency key. */
  postKey: (key: string) => string;
  /** The id of the message it stored. */
  postMessage: (id: string) => string;
  /** The body's size, already formatted in the reader's locale. */
  postBytes: (bytes: string) => string;
  /** Before a refusal's hint. */
  sendInstead: string;
  /** The link at the end of a hint, to its section of the differences guide. */
  hintLink: string;
  /** The button that closes a dialog. */
  close: string;
  /** The API answered 401. */
  errorSignedOut: string;
  /** The channel does not exist or the reader may not manage its webhooks: the API does not tell which. */
  errorNotAllowed: (channel: string) => string;
  /** Likewise for a webhook, which may also have been revoked meanwhile. */
  errorWebhookGone: string;
  /** The API refused the page's request as cross-site. */
  errorRefused: string;
  /** The channel is archived: it takes no new webhook. */
  errorArchived: (channel: string) => string;
  /** No answer from the server. */
  errorNetwork: string;
  /** Any other failure, with its status (0 when there was none). */
  errorServer: (status: number) => string;
  /** The button that loads the list again after a failure. */
  retry: string;
  /** Announced once a webhook is created. */
  announceCreated: (name: string) => string;
  /** Announced once a URL is rotated. */
  announceRotated: (name: string) => string;
  /** Announced once a webhook is revoked. */
  announceRevoked: (name: string) => string;
}

const OUTCOMES: Record<number, string> = {
  200: 'Accepted again: a repeated idempotency key, so no new message.',
  201: 'Accepted: a new message.',
  400: 'Refused: the body is not a message this endpoint takes.',
  404: 'Refused: the URL was rotated or the webhook revoked while the post was on its way.',
  409: 'Refused: the channel is archived.',
  413: 'Refused: the body is larger than 64 KiB.',
  415: 'Refused: the Content-Type is not application/json.',
  429: 'Refused: more than 60 posts in 60 seconds.',
  500: 'Failed: the message could not be stored; the sender may retry with the same key.',
};

/** The element's English texts. */
export const DEFAULT_STRINGS: SettingsStrings = {
  title: 'Incoming webhooks',
  newWebhook: 'New webhook',
  loading: 'Loading webhooks…',
  emptyTitle: 'No incoming webhooks yet',
  emptyWhat: (channel) =>
    `An incoming webhook lets another system (CI, monitoring, a script) post messages into ${channel}. Each webhook has a secret URL, shown once when you create it.`,
  emptyHow:
    'The system sends an HTTP POST to that URL with a JSON body, and the message appears in the channel under the webhook’s name:',
  emptyExample:
    'POST https://…/hooks/channels/wh_…/…\nContent-Type: application/json\n\n{"text": "Deploy 142 finished"}',
  createTitle: (channel) => `New webhook in ${channel}`,
  nameLabel: 'Name',
  nameHelp: 'Shown as the author of every message it posts. It cannot be changed later.',
  descriptionLabel: 'Description',
  descriptionHelp: 'What it is for, for the people who manage it.',
  avatarLabel: 'Avatar URL',
  avatarHelp: 'An https:// image shown beside its messages.',
  invalidName: 'Give it a name of 1 to 80 characters, without control characters.',
  invalidDescription: 'Keep the description to 500 characters of plain text.',
  invalidAvatarUrl: 'Give an image address that starts with https://, without a user name or password.',
  optional: '(optional)',
  create: 'Create webhook',
  creating: 'Creating…',
  cancel: 'Cancel',
  active: 'Active',
  revoked: 'Revoked',
  createdAt: (date) => `Created ${date}`,
  rotatedAt: (date) => `URL rotated ${date}`,
  revokedAt: (date) => `Revoked ${date}`,
  lastPostAt: (date) => `Last post ${date}`,
  noPostYet: 'No post yet',
  history: 'Recent posts',
  rotate: 'Rotate URL',
  revoke: 'Revoke',
  rotateTitle: (name) => `Rotate the URL of “${name}”?`,
  rotateConfirm: () =>
    'You get a new URL, shown once. The current URL stops working at once (it answers 404), so the sending system needs the new one.',
  rotateYes: 'Rotate URL',
  rotating: 'Rotating…',
  revokeTitle: (name) => `Revoke “${name}”?`,
  revokeConfirm: () =>
    'This cannot be undone. Its URL stops working at once and for good (it answers 404). To post again, create a new webhook.',
  revokeYes: 'Revoke for good',
  revoking: 'Revoking…',
  urlTitleCreated: (name) => `“${name}” is ready`,
  urlTitleRotated: (name) => `New URL for “${name}”`,
  urlWarning: (channel) =>
    `Copy this URL now: it will not be shown again. Anyone who has it can post into ${channel}, so give it only to the sending system.`,
  urlOldAnswers404: 'The old URL now answers 404.',
  urlLabel: 'Webhook URL',
  copy: 'Copy URL',
  copied: 'Copied',
  copyFailed: 'Could not copy: select the URL and copy it yourself.',
  curlLabel: 'Try it from a terminal',
  copyCurl: 'Copy command',
  sendTest: 'Send a test message',
  sending: 'Sending…',
  testText: (name) => `Test message from the webhook settings: “${name}” works.`,
  testSent: (status) => `Sent (${status}): the test message is in the channel.`,
  testRefused: (status, code, detail) => `Refused (${status} ${code}): ${detail}`,
  testUnavailable: 'This server cannot send a test message: run the curl line instead.',
  done: 'Done',
  historyTitle: (name) => `Recent posts to “${name}”`,
  historyIntro:
    'The last posts that reached this webhook with its current or an earlier URL, newest first. Posts with a wrong URL are not counted.',
  historyEmpty: 'No post has reached this webhook yet.',
  historyUnavailable: 'This server keeps no history of posts.',
  historyLoading: 'Loading recent posts…',
  postOutcome: (status, count) =>
    `${OUTCOMES[status] ?? `Answered ${status}.`}${count > 1 ? ` ${count} posts in this minute.` : ''}`,
  postKey: (key) => `key ${key}`,
  postMessage: (id) => `message ${id}`,
  postBytes: (bytes) => `${bytes} bytes`,
  sendInstead: 'Send instead:',
  hintLink: 'how, with an example',
  close: 'Close',
  errorSignedOut: 'You are signed out. Sign in again, then retry.',
  errorNotAllowed: (channel) =>
    `You may not manage the webhooks of ${channel}, or it no longer exists. Ask its owner or an organization admin.`,
  errorWebhookGone:
    'This webhook was revoked or removed meanwhile, or you may no longer manage it. The list is up to date again.',
  errorRefused: 'The server refused this page: its management API answers pages of its own site only.',
  errorArchived: (channel) => `${channel} is archived: it takes no new webhook. Unarchive it first.`,
  errorNetwork: 'The server could not be reached. Check the connection, then retry.',
  errorServer: (status) => `The server could not do it (${status}). Retry in a moment.`,
  retry: 'Retry',
  announceCreated: (name) => `Webhook “${name}” created.`,
  announceRotated: (name) => `The URL of “${name}” was rotated.`,
  announceRevoked: (name) => `Webhook “${name}” revoked.`,
};
