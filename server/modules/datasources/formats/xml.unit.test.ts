import { describe, expect, it } from 'vitest';
import { expectReadable, fixture, formatErrorOf } from './formats.test-kit';
import { parseXmlDocument } from './xml';

function billionLaughs(): Buffer {
  const entities = ['<!ENTITY lol "lol">'];
  for (let level = 1; level <= 9; level++) {
    entities.push(`<!ENTITY lol${level} "${`&lol${level === 1 ? '' : level - 1};`.repeat(10)}">`);
  }

  return Buffer.from(`<?xml version="1.0"?>\n<!DOCTYPE lolz [\n${entities.join('\n')}\n]>\n<lolz kind="&lol9;">&lol9;</lolz>`);
}

describe('parseXmlDocument', () => {
  it('converts XML to JSON: attributes under @_name, text as text, repeated elements as arrays', () => {
    const document = parseXmlDocument(fixture('xml-catalog.xml'), {});
    expect(document).toEqual({
      catalog: {
        '@_xmlns:x': 'urn:example:extra',
        '@_updated': '2026-03-16',
        room: [
          { '@_id': 'A-101', '@_floor': '1', name: 'Orion', capacity: '12', status: 'free' },
          // values stay text: "007" keeps its zeros; entities and CDATA are decoded
          { '@_id': 'B-204', '@_floor': '2', name: 'Lyra & Vega', capacity: '007', status: 'busy', note: 'Projector <broken>' },
        ],
        'x:meta': 'generated',
      },
    });
  });

  it('puts an element’s text under #text when it also has attributes', () => {
    expect(parseXmlDocument(Buffer.from('<price currency="EUR">3.20</price>'), {})).toEqual({
      price: { '@_currency': 'EUR', '#text': '3.20' },
    });
  });

  it('applies a JSONPath to the converted document', () => {
    expect(parseXmlDocument(fixture('xml-catalog.xml'), { jsonPath: '$.catalog.room[?(@.status == "free")].name' })).toBe('Orion');
    expect(parseXmlDocument(fixture('xml-catalog.xml'), { jsonPath: '$..room[*].@_id' })).toEqual(['A-101', 'B-204']);
    expect(formatErrorOf(() => parseXmlDocument(fixture('xml-catalog.xml'), { jsonPath: '$.catalog.desk' })).message).toMatch(
      /matches nothing/,
    );
  });

  it('refuses malformed XML naming the error and its line', () => {
    const body = Buffer.from('<rooms>\n  <room>\n    <name>Orion</name>\n</rooms>\n');
    const error = formatErrorOf(() => parseXmlDocument(body, {}));
    expect(error.message).toMatch(/^The document is not valid XML: Expected closing tag 'room'.*\(line 4, column \d+\)\.$/);
    expectReadable(error);
  });

  it('tells a web page and JSON apart from XML', () => {
    expect(formatErrorOf(() => parseXmlDocument(Buffer.from('<!DOCTYPE html><html><body><br></body></html>'), {})).message).toBe(
      'The document is an HTML web page, not XML.',
    );
    expect(formatErrorOf(() => parseXmlDocument(Buffer.from('{"a": 1}'), {})).message).toBe('The document is JSON, not XML.');
    expect(formatErrorOf(() => parseXmlDocument(Buffer.from(''), {})).message).toMatch(/empty/);
  });

  it('does not expand entities a DOCTYPE declares (billion laughs)', () => {
    const document = parseXmlDocument(billionLaughs(), {});
    expect(document).toEqual({ lolz: { '@_kind': '&lol9;', '#text': '&lol9;' } });
  });

  it('decodes the predefined entities and character references only', () => {
    const body = Buffer.from('<t a="1 &amp; 2">&lt;b&gt; &#65;&#x42; &quot;q&quot; &apos;s&apos; &eacute; &#xD800;</t>');
    expect(parseXmlDocument(body, {})).toEqual({ t: { '@_a': '1 & 2', '#text': `<b> AB "q" 's' &eacute; &#xD800;` } });
  });

  it('refuses an external entity without reading it', () => {
    const body = Buffer.from('<!DOCTYPE r [<!ENTITY secret SYSTEM "file:///etc/passwd">]><r>&secret;</r>');
    expect(formatErrorOf(() => parseXmlDocument(body, {})).message).toMatch(/external entity/);
  });

  it('refuses nesting past 100 levels', () => {
    const nested = (levels: number) => Buffer.from(`${'<n>'.repeat(levels)}x${'</n>'.repeat(levels)}`);
    expect(parseXmlDocument(nested(100), {})).toBeDefined();
    expect(formatErrorOf(() => parseXmlDocument(nested(150), {})).message).toBe('The XML document is nested more than 100 levels deep.');
    const unclosed = formatErrorOf(() => parseXmlDocument(Buffer.from('<n>'.repeat(200_000)), {}));
    expect(unclosed.message).toBe('The document is not valid XML: some elements are never closed.');
  });

  it('removes NUL characters from text and attributes', () => {
    expect(parseXmlDocument(Buffer.from('<t a="x\u0000y">b\u0000c</t>'), {})).toEqual({ t: { '@_a': 'xy', '#text': 'bc' } });
  });

  it('honours an ISO-8859-1 encoding declaration (read as windows-1252, as browsers do)', () => {
    const body = Buffer.concat([
      Buffer.from('<?xml version="1.0" encoding="ISO-8859-1"?><menu><dish>Cr'),
      Buffer.from([0xe8]),
      Buffer.from('me br'),
      Buffer.from([0xfb]),
      Buffer.from('l'),
      Buffer.from([0xe9, 0x65, 0x20, 0x80]),
      Buffer.from('</dish></menu>'),
    ]);
    expect(parseXmlDocument(body, {})).toEqual({ menu: { dish: 'Crème brûlée €' } });
  });

  it('lets a Content-Type charset win over the declaration', () => {
    const body = Buffer.from('<?xml version="1.0" encoding="ISO-8859-1"?><city>Zürich</city>', 'utf8');
    expect(parseXmlDocument(body, { contentType: 'application/xml; charset=utf-8' })).toEqual({ city: 'Zürich' });
  });
});
