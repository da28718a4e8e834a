import type { Static, TSchema } from '@sinclair/typebox';
import { describe, expectTypeOf, it } from 'vitest';
import type * as Types from '../../src/validation/payload-types.js';
import type * as Schemas from '../../src/validation/block-schemas.js';

// The payload types are declared member by member, so that editors and compiler errors show their
// names; here the type checker (`npm run typecheck`) holds each one equal to the static form of the
// schema the validator runs, with the element unions put back where the schema leaves an array's
// items to the checks by type. A field added to a schema and not to its type fails `tsc`.

type WithElements<S extends TSchema, E> = Omit<Static<S>, 'elements'> & { elements: E[] };
/** Each assignable to the other, with the same property names (an optional field missing on one side is caught too). */
type Same<A, B> = [A] extends [B]
  ? [B] extends [A]
    ? [keyof A] extends [keyof B]
      ? [keyof B] extends [keyof A]
        ? true
        : false
      : false
    : false
  : false;

describe('the declared payload types', () => {
  it('are the schemas the validator runs', () => {
    expectTypeOf<Same<Types.PlainTextObject, Static<typeof Schemas.plainTextObject>>>().toEqualTypeOf<true>();
    expectTypeOf<Same<Types.MrkdwnTextObject, Static<typeof Schemas.mrkdwnTextObject>>>().toEqualTypeOf<true>();
    expectTypeOf<Same<Types.ImageElement, Static<typeof Schemas.imageElement>>>().toEqualTypeOf<true>();
    expectTypeOf<Same<Types.RichTextTextElement, Static<typeof Schemas.inlineElements.text>>>().toEqualTypeOf<true>();
    expectTypeOf<Same<Types.RichTextLinkElement, Static<typeof Schemas.inlineElements.link>>>().toEqualTypeOf<true>();
    expectTypeOf<Same<Types.RichTextEmojiElement, Static<typeof Schemas.inlineElements.emoji>>>().toEqualTypeOf<true>();
    expectTypeOf<Same<Types.RichTextUserElement, Static<typeof Schemas.inlineElements.user>>>().toEqualTypeOf<true>();
    expectTypeOf<
      Same<Types.RichTextChannelElement, Static<typeof Schemas.inlineElements.channel>>
    >().toEqualTypeOf<true>();
    expectTypeOf<
      Same<Types.RichTextUsergroupElement, Static<typeof Schemas.inlineElements.usergroup>>
    >().toEqualTypeOf<true>();
    expectTypeOf<
      Same<Types.RichTextBroadcastElement, Static<typeof Schemas.inlineElements.broadcast>>
    >().toEqualTypeOf<true>();
    expectTypeOf<Same<Types.RichTextDateElement, Static<typeof Schemas.inlineElements.date>>>().toEqualTypeOf<true>();
    expectTypeOf<Same<Types.RichTextColorElement, Static<typeof Schemas.inlineElements.color>>>().toEqualTypeOf<true>();
    expectTypeOf<
      Same<Types.RichTextSection, WithElements<typeof Schemas.richTextSection, Types.RichTextInlineElement>>
    >().toEqualTypeOf<true>();
    expectTypeOf<
      Same<Types.RichTextQuote, WithElements<typeof Schemas.richTextQuote, Types.RichTextInlineElement>>
    >().toEqualTypeOf<true>();
    expectTypeOf<
      Same<Types.RichTextPreformatted, WithElements<typeof Schemas.richTextPreformatted, Types.RichTextInlineElement>>
    >().toEqualTypeOf<true>();
    expectTypeOf<
      Same<Types.RichTextList, WithElements<typeof Schemas.richTextList, Types.RichTextSection>>
    >().toEqualTypeOf<true>();
    expectTypeOf<Same<Types.HeaderBlock, Static<typeof Schemas.headerBlock>>>().toEqualTypeOf<true>();
    expectTypeOf<Same<Types.SectionBlock, Static<typeof Schemas.sectionBlock>>>().toEqualTypeOf<true>();
    expectTypeOf<Same<Types.MarkdownBlock, Static<typeof Schemas.markdownBlock>>>().toEqualTypeOf<true>();
    expectTypeOf<Same<Types.DividerBlock, Static<typeof Schemas.dividerBlock>>>().toEqualTypeOf<true>();
    expectTypeOf<
      Same<Types.ContextBlock, WithElements<typeof Schemas.contextBlock, Types.ContextElement>>
    >().toEqualTypeOf<true>();
    expectTypeOf<
      Same<Types.RichTextBlock, WithElements<typeof Schemas.richTextBlock, Types.RichTextElement>>
    >().toEqualTypeOf<true>();
    expectTypeOf<
      Same<Types.RichTextStyle, NonNullable<Static<typeof Schemas.inlineElements.text>['style']>>
    >().toEqualTypeOf<true>();
    type Top = Omit<Static<typeof Schemas.payloadSchema>, 'blocks'>;
    expectTypeOf<
      Same<
        Types.WebhookPayload,
        Top & ({ text: string; blocks?: Types.Block[] } | { text?: string; blocks: Types.Block[] })
      >
    >().toEqualTypeOf<true>();
  });
});
