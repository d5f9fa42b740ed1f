import { describe, expect, it } from 'vitest';
import { expectReadable, fixture, formatErrorOf } from './formats.test-kit';
import { scrapeWebsite } from './website';

const page = fixture('website-menu.html');

describe('scrapeWebsite', () => {
  it('answers the collapsed text of each selector’s first match', () => {
    const values = scrapeWebsite(page, {
      selectors: [
        { name: 'heading', selector: 'h1.page-title' },
        { name: 'firstDish', selector: '#today .dish' },
        { name: 'secondPrice', selector: '.dish:nth-child(2) .price' },
        { name: 'note', selector: '.note' },
      ],
    });
    expect(values).toEqual({
      heading: 'Canteen Menu',
      firstDish: 'Tomato soup €3.20',
      secondPrice: '€6.90',
      note: 'Vegan options marked with V.',
    });
  });

  it('never stores script or style content, even when a selector asks for it', () => {
    const values = scrapeWebsite(page, {
      selectors: [
        { name: 'script', selector: 'script' },
        { name: 'style', selector: 'style' },
        { name: 'head', selector: 'head' },
        { name: 'body', selector: 'body' },
      ],
    });
    expect(values.script).toBe('');
    expect(values.style).toBe('');
    expect(JSON.stringify(values)).not.toMatch(/do-not-store|INJECTED|color: red|Enable JavaScript/);
  });

  it('answers attributes, but never an on* attribute or a javascript: URL', () => {
    const values = scrapeWebsite(page, {
      baseUrl: 'https://canteen.example/menu/today',
      selectors: [
        { name: 'more', selector: 'a.more', attribute: 'href' },
        { name: 'photo', selector: 'img.photo', attribute: 'src' },
        { name: 'alt', selector: 'img.photo', attribute: 'alt' },
        { name: 'click', selector: 'li.dish', attribute: 'onclick' },
        { name: 'clickUpper', selector: 'a.more', attribute: 'ONCLICK' },
        { name: 'bad', selector: 'a.bad', attribute: 'href' },
        { name: 'absent', selector: 'a.more', attribute: 'download' },
      ],
    });
    expect(values).toEqual({
      more: 'https://canteen.example/menu/week',
      photo: 'https://canteen.example/menu/images/soup.jpg',
      alt: 'Soup of the day',
      click: '',
      clickUpper: '',
      bad: '',
      absent: '',
    });
  });

  it('answers "" for a selector that matches nothing', () => {
    expect(scrapeWebsite(page, { selectors: [{ name: 'missing', selector: '.specials' }] })).toEqual({ missing: '' });
  });

  it('refuses a bad selector, naming it', () => {
    const error = formatErrorOf(() =>
      scrapeWebsite(page, {
        selectors: [
          { name: 'ok', selector: 'h1' },
          { name: 'price', selector: 'li:nth-child((' },
        ],
      }),
    );
    expect(error.message).toMatch(/^The selector "price" \(li:nth-child\(\(\) is not a valid CSS selector: /);
    expectReadable(error);
  });

  it('reads the page’s charset from its <meta> or the Content-Type, and removes NUL characters', () => {
    const latin = Buffer.concat([
      Buffer.from('<html><head><meta charset="iso-8859-1"></head><body><p>Caf'),
      Buffer.from([0xe9]),
      Buffer.from('</p></body></html>'),
    ]);
    expect(scrapeWebsite(latin, { selectors: [{ name: 'p', selector: 'p' }] })).toEqual({ p: 'Café' });
    const declared = Buffer.concat([Buffer.from('<p>M'), Buffer.from([0xfc]), Buffer.from('nchen</p>')]);
    expect(scrapeWebsite(declared, { contentType: 'text/html; charset=windows-1252', selectors: [{ name: 'p', selector: 'p' }] })).toEqual({
      p: 'München',
    });
    expect(scrapeWebsite(Buffer.from('<p>a\u0000b</p>'), { selectors: [{ name: '__proto__', selector: 'p' }] })).toEqual(
      JSON.parse('{"__proto__": "ab"}'),
    );
  });
});
