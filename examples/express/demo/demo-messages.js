// The messages `npm run demo:seed` posts, one webhook each: a message of every block type, as the
// README's picture of the demo page shows them.

/** @param {string} text */
const section = (text) => ({ type: 'section', text: { type: 'mrkdwn', text } });
/** @type {Array<{ from: string, payload: Record<string, unknown> }>} */
export const DEMO_MESSAGES = [
  {
    from: 'Releases',
    payload: {
      text: 'Deploy 142 finished: checkout-service is live',
      blocks: [
        { type: 'header', text: { type: 'plain_text', text: 'Deploy 142 finished' } },
        section('*checkout-service* is live on `production`, 12 instances healthy'),
      ],
    },
  },
  { from: 'Uptime', payload: { text: 'checkout-api answered 5xx for 3 min; recovered at 14:02 UTC.' } },
  {
    from: 'CI',
    payload: {
      blocks: [
        {
          type: 'markdown',
          text: '**Build #981 passed** on `main`\n\n- 1,204 tests, 0 failures\n- coverage 94.1 % (+0.3)\n\n[Open the run](https://ci.example.com/runs/981)',
        },
      ],
    },
  },
  {
    from: 'Standup',
    payload: {
      blocks: [
        {
          type: 'rich_text',
          elements: [
            {
              type: 'rich_text_section',
              elements: [
                { type: 'text', text: 'Today', style: { bold: true } },
                { type: 'text', text: ' for ' },
                { type: 'user', user_id: 'U024BE7LH' },
              ],
            },
            {
              type: 'rich_text_list',
              style: 'bullet',
              elements: [
                { type: 'rich_text_section', elements: [{ type: 'text', text: 'Ship the rate-limit dashboard' }] },
                {
                  type: 'rich_text_section',
                  elements: [
                    { type: 'text', text: 'Review ' },
                    { type: 'link', url: 'https://git.example.com/pr/77', text: 'PR #77' },
                  ],
                },
              ],
            },
            {
              type: 'rich_text_quote',
              elements: [{ type: 'text', text: 'Blocked on the staging database migration.' }],
            },
            { type: 'rich_text_preformatted', elements: [{ type: 'text', text: 'npm run migrate -- --to 0042' }] },
          ],
        },
      ],
    },
  },
  {
    from: 'Alerts',
    payload: {
      text: 'Disk 91 % full on db-2',
      blocks: [
        section(':warning: *Disk 91 % full* on `db-2`'),
        { type: 'divider' },
        {
          type: 'context',
          elements: [
            { type: 'image', image_url: 'https://grafana.example.com/disk.png', alt_text: 'disk usage graph' },
            { type: 'mrkdwn', text: 'threshold 90 % · <https://grafana.example.com/d/disk|dashboard>' },
          ],
        },
      ],
    },
  },
];
