// The request bodies every part of the benchmark posts. All are valid posts under the contract.

const words = 'deploy finished on production cluster eu-west with zero errors and all health checks green '.split(' ');

/**
 * @param {number} length
 * @param {number} [seed]
 */
function prose(length, seed = 0) {
  let text = '';
  for (let i = seed; text.length < length; i++) text += `${words[i % words.length]} `;
  return `${text.slice(0, length).trimEnd()}.`;
}

/** A ~200-character `text`: the common case. */
export const SMALL = JSON.stringify({ text: prose(200) });

// `text` is capped at 10,000 characters, so a 60 KiB post carries most of its bytes in section
// blocks (which have no length cap of their own), as a long report or log excerpt would.
/** @param {number} targetBytes */
function largeBody(targetBytes) {
  /** @type {{ type: 'section'; text: { type: 'mrkdwn'; text: string } }[]} */
  const blocks = [];
  const body = () => JSON.stringify({ text: prose(8_000), blocks });
  while (Buffer.byteLength(body()) < targetBytes - 3_200) {
    blocks.push({ type: 'section', text: { type: 'mrkdwn', text: prose(3_000, blocks.length) } });
  }
  const rest = targetBytes - Buffer.byteLength(body()) - 50;
  blocks.push({ type: 'section', text: { type: 'mrkdwn', text: prose(rest, 7) } });
  return body();
}

/** A 60 KiB (61,440-byte) body: a text and section blocks, under the 64 KiB limit. */
export const LARGE = largeBody(60 * 1024);

/** Five blocks of different types with a text: for timing validation alone. */
export const FIVE_BLOCKS = JSON.stringify({
  text: 'Deploy 42 finished',
  blocks: [
    { type: 'header', text: { type: 'plain_text', text: 'Deploy 42' } },
    { type: 'section', text: { type: 'mrkdwn', text: '*Status:* finished in 3 min 12 s' } },
    { type: 'divider' },
    {
      type: 'context',
      elements: [
        { type: 'mrkdwn', text: 'by ci-bot' },
        { type: 'image', image_url: 'https://example.com/ci.png', alt_text: 'CI' },
      ],
    },
    {
      type: 'rich_text',
      elements: [
        {
          type: 'rich_text_section',
          elements: [
            { type: 'text', text: 'Changelog: ' },
            { type: 'link', url: 'https://example.com/changes' },
          ],
        },
      ],
    },
  ],
});

export const PAYLOADS = { small: SMALL, large: LARGE };
