// Known cross-site scripting vectors, as webhook bodies. Shared by the render tests and the demo's
// browser test: each body is posted through a webhook, and what is stored is rendered.

/** A vector and where it sits in the body. */
export interface XssVector {
  name: string;
  body: { text?: string; blocks?: unknown[] };
}

/** Strings that are markup, script or a disguised link in some reader. */
export const XSS_STRINGS: readonly string[] = [
  '<script>alert(1)</script>',
  '<SCRIPT SRC=https://evil.example/x.js></SCRIPT>',
  '<img src=x onerror=alert(1)>',
  '<svg onload=alert(1)>',
  '<svg><script>alert(1)</script></svg>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
  '"><img src=x onerror=alert(1)>',
  "'><svg/onload=alert(1)>",
  '<b onmouseover=alert(1)>unclosed',
  '<scr<script>ipt>alert(1)</script>',
  '<!-- --><script>alert(1)</script>',
  '<iframe src="https://evil.example"></iframe>',
  '<a href="javascript:alert(1)">x</a>',
  '<div style="background:url(javascript:alert(1))">x</div>',
  '<style>*{background:url(https://evil.example/t)}</style>',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<base href="javascript:alert(1)//">',
  '<form action="javascript:alert(1)"><button>x</button></form>',
  '&lt;script&gt;alert(1)&lt;/script&gt;',
  '&amp;lt;script&amp;gt;alert(1)',
  '<javascript:alert(1)|click>',
  '<JaVaScRiPt:alert(1)|click>',
  '< javascript:alert(1)|click>',
  '<java\tscript:alert(1)|click>',
  '<jav&#x09;ascript:alert(1)|click>',
  '<\u0001javascript:alert(1)|click>',
  '<data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==|click>',
  '<vbscript:msgbox(1)|click>',
  '<https://example.com" onmouseover="alert(1)|x>',
  '<https://example.com"onmouseover="alert(1)|x>',
  '<https://example.com|x" onclick="alert(1)>',
  '<https://example.com|\u202egnp.exe>',
  '<mailto:x@example.com?subject=&lt;script&gt;|mail>',
  '<@U1|&lt;img src=x onerror=alert(1)&gt;>',
  '<#C1|"><svg onload=alert(1)>>',
  '<!subteam^S1|"><img src=x onerror=alert(1)>>',
  '<!date^0^{date}^javascript:alert(1)|x>',
  '<!date^0^{date}|&lt;script&gt;alert(1)&lt;/script&gt;>',
  ':"onmouseover="alert(1):',
  '*<script>*alert(1)*</script>*',
  '_<img src=x onerror=alert(1)>_',
  '`<script>`alert(1)`</script>`',
  '```<script>alert(1)</script>```',
  '&gt; <script>alert(1)</script>',
  '[x](javascript:alert(1))',
  '[x](JAVASCRIPT:alert(1))',
  '[x](jav&#x09;ascript:alert(1))',
  '[x](&#106;avascript:alert(1))',
  '[x](java%0ascript:alert(1))',
  '[x](data:text/html,<script>alert(1)</script>)',
  '[x](vbscript:msgbox(1))',
  '[x](https://example.com "title\\" onmouseover=\\"alert(1)")',
  '[\u202egnp.exe](https://example.com/x)',
  '<javascript:alert(1)>',
  '[x]\n\n[x]: javascript:alert(1)',
  '![x](javascript:alert(1))',
  '![x" onerror="alert(1)](https://evil.example/track.png)',
  '**<img src=x onerror=alert(1)>**',
  '<details open ontoggle=alert(1)>',
  '~~~\n<script>alert(1)</script>\n~~~',
  `<x${' '.repeat(20)}onclick=alert(1)>`,
  // Bare links, which the renderer finds in text itself.
  'javascript:alert(1)',
  'see javascript:alert(1)//https://example.com',
  'https://example.com/"><script>alert(1)</script>',
  'https://example.com/"onmouseover="alert(1)"',
  "www.example.com/'onmouseover='alert(1)'",
  'https://example.com/<img src=x onerror=alert(1)>',
  'https://example.com/&lt;img src=x onerror=alert(1)&gt;',
  'bob@example.com"><img src=x onerror=alert(1)>',
  'mailto:x@example.com?subject="><script>alert(1)</script>',
  'https://example.com/\u202egnp.exe',
  'https://user:pass@evil.example/',
  `*https://example.com/${'_'.repeat(40)}*`,
];

