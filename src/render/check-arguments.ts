import { type ArgumentRule, fn, required, rule } from '../arguments/argument-rules.js';
import { checkArgument, checkOptions, type OptionsShape } from '../arguments/check-options.js';
import type { RenderableMessage } from './render-types.js';

const MESSAGE = rule('a message { body, blocks }', (value) => typeof value === 'object' && value !== null);
const BODY = rule('a string', (value) => typeof value === 'string');
const BLOCKS = rule('an array', Array.isArray);

const LOCALE: ArgumentRule = rule('a BCP 47 language tag such as "en-US"', (locale) => {
  if (typeof locale !== 'string') return false;
  try {
    Intl.getCanonicalLocales(locale);
    return true;
  } catch {
    return false;
  }
});

const OPTIONS: OptionsShape = {
  mention: fn('a function (mention) => { text, url? } | undefined'),
  emoji: fn('a function (name, emoji) => string | { text } | undefined'),
  date: fn('a function (date) => string | undefined'),
  locale: LOCALE,
  image: fn('a function (url) => string | undefined'),
};

/**
 * Refuses what is not a message or not render options, so a wiring mistake fails loudly, once. A
 * message may carry more fields (a stored message does); the options may not.
 */
export function checkArguments(
  renderer: string,
  message: unknown,
  options: unknown,
): asserts message is RenderableMessage {
  checkArgument(renderer, 'message', message, required(MESSAGE));
  const { body, blocks } = message as Record<string, unknown>;
  checkArgument(renderer, 'message.body', body, BODY);
  checkArgument(renderer, 'message.blocks', blocks, BLOCKS);
  checkOptions(renderer, options, OPTIONS, 'options', true);
}
