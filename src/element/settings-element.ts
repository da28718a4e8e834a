import { h } from './build-dom.js';
import { openConfirmDialog } from './confirm-dialog.js';
import { openCreateDialog } from './create-dialog.js';
import { type Dialog, openDialog } from './dialog-shell.js';
import type { SettingsWebhook, WebhookEventDetail } from './element-types.js';
import { renderHistory } from './history-view.js';
import {
  createManagementClient,
  type ManagementClient,
  ManagementFailure,
  type TestAnswer,
} from './management-client.js';
import { openSecretDialog } from './secret-dialog.js';
import { DEFAULT_STRINGS, type SettingsStrings } from './settings-strings.js';
import { styleSheet } from './settings-styles.js';
import { createTimeFormat } from './time-format.js';
import { renderWebhooks, type WebhookAction } from './webhook-list.js';

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
 * `channel-name` (shown in its texts; default `#` and the id). Events, bubbling and composed:
 * `webhook-created`, `webhook-rotated`, `webhook-revoked`, whose `detail` is
 * {@link WebhookEventDetail} (never the URL).
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
  #dialog: Dialog | null = null;
  #handingOver = false;
  #connected = false;
  #shownFailure: unknown = null;
  readonly #root: ShadowRoot;
  readonly #content: HTMLElement;
  readonly #alert: HTMLElement;
  readonly #status: HTMLElement;
  readonly #title: HTMLElement;
  readonly #newButton: HTMLButtonElement;

  constructor() {
    super();
    this.#root = this.attachShadow({ mode: 'open' });
    this.#root.adoptedStyleSheets = [styleSheet()];
    this.#title = h('h2', { part: ['title'], class: 'title', attrs: { id: 'title', tabindex: '-1' } });
    this.#newButton = h('button', {
      part: ['button', 'primary', 'new'],
      class: 'button primary',
      attrs: { type: 'button', 'data-focus': 'new' },
      on: { click: () => this.#openCreate('new') },
    });
    this.#alert = h('div', { part: ['alert'], class: 'alert', attrs: { role: 'alert' } });
    this.#status = h('p', { class: 'visually-hidden', attrs: { role: 'status' } });
    this.#content = h('div', { part: ['content'], class: 'content' });
    this.#root.append(
      h(
        'section',
        { part: ['base'], class: 'base', attrs: { 'aria-labelledby': 'title' } },
        h('div', { part: ['header'], class: 'header' }, this.#title, this.#newButton),
        this.#alert,
        this.#content,
        this.#status,
      ),
    );
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
    this.#content.setAttribute('aria-busy', 'true');
    try {
      const webhooks = await this.#client().list(this.channelId);
      if (load !== this.#loads) return;
      this.#webhooks = webhooks;
      this.#loadFailure = null;
    } catch (failure) {
      if (load !== this.#loads) return;
      this.#loadFailure = failure;
    }
    this.#content.removeAttribute('aria-busy');
    this.#render();
  }

  /** @internal */
  connectedCallback(): void {
    for (const name of PROPERTIES) this.#takeOver(name);
    this.#connected = true;
    this.#render();
    if (this.#webhooks === null) void this.refresh();
  }

  /** @internal */
  disconnectedCallback(): void {
    this.#connected = false;
    this.#dialog?.close();
  }

  /** @internal */
  attributeChangedCallback(name: string, previous: string | null, value: string | null): void {
    if (previous === value) return;
    if (name !== 'channel-name') this.#webhooks = null;
    this.#render();
    // Before connection (the parser sets the attributes first), connectedCallback loads the list.
    if (name !== 'channel-name' && this.#connected) void this.refresh();
  }

  /** A property set on the element before it was defined shadows the class's: set it again through the class. */
  #takeOver(name: (typeof PROPERTIES)[number]): void {
    if (!Object.hasOwn(this, name)) return;
    const value = (this as Record<string, unknown>)[name];
    delete (this as Record<string, unknown>)[name];
    (this as Record<string, unknown>)[name] = value;
  }

  #client(): ManagementClient {
    return createManagementClient(this.api, this.fetch, document.baseURI);
  }

  #render(): void {
    const strings = this.#strings;
    this.#title.textContent = strings.title;
    this.#newButton.textContent = strings.newWebhook;
    const focused = (this.#root.activeElement as HTMLElement | null)?.dataset.focus;
    // The alert is written only when its failure changes, so that it is announced once.
    if (this.#loadFailure !== this.#shownFailure) {
      this.#shownFailure = this.#loadFailure;
      if (this.#loadFailure === null) this.#alert.replaceChildren();
      else this.#showFailure(this.#loadFailure, () => void this.refresh());
    }
    // A reader who may not manage this channel's webhooks has nothing to create until that changes.
    const kind = this.#loadFailure instanceof ManagementFailure ? this.#loadFailure.kind : null;
    this.#newButton.hidden = this.#webhooks === null && (kind === 'signed_out' || kind === 'not_allowed');
    if (this.#webhooks === null) {
      this.#content.replaceChildren(this.#loadFailure === null ? h('p', { class: 'loading' }, strings.loading) : '');
    } else {
      this.#content.replaceChildren(
        renderWebhooks(this.#webhooks, {
          strings,
          format: createTimeFormat(this.#locale),
          channelName: this.channelName,
          onAction: (action, webhook) => this.#act(action, webhook),
          onNew: () => this.#openCreate('new-empty'),
        }),
      );
    }
    if (focused !== undefined) this.#focus(focused);
  }

  #showFailure(failure: unknown, retry?: () => void): void {
    const strings = this.#strings;
    const text = h('p', { class: 'alert-text' }, this.#describe(failure));
    const button =
      retry === undefined
        ? []
        : [
            h(
              'button',
              {
                part: ['button'],
                class: 'button',
                attrs: { type: 'button', 'data-focus': 'retry' },
                on: { click: retry },
              },
              strings.retry,
            ),
          ];
    this.#alert.replaceChildren(text, ...button);
  }

  /** A failure of an action in a dialog, in words; a webhook gone meanwhile also reloads the list behind it. */
  #explain(failure: unknown): string {
    if (failure instanceof ManagementFailure && failure.kind === 'webhook_gone') void this.refresh();
    return this.#describe(failure);
  }

  /** A failure in the reader's words. */
  #describe(failure: unknown): string {
    const strings = this.#strings;
    if (!(failure instanceof ManagementFailure)) return strings.errorServer(0);
    switch (failure.kind) {
      case 'signed_out':
        return strings.errorSignedOut;
      case 'not_allowed':
        return strings.errorNotAllowed(this.channelName);
      case 'webhook_gone':
        return strings.errorWebhookGone;
      case 'refused':
        return strings.errorRefused;
      case 'archived':
        return strings.errorArchived(this.channelName);
      case 'network':
        return strings.errorNetwork;
      case 'unavailable':
        return strings.historyUnavailable;
      default:
        return strings.errorServer(failure.status);
    }
  }

  /** Moves focus to the control with this key, or to the nearest one that still exists. */
  #focus(key: string): void {
    const find = (candidate: string) =>
      this.#root.querySelector<HTMLElement>(`[data-focus="${CSS.escape(candidate)}"]`);
    const webhookId = key.includes(':') ? key.slice(key.indexOf(':') + 1) : null;
    const target =
      find(key) ?? (webhookId === null ? null : find(`history:${webhookId}`)) ?? find('new') ?? this.#title;
    target.focus();
  }

  #announce(text: string): void {
    this.#status.textContent = '';
    // A new text node is announced even when it says what the last one said.
    queueMicrotask(() => (this.#status.textContent = text));
  }

  #emit(type: 'webhook-created' | 'webhook-rotated' | 'webhook-revoked', webhook: SettingsWebhook): void {
    const detail: WebhookEventDetail = { webhook };
    this.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }));
  }

  /** Opens a dialog; when it closes, focus goes back to the control with key `opener`. */
  #open(opener: string, open: (onClosed: () => void) => Dialog): void {
    this.#dialog?.close();
    const dialog = open(() => {
      if (this.#dialog === dialog) this.#dialog = null;
      if (!this.#handingOver) this.#focus(opener);
    });
    this.#dialog = dialog;
  }

  /** Closes the open dialog for another that follows it (a confirmation for the URL it made): focus stays for that one. */
  #handOver(): void {
    this.#handingOver = true;
    try {
      this.#dialog?.close();
    } finally {
      this.#handingOver = false;
    }
  }

  #openCreate(opener: string): void {
    this.#open(opener, (onClosed) =>
      openCreateDialog(this.#root, {
        strings: this.#strings,
        channelName: this.channelName,
        describe: (failure) => this.#explain(failure),
        submit: async (input) => {
          const created = await this.#client().create(this.channelId, input);
          this.#handOver();
          this.#afterChange('webhook-created', created.webhook, this.#strings.announceCreated(created.webhook.name));
          this.#showUrl(opener, created.webhook, created.url, false);
        },
        onClosed,
      }),
    );
  }

  #act(action: WebhookAction, webhook: SettingsWebhook): void {
    const opener = `${action}:${webhook.id}`;
    if (action === 'history') this.#openHistory(opener, webhook);
    else if (action === 'rotate') this.#confirmRotate(opener, webhook);
    else this.#confirmRevoke(opener, webhook);
  }

  #confirmRotate(opener: string, webhook: SettingsWebhook): void {
    const strings = this.#strings;
    this.#open(opener, (onClosed) =>
      openConfirmDialog(this.#root, {
        title: strings.rotateTitle(webhook.name),
        message: strings.rotateConfirm(webhook.name),
        confirm: strings.rotateYes,
        working: strings.rotating,
        cancel: strings.cancel,
        part: 'rotate-dialog',
        tone: 'primary',
        describe: (failure) => this.#explain(failure),
        run: async () => {
          const rotated = await this.#client().rotate(webhook.id);
          this.#handOver();
          this.#afterChange('webhook-rotated', rotated.webhook, strings.announceRotated(rotated.webhook.name));
          this.#showUrl(opener, rotated.webhook, rotated.url, true);
        },
        onClosed,
      }),
    );
  }

  #confirmRevoke(opener: string, webhook: SettingsWebhook): void {
    const strings = this.#strings;
    this.#open(opener, (onClosed) =>
      openConfirmDialog(this.#root, {
        title: strings.revokeTitle(webhook.name),
        message: strings.revokeConfirm(webhook.name),
        confirm: strings.revokeYes,
        working: strings.revoking,
        cancel: strings.cancel,
        part: 'revoke-dialog',
        tone: 'danger',
        describe: (failure) => this.#explain(failure),
        run: async () => {
          const revoked = await this.#client().revoke(webhook.id);
          this.#afterChange('webhook-revoked', revoked, strings.announceRevoked(revoked.name));
          this.#dialog?.close();
        },
        onClosed,
      }),
    );
  }

  /** After a change: the list shows it at once, the app hears of it, and the list is loaded again. */
  #afterChange(
    type: 'webhook-created' | 'webhook-rotated' | 'webhook-revoked',
    webhook: SettingsWebhook,
    announcement: string,
  ): void {
    const others = (this.#webhooks ?? []).filter((known) => known.id !== webhook.id);
    const index = (this.#webhooks ?? []).findIndex((known) => known.id === webhook.id);
    this.#webhooks =
      index === -1
        ? [...others, webhook]
        : (this.#webhooks ?? []).map((known) => (known.id === webhook.id ? webhook : known));
    this.#render();
    this.#emit(type, webhook);
    this.#announce(announcement);
    void this.refresh();
  }

  #showUrl(opener: string, webhook: SettingsWebhook, url: string, rotated: boolean): void {
    this.#open(opener, (onClosed) =>
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
    const answer = await this.#postTest(webhookId, url, text);
    // A test message that arrived is the webhook's last post: the list behind the dialog shows it.
    if (answer.status === 201) void this.refresh();
    return answer;
  }

  async #postTest(webhookId: string, url: string, text: string): Promise<TestAnswer> {
    try {
      return await this.#client().test(webhookId, url, text);
    } catch (failure) {
      const unavailable = failure instanceof ManagementFailure && failure.code === 'test_unavailable';
      throw new Error(unavailable ? this.#strings.testUnavailable : this.#explain(failure));
    }
  }

  #openHistory(opener: string, webhook: SettingsWebhook): void {
    const strings = this.#strings;
    this.#open(opener, (onClosed) =>
      openDialog(
        this.#root,
        { title: strings.historyTitle(webhook.name), closeLabel: strings.close, part: 'history-dialog', onClosed },
        (dialog) => {
          const intro = h('p', { class: 'history-intro' }, strings.historyIntro);
          dialog.describedBy(intro);
          const list = h(
            'div',
            { class: 'history-content', attrs: { 'aria-busy': 'true' } },
            h('p', {}, strings.historyLoading),
          );
          const close = h(
            'button',
            { part: ['button'], class: 'button', attrs: { type: 'button' }, on: { click: () => dialog.close() } },
            strings.close,
          );
          dialog.body.append(intro, list, h('div', { class: 'dialog-actions' }, close));
          this.#client()
            .posts(webhook.id)
            .then(
              (posts) => list.replaceChildren(renderHistory(posts, strings, createTimeFormat(this.#locale))),
              (failure) => list.replaceChildren(h('p', { class: 'form-error' }, this.#explain(failure))),
            )
            .finally(() => list.removeAttribute('aria-busy'));
          return close;
        },
      ),
    );
  }
}
