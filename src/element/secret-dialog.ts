// The one place a webhook's URL is ever shown: after create or rotate, until this dialog closes.
// The URL lives in this closure and in the dialog's nodes only; closing empties both, and nothing
// here writes it to storage or to the console.
import { h } from './build-dom.js';
import { type Dialog, openDialog } from './dialog-shell.js';
import type { SettingsWebhook } from './element-types.js';
import type { TestAnswer } from './management-client.js';
import type { SettingsStrings } from './settings-strings.js';

export interface SecretDialogOptions {
  strings: SettingsStrings;
  webhook: SettingsWebhook;
  url: string;
  /** After a rotation: the dialog says the old URL now answers 404. */
  rotated: boolean;
  channelName: string;
  /** Posts a test message with `text` through the webhook's endpoint, with this URL. */
  sendTest: (url: string, text: string) => Promise<TestAnswer>;
  onClosed: () => void;
}

export function openSecretDialog(root: ShadowRoot, options: SecretDialogOptions): Dialog {
  const { strings, webhook, rotated } = options;
  let url: string | null = options.url;
  const input = h('input', {
    part: ['url'],
    class: 'url',
    attrs: {
      id: 'secret-url',
      type: 'text',
      readonly: true,
      autocomplete: 'off',
      spellcheck: 'false',
      'aria-describedby': 'url-warning',
    },
  });
  input.value = url;
  const curl = h(
    'pre',
    { part: ['curl'], class: 'curl', attrs: { 'aria-labelledby': 'curl-label', tabindex: '0' } },
    curlLine(url),
  );

  const copyButton = button(strings.copy, 'primary');
  const copyStatus = status();
  const curlButton = button(strings.copyCurl);
  const curlStatus = status();
  const testButton = button(strings.sendTest);
  const testResult = h('p', { part: ['test-result'], class: 'test-result', attrs: { role: 'status' } });
  const copied = (target: HTMLButtonElement, label: string, shown: HTMLElement) => () => {
    target.textContent = strings.copied;
    shown.textContent = strings.copied;
    setTimeout(() => {
      target.textContent = label;
      shown.textContent = '';
    }, 2_000);
  };
  copyButton.addEventListener('click', () =>
    copy(url ?? '', copied(copyButton, strings.copy, copyStatus), () => {
      input.select();
      copyStatus.textContent = strings.copyFailed;
    }),
  );
  curlButton.addEventListener('click', () =>
    copy(curl.textContent ?? '', copied(curlButton, strings.copyCurl, curlStatus), () => {
      selectContents(curl);
      curlStatus.textContent = strings.copyFailed;
    }),
  );
  testButton.addEventListener('click', () => void sendTest());

  return openDialog(
    root,
    {
      title: rotated ? strings.urlTitleRotated(webhook.name) : strings.urlTitleCreated(webhook.name),
      closeLabel: strings.close,
      part: 'url-dialog',
      onClosed: () => {
        url = null;
        input.value = '';
        curl.textContent = '';
        options.onClosed();
      },
    },
    (dialog) => {
      const warning = h(
        'p',
        { part: ['warning'], class: 'warning', attrs: { id: 'url-warning' } },
        strings.urlWarning(options.channelName),
      );
      dialog.element.setAttribute('aria-describedby', 'url-warning');
      const done = button(strings.done);
      done.addEventListener('click', () => dialog.close());
      dialog.body.append(
        warning,
        rotated ? h('p', { part: ['notice'], class: 'notice' }, strings.urlOldAnswers404) : '',
        h('label', { class: 'label', attrs: { for: 'secret-url' } }, strings.urlLabel),
        h('div', { class: 'row url-row' }, input, copyButton, copyStatus),
        h('p', { class: 'label', attrs: { id: 'curl-label' } }, strings.curlLabel),
        curl,
        h('div', { class: 'row' }, curlButton, curlStatus),
        h('div', { class: 'row test' }, testButton, testResult),
        h('div', { class: 'dialog-actions' }, done),
      );
      return copyButton;
    },
  );

  async function sendTest(): Promise<void> {
    if (url === null || testButton.getAttribute('aria-disabled') === 'true') return;
    testButton.setAttribute('aria-disabled', 'true');
    testButton.textContent = strings.sending;
    testResult.className = 'test-result';
    testResult.textContent = '';
    try {
      const answer = await options.sendTest(url, strings.testText(webhook.name));
      const ok = answer.status === 200 || answer.status === 201;
      testResult.classList.add(ok ? 'ok' : 'refused');
      testResult.textContent = ok
        ? strings.testSent(answer.status)
        : strings.testRefused(answer.status, answer.code ?? '', answer.detail);
    } catch (error) {
      testResult.classList.add('refused');
      testResult.textContent = (error as Error).message;
    } finally {
      testButton.removeAttribute('aria-disabled');
      testButton.textContent = strings.sendTest;
    }
  }
}

/** The ready curl line of a URL, quoted for a POSIX shell. */
export function curlLine(url: string): string {
  const quoted = `'${url.replaceAll("'", `'\\''`)}'`;
  return `curl -X POST -H 'Content-Type: application/json' \\\n  -d '{"text":"Hello from curl"}' \\\n  ${quoted}`;
}

function button(label: string, kind?: 'primary'): HTMLButtonElement {
  return h(
    'button',
    {
      part: kind === undefined ? ['button'] : ['button', kind],
      class: kind === undefined ? 'button' : `button ${kind}`,
      attrs: { type: 'button' },
    },
    label,
  );
}

function status(): HTMLElement {
  return h('span', { class: 'copy-status', attrs: { role: 'status' } });
}

/** Copies `text`; when the clipboard refuses (no permission, an insecure page), `failed` selects it for the reader. */
function copy(text: string, done: () => void, failed: () => void): void {
  const clipboard = navigator.clipboard as Clipboard | undefined;
  if (clipboard === undefined) failed();
  else clipboard.writeText(text).then(done, failed);
}

function selectContents(node: Node): void {
  document.getSelection()?.selectAllChildren(node);
}
