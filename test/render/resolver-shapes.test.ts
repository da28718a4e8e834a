import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Mention, type RenderOptions, toHtml, toPlainText } from '../../src/render/index.js';

const REL = 'rel="noopener noreferrer nofollow"';
const SLACK_ID = {
  user: /^[UW][A-Z0-9]+$/,
  channel: /^[CGD][A-Z0-9]+$/,
  usergroup: /^[SG][A-Z0-9]+$/,
  broadcast: /^(?:here|channel|everyone)$/,
};
const EMOJI_NAME = /^[a-z0-9_+'-]+(?:::skin-tone-[2-6])?$/;

const UNICODE = /^[0-9a-f]{1,6}(?:-[0-9a-f]{1,6}){0,9}$/i;

/** Renders with resolvers that record what they are given and answer "✓". */
function renderRecording(message: { body: string; blocks: unknown[] }) {
  const mentions: Mention[] = [];
  const emoji: string[] = [];
  const unicode: string[] = [];
  const options: RenderOptions = {
    mention: (mention) => (mentions.push(mention), { text: '✓' }),
    emoji: (name, given) => {
      emoji.push(name);
      if (given.unicode !== undefined) unicode.push(given.unicode);
      return '✓';
    },
  };
  return { html: toHtml(message, options), text: toPlainText(message, options), mentions, emoji, unicode };
}

describe('resolvers only ever receive ids and names of Slack’s shape', () => {
  it('a mention whose id is a path shows inert, without calling the resolver', () => {
    const { html, text, mentions } = renderRecording({
      body: '<@../../account/delete?confirm=1|ana> <#C1|general>',
      blocks: [],
    });
    // Once for the HTML, once for the text.
    expect(mentions).toEqual([
      { kind: 'channel', id: 'C1', label: 'general' },
      { kind: 'channel', id: 'C1', label: 'general' },
    ]);
    expect(html).toBe(
      '<p><span class="cw-mention cw-mention-user">@ana</span> <span class="cw-mention cw-mention-channel">✓</span></p>',
    );
    expect(text).toBe('@ana ✓');
  });

  it('an emoji’s code points reach the resolver only as hex', () => {
    const elements = [
      { type: 'emoji', name: 'tada', unicode: '../../x.svg?' },
      { type: 'emoji', name: 'tada', unicode: '1f389' },
    ];
    const { unicode, html } = renderRecording({
      body: '',
      blocks: [{ type: 'rich_text', elements: [{ type: 'rich_text_section', elements }] }],
    });
    expect(unicode).toEqual(['1f389', '1f389']);
    expect(html).toBe(
      '<div class="cw-rich-text"><p class="cw-rich-text-section"><span class="cw-emoji">✓</span><span class="cw-emoji">✓</span></p></div>',
    );
  });

  it('an emoji whose name is a path shows inert, without calling the resolver', () => {
    const elements = [
      { type: 'emoji', name: '../../api/logout?x=' },
      { type: 'emoji', name: 'tada' },
    ];
    const { html, emoji } = renderRecording({
      body: '',
      blocks: [{ type: 'rich_text', elements: [{ type: 'rich_text_section', elements }] }],
    });
    expect(emoji).toEqual(['tada', 'tada']);
    expect(html).toBe(
      '<div class="cw-rich-text"><p class="cw-rich-text-section"><span class="cw-emoji">:../../api/logout?x=:</span><span class="cw-emoji">✓</span></p></div>',
    );
  });

  // Rule: whatever a stored message holds as an id or a name, a resolver is called only with one of
  // Slack's shape.
  it('for any id or name', () => {
    const anything = fc.oneof(
      fc.string({ maxLength: 30 }),
      fc.constantFrom(
        'U1',
        'W2AB',
        'C9',
        'GABC',
        'S01',
        'here',
        'tada',
        '+1',
        'a::skin-tone-3',
        '../x',
        'U1/../..',
        'u1',
        ' U1',
      ),
    );
    fc.assert(
      fc.property(anything, anything, (id, name) => {
        const block = {
          type: 'rich_text',
          elements: [
            {
              type: 'rich_text_section',
              elements: [
                { type: 'user', user_id: id },
                { type: 'channel', channel_id: id },
                { type: 'usergroup', usergroup_id: id },
                { type: 'broadcast', range: id },
                { type: 'emoji', name, unicode: id },
              ],
            },
          ],
        };
        const body = `<@${id}> <#${id}> <!subteam^${id}> :${name}:`;
        for (const message of [
          { body: '', blocks: [block] },
          { body, blocks: [] },
        ]) {
          const { mentions, emoji, unicode } = renderRecording(message);
          for (const mention of mentions) expect(mention.id).toMatch(SLACK_ID[mention.kind]);
          for (const called of emoji) expect(called).toMatch(EMOJI_NAME);
          for (const points of unicode) expect(points).toMatch(UNICODE);
        }
      }),
      { seed: 20_261_125, numRuns: 500 },
    );
  });

  // The real payloads (written outside this project) keep every mention and emoji resolvable.
  const corpus = join(import.meta.dirname, '..', 'fixtures', 'blockkit');
  it.each(readdirSync(corpus).filter((name) => name.endsWith('.json')))(
    '%s: no real mention or emoji is made inert',
    (name) => {
      const payload = JSON.parse(readFileSync(join(corpus, name), 'utf8')) as { text?: string; blocks?: unknown[] };
      for (const message of [
        { body: '', blocks: payload.blocks ?? [] },
        { body: payload.text ?? '', blocks: [] },
      ]) {
        const { html } = renderRecording(message);
        for (const [, shown] of html.matchAll(/<span class="cw-(?:mention cw-mention-[a-z]+|emoji)">([^<]*)<\/span>/g))
          expect(shown).toBe('✓');
      }
    },
  );

  it('a resolver may link a mention to an absolute URL or a same-origin path, as emoji and images may; never to another origin by `//`', () => {
    const users = new Map([['U024BE7LH', { name: 'ada' }]]);
    const message = { body: 'by <@U024BE7LH>', blocks: [] };
    const resolving = (url: (id: string) => string): RenderOptions => ({
      mention: ({ kind, id }) =>
        kind === 'user' ? { text: `@${users.get(id)?.name ?? id}`, url: url(id) } : undefined,
    });
    expect(
      toHtml(
        message,
        resolving((id) => `https://chat.example.com/people/${id}`),
      ),
    ).toBe(
      `<p>by <a class="cw-mention cw-mention-user" href="https://chat.example.com/people/U024BE7LH" ${REL}>@ada</a></p>`,
    );
    expect(
      toHtml(
        message,
        resolving((id) => `/people/${id}`),
      ),
    ).toBe(`<p>by <a class="cw-mention cw-mention-user" href="/people/U024BE7LH" ${REL}>@ada</a></p>`);
    for (const elsewhere of ['//evil.example/people', '/\\evil.example/people', 'people/U1', 'javascript:alert(1)']) {
      expect(
        toHtml(
          message,
          resolving(() => elsewhere),
        ),
      ).toBe('<p>by <span class="cw-mention cw-mention-user">@ada</span></p>');
    }
  });

  it("a sender's own relative link stays text: only the app's resolvers may point into the app", () => {
    expect(toHtml({ body: 'see </admin/delete|here>', blocks: [] })).toBe('<p>see &lt;/admin/delete|here&gt;</p>');
    const linkElement = { type: 'link', url: '/admin/delete', text: 'here' };
    const blocks = [{ type: 'rich_text', elements: [{ type: 'rich_text_section', elements: [linkElement] }] }];
    expect(toHtml({ body: '', blocks })).not.toContain('<a');
  });
});
