import { openConfirmDialog } from './confirm-dialog.js';
import { confirmationOf, type ConfirmedChange } from './confirmations.js';
import { openCreateDialog } from './create-dialog.js';
import { describeFailure } from './describe-failure.js';
import { createDialogSlot, type DialogSlot } from './dialog-slot.js';
import type { SettingsWebhook, WebhookEventDetail } from './element-types.js';
import { actionKey } from './focus-keys.js';
import { openHistoryDialog } from './history-dialog.js';
import {
  createManagementClient,
  type ManagementClient,
  ManagementFailure,
  type TestAnswer,
} from './management-client.js';
import { openSecretDialog } from './secret-dialog.js';
import type { SettingsEventType } from './settings-events.js';
import { DEFAULT_STRINGS, type SettingsStrings } from './settings-strings.js';
import { styleSheet } from './settings-styles.js';
import { createSettingsView, type SettingsView } from './settings-view.js';
import { createTimeFormat } from './time-format.js';
import { upgradeProperties } from './upgrade-properties.js';
import type { WebhookAction } from './webhook-list.js';

// Outside a browser (a server rendering the app's pages imports this module too) there is no
// HTMLElement: the class is then defined on an empty base and never registered.
const Base: typeof HTMLElement =
  typeof HTMLElement === 'undefined' ? (class {} as unknown as typeof HTMLElement) : HTMLElement;

/** The properties an app may set before the element is defined; they are taken over on connection. */
const PROPERTIES = ['api', 'channelId', 'channelName', 'strings', 'locale', 'fetch'] as const;

/**
 * `<channel-webhooks-settings>`: the settings screen of one channel's incoming webhooks, on the
 * management API of `channel-webhooks/manage`. It lists the webhooks and lets whoever may manage
 * them create one (its URL shown once, with a copy button, a curl line and a test message), rotate,
 * revoke, and read each one's recent posts with every refusal explained.
 *
 * Attributes: `api` (where the management API is mounted, e.g. `/api/manage`), `channel-id`, and
 * `channel-name` (shown in its texts; default `#` and the id).
 *
 * Its events bubble and are composed (they leave its shadow root); each one's `detail` is a
 * {@link WebhookEventDetail}, which never holds the URL:
 *
 * - `webhook-created`: a webhook was created
 * - `webhook-rotated`: a webhook's URL was rotated
 * - `webhook-revoked`: a webhook was revoked
 *
 * Its parts, for an app's `::part()` rules:
 *
 * - `base`: the whole screen: the header, the alert and the content
 * - `header`: the title and the New webhook button
 * - `title`: the heading
 * - `alert`: why the list could not be loaded, with Retry
 * - `content`: the list, the empty state or the loading text
 * - `list`: the list of webhooks
 * - `item`: a webhook in the list
 * - `item-active`: an active webhook's item
 * - `item-revoked`: a revoked webhook's item
 * - `avatar`: a webhook's image, or its initial
 * - `name`: a webhook's name
 * - `status`: a webhook's state
 * - `status-active`: the state of an active webhook
 * - `status-revoked`: the state of a revoked webhook
 * - `description`: a webhook's description
 * - `meta`: a webhook's dates
 * - `actions`: a webhook's buttons
 * - `button`: every button
 * - `primary`: the main button of the screen or of a dialog
 * - `danger`: a button that revokes
 * - `close`: a dialog's close button in its title bar
 * - `new`: the header's New webhook button
 * - `empty`: the empty state, before the first webhook
 * - `not-allowed`: the sentence shown instead of the list to a reader who may not manage the channel
 * - `example`: the empty state's example request
 * - `dialog`: every dialog
 * - `create-dialog`: the form of a new webhook
 * - `url-dialog`: the dialog that shows a URL, once
 * - `rotate-dialog`: the confirmation of a rotation
 * - `revoke-dialog`: the confirmation of a revocation
 * - `history-dialog`: a webhook's recent posts
 * - `dialog-title`: a dialog's title
 * - `warning`: the warning that the URL is shown once
 * - `notice`: after a rotation, that the old URL answers 404
 * - `url`: the field that holds the URL
 * - `curl`: the ready curl line
 * - `test-result`: the answer to a test message
 * - `field-error`: a field the server refused, at that field
 * - `error`: a dialog's failure
 * - `history`: the list of recent posts
 * - `post`: a recent post
 * - `post-accepted`: a post answered 200 or 201
 * - `post-refused`: a refused post
 * - `hint`: what a refused post should send instead
 *
 * Its custom properties, set on it or on an element above it (one set applies in light and dark
 * alike; their defaults follow `prefers-color-scheme`):
 *
 * - `--cw-text`: text
 * - `--cw-muted`: secondary text
 * - `--cw-surface`: the background of cards and dialogs
 * - `--cw-surface-raised`: the background of buttons and code
 * - `--cw-border`: borders
 * - `--cw-accent`: the primary buttons
 * - `--cw-on-accent`: text on the primary buttons
 * - `--cw-link`: links
 * - `--cw-focus`: the focus ring
 * - `--cw-danger`: revoke, refusals
 * - `--cw-danger-fill`: a confirmation's revoke button, a refused post's status
 * - `--cw-on-danger`: text on those
 * - `--cw-success`: active webhooks, accepted posts
 * - `--cw-success-surface`: their background
 * - `--cw-warning-surface`: the background of the "shown once" warning
 * - `--cw-warning-text`: its text
 * - `--cw-warning-border`: its border
 * - `--cw-font`: the typeface
 * - `--cw-font-mono`: the typeface of code and the URL
 * - `--cw-font-size`: the size of text
 * - `--cw-radius`: corners
 * - `--cw-backdrop`: the backdrop behind a dialog
 *
 * @example
 * ```ts
 * import 'channel-webhooks/element';
 *
 * const settings = document.createElement('channel-webhooks-settings');
 * settings.setAttribute('api', '/api/manage');
 * settings.setAttribute('channel-id', 'general');
 * settings.addEventListener('webhook-created', (event) => console.info('created', event.detail.webhook.name));
 * document.body.append(settings);
 * ```
 */