/** URLs a link, date or image could carry: each must end up either refused or harmless. */
export const XSS_URLS: readonly string[] = [
  'javascript:alert(1)',
  'JaVaScRiPt:alert(1)',
  ' javascript:alert(1)',
  'java\tscript:alert(1)',
  'jav&#x09;ascript:alert(1)',
  '\u0001javascript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'vbscript:msgbox(1)',
  '//evil.example/x',
  'https://example.com/"><script>alert(1)</script>',
  "https://example.com/' onmouseover='alert(1)",
  'https://example.com/\u202egnp.exe',
  'https://evil.example/track.png',
];

const textVectors = (value: string, index: number): XssVector[] => [
  { name: `text ${index}`, body: { text: value } },
  { name: `section ${index}`, body: { blocks: [{ type: 'section', text: { type: 'mrkdwn', text: value } }] } },
  { name: `markdown ${index}`, body: { blocks: [{ type: 'markdown', text: value }] } },
  { name: `header ${index}`, body: { blocks: [{ type: 'header', text: { type: 'plain_text', text: value } }] } },
  {
    name: `context ${index}`,
    body: {
      blocks: [
        {
          type: 'context',
          elements: [
            { type: 'plain_text', text: value },
            { type: 'mrkdwn', text: value },
          ],
        },
      ],
    },
  },
  {
    name: `rich_text ${index}`,
    body: {
      blocks: [
        {
          type: 'rich_text',
          elements: [
            {
              type: 'rich_text_section',
              elements: [
                { type: 'text', text: value, style: { bold: true, code: true } },
                { type: 'link', url: 'https://example.com', text: value },
              ],
            },
            { type: 'rich_text_quote', elements: [{ type: 'text', text: value }] },
            { type: 'rich_text_preformatted', elements: [{ type: 'text', text: value }] },
            {
              type: 'rich_text_list',
              style: 'bullet',
              elements: [{ type: 'rich_text_section', elements: [{ type: 'text', text: value }] }],
            },
          ],
        },
      ],
    },
  },
];

const urlVectors = (url: string, index: number): XssVector[] => [
  { name: `mrkdwn link ${index}`, body: { text: `<${url}|click>` } },
  {
    name: `markdown link ${index}`,
    body: { blocks: [{ type: 'markdown', text: `[click](${url}) ![img](${url}) <${url}>` }] },
  },
  {
    name: `rich_text link ${index}`,
    body: {
      blocks: [
        {
          type: 'rich_text',
          elements: [{ type: 'rich_text_section', elements: [{ type: 'link', url, text: 'click' }] }],
        },
      ],
    },
  },
  {
    name: `rich_text date ${index}`,
    body: {
      blocks: [
        {
          type: 'rich_text',
          elements: [{ type: 'rich_text_section', elements: [{ type: 'date', timestamp: 0, format: '{date}', url }] }],
        },
      ],
    },
  },
  {
    name: `context image ${index}`,
    body: {
      blocks: [
        { type: 'context', elements: [{ type: 'image', image_url: url, alt_text: '<script>alert(1)</script>' }] },
      ],
    },
  },
  {
    name: `rich_text emoji image ${index}`,
    body: {
      blocks: [
        { type: 'rich_text', elements: [{ type: 'rich_text_section', elements: [{ type: 'emoji', name: 'x', url }] }] },
      ],
    },
  },
];

/** Every vector string in every text position, and every URL in every URL position. */
export const XSS_VECTORS: readonly XssVector[] = [...XSS_STRINGS.flatMap(textVectors), ...XSS_URLS.flatMap(urlVectors)];
