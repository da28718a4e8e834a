import type { HeaderValue } from './http-types.js';

/**
 * Whether a Content-Type header names JSON in UTF-8: media type `application/json` (any case), with
 * any parameters, where a `charset`, if given, is `utf-8` (any case, quoted or not).
 */
export function isJsonContentType(header: HeaderValue): boolean {
  if (typeof header !== 'string') return false;
  const semicolon = header.indexOf(';');
  const mediaType = (semicolon === -1 ? header : header.slice(0, semicolon)).trim().toLowerCase();
  if (mediaType !== 'application/json') return false;
  if (semicolon === -1) return true;
  for (const parameter of header.slice(semicolon + 1).split(';')) {
    const equals = parameter.indexOf('=');
    if (equals === -1) continue;
    if (parameter.slice(0, equals).trim().toLowerCase() !== 'charset') continue;
    const charset = parameter
      .slice(equals + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1')
      .toLowerCase();
    if (charset !== 'utf-8' && charset !== 'utf8') return false;
  }
  return true;
}
