import { type EntityDecoderOptions, type X2jOptions, XMLParser, XMLValidator } from 'fast-xml-parser';
import { FormatError, shortReason } from './errors';
import { applyJsonPath } from './json-path';
import { storable } from './storable';
import { decodeBody } from './text';

const MAX_XML_DEPTH = 100;
const PREDEFINED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/**
 * Decodes the five predefined XML entities and character references, and nothing else: entities a DOCTYPE declares
 * stay as written, so a "billion laughs" document costs what its bytes cost and an external entity is never read.
 */
export function decodeXmlEntities(text: string): string {
  if (!text.includes('&')) return text;

  return text.replace(/&(#[xX][0-9a-fA-F]{1,6}|#[0-9]{1,7}|amp|lt|gt|quot|apos);/g, (reference, name: string) => {
    if (!name.startsWith('#')) return PREDEFINED[name] ?? reference;
    const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
    const isCharacter = code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff);

    return isCharacter ? String.fromCodePoint(code) : reference;
  });
}

const entityDecoder: EntityDecoderOptions = {
  setExternalEntities: () => undefined,
  addInputEntities: () => undefined,
  reset: () => undefined,
  setXmlVersion: () => undefined,
  decode: decodeXmlEntities,
};

/**
 * fast-xml-parser as every parser here uses it: attributes under `@_name`, text under `#text`, values kept as text
 * (no number guessing: "007" and 20-digit ids survive), declarations and processing instructions dropped,
 * entities as in decodeXmlEntities, nesting capped.
 */
export function xmlParserOptions(extra: X2jOptions = {}): X2jOptions {
  return {
    ignoreAttributes: false,
    attributeNamePrefix: '@_',
    textNodeName: '#text',
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: true,
    ignoreDeclaration: true,
    ignorePiTags: true,
    processEntities: true,
    htmlEntities: false,
    entityDecoder,
    maxNestedTags: MAX_XML_DEPTH,
    ...extra,
  };
}

/** A FormatError naming the first well-formedness error and where it is. */
export function assertWellFormedXml(text: string): void {
  const trimmed = text.trimStart();
  if (trimmed === '') throw new FormatError('The document is empty: it holds no XML.');
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    throw new FormatError('The document is JSON, not XML.');
  }
  // The usual answer of a wrong address: a web page, which is rarely well-formed XML.
  if (/^(?:<!--[\s\S]*?-->\s*)*<(?:!doctype\s+html|html[\s>])/i.test(trimmed)) {
    throw new FormatError('The document is an HTML web page, not XML.');
  }
  let result: ReturnType<typeof XMLValidator.validate>;
  try {
    result = XMLValidator.validate(text);
  } catch (error) {
    throw new FormatError(`The document is not valid XML: ${shortReason(error)}.`);
  }
  if (result === true) return;
  const { msg, line, col } = result.err;
  // The validator lists unclosed elements as a JSON array, which for a hostile document is megabytes long.
  if (/^Invalid '\[/.test(msg)) throw new FormatError('The document is not valid XML: some elements are never closed.');
  const where = Number.isInteger(line) ? ` (line ${line}${Number.isInteger(col) ? `, column ${col}` : ''})` : '';
  throw new FormatError(`The document is not valid XML: ${shortReason(msg).replace(/\.$/, '')}${where}.`);
}

/** Well-formed XML to its JSON tree (see xmlParserOptions); a FormatError otherwise. */
export function parseXmlTree(text: string, extra: X2jOptions = {}): Record<string, unknown> {
  assertWellFormedXml(text);
  let tree: unknown;
  try {
    tree = new XMLParser(xmlParserOptions(extra)).parse(text);
  } catch (error) {
    throw readableXmlError(error);
  }
  if (typeof tree !== 'object' || tree === null || Object.keys(tree).length === 0) {
    throw new FormatError('The XML document has no root element.');
  }

  return Object.fromEntries(Object.entries(tree));
}

export function readableXmlError(error: unknown): FormatError {
  const reason = shortReason(error);
  if (/external entit/i.test(reason)) {
    return new FormatError('The XML document declares an external entity, which is never read: remove it.');
  }
  if (/nested tags/i.test(reason)) {
    return new FormatError(`The XML document is nested more than ${MAX_XML_DEPTH} levels deep.`);
  }

  return new FormatError(`The document is not valid XML: ${reason.replace(/\.$/, '')}.`);
}

/** XML datasource: the document as JSON, or the value at `jsonPath` in it. */
export function parseXmlDocument(body: Buffer, options: { jsonPath?: string; contentType?: string }): unknown {
  const text = decodeBody(body, { contentType: options.contentType, sniffXmlDeclaration: true });
  const document = storable(parseXmlTree(text));
  const path = options.jsonPath?.trim();

  return path ? applyJsonPath(document, path) : document;
}
