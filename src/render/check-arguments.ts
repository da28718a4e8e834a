import { ChannelWebhookError } from '../errors.js';
import type { RenderableMessage, RenderOptions } from './render-types.js';

const RESOLVERS = ['mention', 'emoji', 'date', 'image'] as const;

/** Refuses what is not a message or not render options, so a wiring mistake fails loudly, once. */
export function checkArguments(message: unknown, options: unknown): asserts message is RenderableMessage {
  if (typeof message !== 'object' || message === null) {
    throw new ChannelWebhookError('invalid_argument', 'message must be an object with body and blocks');
  }
  const { body, blocks } = message as Record<string, unknown>;
  if (body !== undefined && typeof body !== 'string') throw new ChannelWebhookError('invalid_argument', 'message.body must be a string');
  if (blocks !== undefined && !Array.isArray(blocks)) throw new ChannelWebhookError('invalid_argument', 'message.blocks must be an array');
  if (options === undefined) return;
  if (typeof options !== 'object' || options === null) throw new ChannelWebhookError('invalid_argument', 'options must be an object');
  for (const name of RESOLVERS) {
    const resolver = (options as RenderOptions)[name];
    if (resolver !== undefined && typeof resolver !== 'function') {
      throw new ChannelWebhookError('invalid_argument', `options.${name} must be a function`);
    }
  }
  const { locale } = options as RenderOptions;
  if (locale !== undefined && !isLocale(locale)) {
    throw new ChannelWebhookError('invalid_argument', 'options.locale must be a BCP 47 language tag such as "en-US"');
  }
}

function isLocale(locale: unknown): boolean {
  if (typeof locale !== 'string') return false;
  try {
    Intl.getCanonicalLocales(locale);
    return true;
  } catch {
    return false;
  }
}
