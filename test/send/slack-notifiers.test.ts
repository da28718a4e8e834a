import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { toHtml, toPlainText } from '../../src/render/index.js';
import { fromSlackPayload } from '../../src/send/index.js';
import { validatePayload } from '../../src/index.js';

// What Grafana's and Alertmanager's Slack notifiers post (test/fixtures/slack-notifiers), through
// the converter and then toHtml and toPlainText with their defaults, no app code: emoji as emoji,
// bare URLs and email addresses as links, the footer once, the image as its caption.
const notifier = (file: string) =>
  JSON.parse(readFileSync(new URL(`../fixtures/slack-notifiers/${file}`, import.meta.url), 'utf8')) as unknown;

function rendered(file: string) {
  const { payload, changes } = fromSlackPayload(notifier(file));
  expect(payload).not.toBeNull();
  expect(validatePayload(payload).ok).toBe(true);
  const message = { body: payload!.text ?? '', blocks: payload!.blocks ?? [] };
  return { html: toHtml(message), text: toPlainText(message), changes, message };
}

const REL = 'rel="noopener noreferrer nofollow"';
const link = (href: string, label: string = href) =>
  `<a href="${href.replaceAll('&', '&amp;')}" ${REL}>${label.replaceAll('&', '&amp;')}</a>`;
const count = (text: string, part: string) => text.split(part).length - 1;

describe("Grafana 11.3's Slack message, converted and rendered", () => {
  const { html, text, changes, message } = rendered('grafana-11.3.0.json');

  it('shows its emoji code as the emoji', () => {
    expect(html).toContain('summary = <span class="cw-emoji">📗</span> Disk /var');
    expect(html).not.toContain(':green_book:');
  });

  it('links every bare URL of its text, each as written', () => {
    for (const url of [
      'https://grafana.example.com/alerting/grafana/ddz1k2/view?orgId=1',
      'https://grafana.example.com/alerting/silence/new?alertmanager=grafana&matcher=alertname%3DDiskFull&orgId=1',
      'https://grafana.example.com/d/node-exporter?orgId=1',
      'https://grafana.example.com/d/node-exporter?orgId=1&viewPanel=12',
    ])
      expect(html).toContain(`: ${link(url)}<br>`);
  });

  it('writes the footer once, the icon left out: its alt text was the footer again', () => {
    expect(count(html, 'Grafana v11.3.0')).toBe(1);
    expect(html).toContain(
      '<div class="cw-context"><div class="cw-context-item"><p>Grafana v11.3.0 | <span class="cw-date">2024-12-01 16:00 UTC</span></p></div></div>',
    );
    expect(changes).toContainEqual({
      pointer: '/attachments/0/footer_icon',
      action: 'dropped',
      message: "is the footer's icon: the footer's text already says what it names",
    });
    const blocksText = toPlainText({ body: '', blocks: message.blocks });
    expect(count(blocksText, 'Grafana v11.3.0')).toBe(1);
  });

  it("shows the panel image as its caption, beside a link to it, unless the app's image option shows it", () => {
    const image = 'https://grafana.example.com/public/img/attachments/q7Lk2f.png';
    expect(html).toContain(`<div class="cw-context"><span class="cw-image-alt">image</span>`);
    expect(html).toContain(link(image));
    expect(toHtml(message, { image: (url) => url })).toContain(`<img class="cw-image" src="${image}" alt="image">`);
  });

  it('reads as plain text with the fallback as its text', () => {
    expect(text).toBe('[FIRING:1] DiskFull node-1 (/var)');
  });
});

describe("Alertmanager's Slack message, converted and rendered", () => {
  const { html, message } = rendered('alertmanager-0.27.json');

  it('shows the emoji codes of its title and its buttons as the emoji, inside their links', () => {
    expect(html).toContain(
      `${link('https://alertmanager.example.com/#/alerts?receiver=slack-prod', '<span class="cw-emoji">🎉</span> [RESOLVED] KubePodCrashLooping (prod)')}`,
    );
    expect(html).toContain(
      link('https://runbooks.example.com/kube/KubePodCrashLooping', 'Runbook <span class="cw-emoji">📗</span>'),
    );
    expect(html).toContain('Query <span class="cw-emoji">🔍</span></a>');
    expect(html).toContain('Silence <span class="cw-emoji">🔕</span></a>');
    expect(html).not.toMatch(/:(tada|green_book|mag|no_bell):/);
    expect(toPlainText({ body: '', blocks: message.blocks })).toContain(
      'Runbook 📗 (https://runbooks.example.com/kube/KubePodCrashLooping)',
    );
  });

  it('links the bare URL and the email address of its text', () => {
    expect(html).toContain(`Logs: ${link('https://logs.example.com/app/prod?pod=api-7f9c&since=1h')}<br>`);
    expect(html).toContain(`Ask ${link('mailto:oncall@example.com', 'oncall@example.com')} if it fires again.`);
  });

  it('writes its footer once, a host name that is not linked', () => {
    expect(count(html, 'alertmanager.example.com</p>')).toBe(1);
    expect(html).toContain(
      '<div class="cw-context"><div class="cw-context-item"><p>alertmanager.example.com</p></div></div>',
    );
  });
});
