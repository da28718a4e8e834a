// The form of a new webhook: its name and, optionally, its description and avatar. A refusal of a
// field is shown at that field (and it gets the focus); any other failure above the buttons.
import { h } from './build-dom.js';
import { type Dialog, openDialog } from './dialog-shell.js';
import { ManagementFailure, type NewWebhook } from './management-client.js';
import type { SettingsStrings } from './settings-strings.js';

export interface CreateDialogOptions {
  strings: SettingsStrings;
  channelName: string;
  /** Creates the webhook; resolves once it exists, or throws a ManagementFailure. */
  submit: (input: NewWebhook) => Promise<void>;
  /** Puts a failure other than a refused field into words. */
  describe: (failure: unknown) => string;
  onClosed: () => void;
}

// The manager's refusal codes of each field.
const FIELD_OF_CODE: Record<
  string,
  { field: 'name' | 'description' | 'avatarUrl'; text: 'invalidName' | 'invalidDescription' | 'invalidAvatarUrl' }
> = {
  invalid_name: { field: 'name', text: 'invalidName' },
  invalid_description: { field: 'description', text: 'invalidDescription' },
  invalid_avatar_url: { field: 'avatarUrl', text: 'invalidAvatarUrl' },
};

export function openCreateDialog(root: ShadowRoot, options: CreateDialogOptions): Dialog {
  const { strings } = options;
  const field = (
    name: 'name' | 'description' | 'avatarUrl',
    label: string,
    help: string,
    control: HTMLInputElement | HTMLTextAreaElement,
    optional: boolean,
  ) => {
    const id = `field-${name}`;
    const error = h('p', { part: ['field-error'], class: 'field-error', attrs: { id: `${id}-error` } });
    control.id = id;
    control.name = name;
    control.setAttribute('aria-describedby', `${id}-help ${id}-error`);
    return {
      control,
      error,
      node: h(
        'div',
        { class: 'field' },
        h(
          'label',
          { class: 'label', attrs: { for: id } },
          label,
          optional ? h('span', { class: 'optional' }, ` ${strings.optional}`) : null,
        ),
        control,
        h('p', { class: 'help', attrs: { id: `${id}-help` } }, help),
        error,
      ),
    };
  };
  const fields = {
    name: field(
      'name',
      strings.nameLabel,
      strings.nameHelp,
      h('input', { attrs: { type: 'text', required: true, maxlength: '80', autocomplete: 'off' } }),
      false,
    ),
    description: field(
      'description',
      strings.descriptionLabel,
      strings.descriptionHelp,
      h('textarea', { attrs: { rows: '3', maxlength: '500' } }),
      true,
    ),
    avatarUrl: field(
      'avatarUrl',
      strings.avatarLabel,
      strings.avatarHelp,
      h('input', { attrs: { type: 'url', autocomplete: 'off', placeholder: 'https://' } }),
      true,
    ),
  };
  const formError = h('p', { part: ['error'], class: 'form-error', attrs: { role: 'alert' } });
  const submit = h(
    'button',
    { part: ['button', 'primary'], class: 'button primary', attrs: { type: 'submit' } },
    strings.create,
  );
  let busy = false;

  return openDialog(
    root,
    {
      title: strings.createTitle(options.channelName),
      closeLabel: strings.cancel,
      part: 'create-dialog',
      onClosed: options.onClosed,
    },
    (dialog) => {
      const cancel = h(
        'button',
        { part: ['button'], class: 'button', attrs: { type: 'button' }, on: { click: () => dialog.close() } },
        strings.cancel,
      );
      const form = h(
        'form',
        { class: 'form', attrs: { novalidate: true } },
        fields.name.node,
        fields.description.node,
        fields.avatarUrl.node,
        formError,
        h('div', { class: 'dialog-actions' }, cancel, submit),
      );
      form.addEventListener('submit', (event) => {
        event.preventDefault();
        void send();
      });
      dialog.body.append(form);
      return fields.name.control;
    },
  );

  async function send(): Promise<void> {
    if (busy) return;
    for (const { control, error } of Object.values(fields)) {
      control.removeAttribute('aria-invalid');
      error.textContent = '';
    }
    formError.textContent = '';
    const input: NewWebhook = { name: fields.name.control.value };
    const description = fields.description.control.value.trim();
    const avatarUrl = fields.avatarUrl.control.value.trim();
    if (description !== '') input.description = description;
    if (avatarUrl !== '') input.avatarUrl = avatarUrl;
    busy = true;
    submit.setAttribute('aria-disabled', 'true');
    submit.textContent = strings.creating;
    try {
      await options.submit(input);
    } catch (failure) {
      const refused = failure instanceof ManagementFailure ? FIELD_OF_CODE[failure.code ?? ''] : undefined;
      if (refused === undefined) {
        formError.textContent = options.describe(failure);
      } else {
        const { control, error } = fields[refused.field];
        control.setAttribute('aria-invalid', 'true');
        error.textContent = strings[refused.text];
        control.focus();
      }
    } finally {
      busy = false;
      submit.removeAttribute('aria-disabled');
      submit.textContent = strings.create;
    }
  }
}