export class ChannelWebhooksSettings extends Base {
  /** The attributes the element follows. */
  static readonly observedAttributes = ['api', 'channel-id', 'channel-name'];

  #strings: SettingsStrings = DEFAULT_STRINGS;
  #locale: string | undefined;
  #fetch: typeof fetch | undefined;
  #webhooks: SettingsWebhook[] | null = null;
  #loadFailure: unknown = null;
  #loads = 0;
  #connected = false;
  readonly #root: ShadowRoot;
  readonly #view: SettingsView;
  readonly #dialogs: DialogSlot;

  constructor() {
    super();
    this.#root = this.attachShadow({ mode: 'open' });
    this.#root.adoptedStyleSheets = [styleSheet()];
    this.#view = createSettingsView(this.#root, {
      onNew: (opener) => this.#openCreate(opener),
      onRetry: () => void this.refresh(),
      onAction: (action, webhook) => this.#act(action, webhook),
    });
    this.#dialogs = createDialogSlot((key) => this.#view.focus(key));
  }

  /** Where the management API is mounted: absolute, or relative to the page (the `api` attribute). */
  get api(): string {
    return this.getAttribute('api') ?? '';
  }
  set api(value: string) {
    this.setAttribute('api', value);
  }

  /** The channel whose webhooks are shown (the `channel-id` attribute). */
  get channelId(): string {
    return this.getAttribute('channel-id') ?? '';
  }
  set channelId(value: string) {
    this.setAttribute('channel-id', value);
  }

  /** The channel's name in the element's texts (the `channel-name` attribute); default `#` and the id. */
  get channelName(): string {
    return this.getAttribute('channel-name') ?? `#${this.channelId}`;
  }
  set channelName(value: string) {
    this.setAttribute('channel-name', value);
  }

  /** Every text the element shows; setting it replaces the texts it names and keeps the others. */
  get strings(): SettingsStrings {
    return this.#strings;
  }
  set strings(value: Partial<SettingsStrings>) {
    this.#strings = { ...DEFAULT_STRINGS, ...value };
    this.#render();
  }

  /** The locale of dates and numbers (a BCP 47 tag); by default the reader's. */
  get locale(): string | undefined {
    return this.#locale;
  }
  set locale(value: string | undefined) {
    this.#locale = value;
    this.#render();
  }

  /**
   * The `fetch` the element calls the management API with, e.g. one that adds the app's
   * `Authorization` header. Default: the global `fetch`, sending the page's cookies to the API's
   * origin when it is the page's own.
   */
  get fetch(): typeof fetch {
    return this.#fetch ?? ((input, init) => globalThis.fetch(input, init));
  }
  set fetch(value: typeof fetch | undefined) {
    this.#fetch = value;
  }

  /** The webhooks shown, revoked ones included, as last loaded; empty until the first load. */
  get webhooks(): readonly SettingsWebhook[] {
    return this.#webhooks ?? [];
  }

  /** Loads the channel's webhooks again, e.g. after a message arrived (for its "last post"). */
  async refresh(): Promise<void> {
    const load = ++this.#loads;
    if (this.api === '' || this.channelId === '') return;
    this.#view.setBusy(true);
    try {
      const webhooks = await this.#client().list(this.channelId);
      if (load !== this.#loads) return;
      this.#webhooks = webhooks;
      this.#loadFailure = null;
    } catch (failure) {
      if (load !== this.#loads) return;
      this.#loadFailure = failure;
    }
    this.#view.setBusy(false);
    this.#render();
  }

  /** @internal */
  connectedCallback(): void {
    upgradeProperties(this, PROPERTIES);
    this.#connected = true;
    this.#render();
    if (this.#webhooks === null) void this.refresh();
  }

  /** @internal */
  disconnectedCallback(): void {
    this.#connected = false;
    this.#dialogs.close();
  }

  /** @internal */
  attributeChangedCallback(name: string, previous: string | null, value: string | null): void {
    if (previous === value) return;
    if (name !== 'channel-name') this.#webhooks = null;
    this.#render();
    // Before connection (the parser sets the attributes first), connectedCallback loads the list.
    if (name !== 'channel-name' && this.#connected) void this.refresh();
  }

  #client(): ManagementClient {
    return createManagementClient(this.api, this.fetch, document.baseURI);
  }

  #render(): void {
    this.#view.render({
      strings: this.#strings,
      locale: this.#locale,
      channelName: this.channelName,
      webhooks: this.#webhooks,
      loadFailure: this.#loadFailure,
    });
  }

  /** A failure of an action in a dialog, in words; a webhook gone meanwhile also reloads the list behind it. */
  #explain(failure: unknown): string {
    if (failure instanceof ManagementFailure && failure.kind === 'webhook_gone') void this.refresh();
    return describeFailure(failure, this.#strings, this.channelName);
  }

  /** After a change: the list shows it at once, the app hears of it, and the list is loaded again. */
  #changed(type: SettingsEventType, webhook: SettingsWebhook, announcement: string): void {
    const known = this.#webhooks ?? [];
    this.#webhooks = known.some(({ id }) => id === webhook.id)
      ? known.map((other) => (other.id === webhook.id ? webhook : other))
      : [...known, webhook];
    this.#render();
    const detail: WebhookEventDetail = { webhook };
    this.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }));
    this.#view.announce(announcement);
    void this.refresh();
  }

  #openCreate(opener: string): void {
    this.#dialogs.open(opener, (onClosed) =>
      openCreateDialog(this.#root, {
        strings: this.#strings,
        channelName: this.channelName,
        describe: (failure) => this.#explain(failure),
        submit: async (input) => {
          const created = await this.#client().create(this.channelId, input);
          this.#dialogs.handOver();
          this.#changed('webhook-created', created.webhook, this.#strings.announceCreated(created.webhook.name));
          this.#showUrl(opener, created.webhook, created.url, false);
        },
        onClosed,
      }),
    );
  }

  #act(action: WebhookAction, webhook: SettingsWebhook): void {
    const opener = actionKey(action, webhook.id);
    if (action === 'history') this.#openHistory(opener, webhook);
    else this.#confirm(opener, action, webhook);
  }

  #confirm(opener: string, change: ConfirmedChange, webhook: SettingsWebhook): void {
    const confirmation = confirmationOf(change, webhook, {
      strings: this.#strings,
      client: () => this.#client(),
      after: {
        handOver: () => this.#dialogs.handOver(),
        changed: (type, changed, announcement) => this.#changed(type, changed, announcement),
        showUrl: (changed, url, rotated) => this.#showUrl(opener, changed, url, rotated),
        close: () => this.#dialogs.close(),
      },
    });
    this.#dialogs.open(opener, (onClosed) =>
      openConfirmDialog(this.#root, { ...confirmation, describe: (failure) => this.#explain(failure), onClosed }),
    );
  }

  #showUrl(opener: string, webhook: SettingsWebhook, url: string, rotated: boolean): void {
    this.#dialogs.open(opener, (onClosed) =>
      openSecretDialog(this.#root, {
        strings: this.#strings,
        webhook,
        url,
        rotated,
        channelName: this.channelName,
        sendTest: (current, text) => this.#sendTest(webhook.id, current, text),
        onClosed,
      }),
    );
  }

  /**
   * A test message through the webhook's endpoint with `url`, always posted by the management API,
   * the URL in the JSON body: a request to the URL itself would put the secret in the page's
   * Resource Timing, by name, where any script of the page (a real-user-monitoring agent) reads it
   * and a `PerformanceObserver` is handed it at once. It also reaches the endpoint on another origin,
   * which answers POST only, never a CORS preflight.
   */
  async #sendTest(webhookId: string, url: string, text: string): Promise<TestAnswer> {
    let answer: TestAnswer;
    try {
      answer = await this.#client().test(webhookId, url, text);
    } catch (failure) {
      throw new Error(this.#explain(failure));
    }
    // A test message that arrived is the webhook's last post: the list behind the dialog shows it.
    if (answer.status === 201) void this.refresh();
    return answer;
  }

  #openHistory(opener: string, webhook: SettingsWebhook): void {
    this.#dialogs.open(opener, (onClosed) =>
      openHistoryDialog(this.#root, {
        strings: this.#strings,
        webhook,
        format: () => createTimeFormat(this.#locale),
        posts: () => this.#client().posts(webhook.id),
        describe: (failure) => this.#explain(failure),
        onClosed,
      }),
    );
  }
}
