import { LinkifyIt } from 'linkify-it';

// Bare links in text, found as Slack finds them: `http(s)://` and `mailto:` URLs, names that start
// with `www.` (linked as http), and email addresses (as mailto). A bare host name is not one:
// `README.md` or `setup.py` would become links to hosts the sender never named. What is found is a
// link only if the URL passes the rule every link passes (safe-url.ts), which the emitters apply.

/** A bare link: where it sits in the text, its URL, and the text it was written as. */
export interface BareLink {
  start: number;
  end: number;
  url: string;
  text: string;
}

let linkifier: LinkifyIt | undefined;

function linkifierOf(): LinkifyIt {
  linkifier ??= new LinkifyIt({ fuzzyLink: true, fuzzyEmail: true, fuzzyIP: false }).add('ftp:', null).add('//', null);
  return linkifier;
}

// Emphasis markers around a link are mrkdwn's, not the link's: `*https://a.example*` is bold.
const LEADING_MARKERS = /^[*_~]+/;
const TRAILING_MARKERS = /[*_~]+$/;

/** The bare links of `text`, in order, not overlapping. */
export function findBareLinks(text: string): BareLink[] {
  const found = linkifierOf();
  if (!found.test(text)) return [];
  const links: BareLink[] = [];
  for (const match of found.match(text) ?? []) {
    const fuzzy = match.schema === '';
    if (fuzzy && !/^www\./i.test(match.raw)) continue;
    const lead = LEADING_MARKERS.exec(match.raw)?.[0].length ?? 0;
    const rest = match.raw.slice(lead);
    const written = rest.slice(0, rest.length - (TRAILING_MARKERS.exec(rest)?.[0].length ?? 0));
    if (written === '') continue;
    const prefix = fuzzy ? 'http://' : match.schema === 'mailto:' && !/^mailto:/i.test(written) ? 'mailto:' : '';
    const start = match.index + lead;
    links.push({ start, end: start + written.length, url: `${prefix}${written}`, text: written });
  }
  return links;
}
