import { RENDER_ALLOW_LIST } from '../../src/render/index.js';

// A strict reader of rendered fragments: any `<` that does not open or close an allow-listed
// element with allow-listed, double-quoted attributes is a finding, as is any URL attribute that a
// browser would read as other than http(s), mailto or a same-origin path.

const VOID = new Set(['br', 'hr', 'img']);
const TAG = /^<(\/?)([a-zA-Z][a-zA-Z0-9]*)((?:\s+[^\s=>]+="[^"<>]*")*)\s*>/;
const ATTRIBUTE = /\s+([^\s=>]+)="([^"<>]*)"/g;
const ENTITY = /&(?:#(\d{1,7})|#x([0-9a-f]{1,6})|(amp|lt|gt|quot|#39));/gi;
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"' };

function decode(value: string): string {
  return value.replace(ENTITY, (_, decimal?: string, hex?: string, name?: string) => {
    if (decimal !== undefined) return String.fromCodePoint(Number(decimal));
    if (hex !== undefined) return String.fromCodePoint(Number.parseInt(hex, 16));
    return name === '#39' ? "'" : NAMED[name!.toLowerCase()]!;
  });
}

/** The scheme a browser would see: controls and whitespace removed, lowercased. */
function schemeOf(url: string): string | undefined {
  const cleaned = url.replace(/[\u0000-\u0020\u007f-\u009f]/g, '').toLowerCase();
  return /^([a-z][a-z0-9+.-]*):/.exec(cleaned)?.[1];
}

/** Everything wrong with `html` as rendered output; `[]` when it is allow-listed and well formed. */
export function htmlFindings(html: string): string[] {
  const findings: string[] = [];
  const open: string[] = [];
  let index = 0;
  while (index < html.length) {
    const lt = html.indexOf('<', index);
    const textEnd = lt === -1 ? html.length : lt;
    const textPart = html.slice(index, textEnd);
    if (/&(?!(?:amp|lt|gt|quot|#39);)/.test(textPart))
      findings.push(`bare & in text: ${JSON.stringify(textPart.slice(0, 60))}`);
    if (textPart.includes('>')) findings.push(`raw > in text: ${JSON.stringify(textPart.slice(0, 60))}`);
    if (lt === -1) break;
    const match = TAG.exec(html.slice(lt));
    if (match === null) {
      findings.push(`stray <: ${JSON.stringify(html.slice(lt, lt + 60))}`);
      index = lt + 1;
      continue;
    }
    const [whole, closing, rawName, attributes] = match;
    const name = rawName!;
    const allowed = Object.hasOwn(RENDER_ALLOW_LIST, name) ? RENDER_ALLOW_LIST[name]! : undefined;
    if (allowed === undefined) findings.push(`element not allowed: ${name}`);
    if (closing === '/') {
      if (attributes !== '') findings.push(`attributes on a closing tag: ${whole}`);
      if (open.pop() !== name) findings.push(`unbalanced </${name}>`);
    } else {
      if (!VOID.has(name)) open.push(name);
      const seen = new Set<string>();
      for (const [, attribute, rawValue] of attributes!.matchAll(ATTRIBUTE)) {
        const value = decode(rawValue!);
        if (seen.has(attribute!)) findings.push(`repeated attribute ${attribute} on ${name}`);
        seen.add(attribute!);
        if (/^on/i.test(attribute!)) findings.push(`event handler attribute ${attribute} on ${name}`);
        if (!allowed?.includes(attribute!)) findings.push(`attribute not allowed: ${name}[${attribute}]`);
        if (attribute === 'class' && !value.split(' ').every((part) => /^cw-[a-z0-9-]+$/.test(part)))
          findings.push(`class outside cw-: ${value}`);
        if (attribute === 'rel' && value !== 'noopener noreferrer nofollow') findings.push(`rel is ${value}`);
        if (attribute === 'href' || attribute === 'src') {
          const scheme = schemeOf(value);
          const allowedSchemes = attribute === 'href' ? ['http', 'https', 'mailto'] : ['http', 'https'];
          if (
            scheme === undefined ? !(attribute === 'src' && /^\/(?!\/)/.test(value)) : !allowedSchemes.includes(scheme)
          ) {
            findings.push(`${name}[${attribute}] URL not allowed: ${value}`);
          }
        }
      }
      if (name === 'a' && (!seen.has('href') || !seen.has('rel'))) findings.push('a without href and rel');
    }
    index = lt + whole!.length;
  }
  if (open.length > 0) findings.push(`unclosed: ${open.join(', ')}`);
  return findings;
}
