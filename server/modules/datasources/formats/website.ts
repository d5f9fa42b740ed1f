import * as cheerio from 'cheerio';
import { FormatError, shortReason } from './errors';
import { collapseWhitespace } from './html';
import { storable } from './storable';
import { charsetOfContentType } from './text';

export type ScrapeSelector = { name: string; selector: string; attribute?: string };

/** Attributes whose value is a URL: javascript:/vbscript:/data: values there are never stored. */
const URL_ATTRIBUTES = new Set(['href', 'src', 'action', 'formaction', 'poster', 'cite', 'data', 'background', 'xlink:href']);
const BLOCKS =
  'address,article,aside,blockquote,br,dd,div,dl,dt,figcaption,figure,footer,h1,h2,h3,h4,h5,h6,header,hr,li,main,nav,ol,p,pre,section,table,td,th,tr,ul';

/**
 * WEBSITE_CONTENT: for each selector, the text of its first match (whitespace collapsed) or the value of the
 * attribute it names; '' when nothing matches. Script, style, noscript and template content is removed before
 * anything is selected, an on* attribute is never read, and a javascript: (or vbscript:, data:) URL reads as ''.
 * The page's charset comes from a BOM, the Content-Type or its <meta charset> (WHATWG sniffing).
 */
export function scrapeWebsite(
  body: Buffer,
  options: { selectors: ScrapeSelector[]; contentType?: string; baseUrl?: string },
): Record<string, string> {
  const $ = cheerio.loadBuffer(body, {
    encoding: { transportLayerEncodingLabel: charsetOfContentType(options.contentType) },
  });
  $('script,style,noscript,template').remove();
  $(BLOCKS).after(' ');
  const entries = options.selectors.map((entry): [string, string] => {
    const match = selectFirst($, entry);
    if (match.length === 0) return [entry.name, ''];
    const attribute = entry.attribute?.trim().toLowerCase();
    if (!attribute) return [entry.name, collapseWhitespace(match.text())];

    return [entry.name, readAttribute(match.attr(attribute), attribute, options.baseUrl)];
  });

  return storable(Object.fromEntries(entries));
}

function selectFirst($: cheerio.CheerioAPI, entry: ScrapeSelector) {
  try {
    return $(entry.selector).first();
  } catch (error) {
    throw new FormatError(
      `The selector "${entry.name}" (${entry.selector.slice(0, 200)}) is not a valid CSS selector: ${shortReason(error)}.`,
    );
  }
}

function readAttribute(value: string | undefined, attribute: string, baseUrl: string | undefined): string {
  if (value === undefined || attribute.startsWith('on')) return '';
  if (!URL_ATTRIBUTES.has(attribute)) return value.trim();
  // Browsers ignore tabs, newlines and leading control characters in a URL's scheme.
  const scheme = Array.from(value.slice(0, 64))
    .filter((character) => character > ' ')
    .join('')
    .toLowerCase();
  if (/^(javascript|vbscript|data):/.test(scheme)) return '';
  if (!baseUrl) return value.trim();
  try {
    return new URL(value.trim(), baseUrl).href;
  } catch {
    return value.trim();
  }
}
