import { describe, expect, it } from 'vitest';
import { htmlToText, safeUrl, sanitizeHtml } from './html';

describe('htmlToText', () => {
  it('strips tags, decodes entities, drops script and style text, separates blocks', () => {
    expect(htmlToText('<p>Caf&eacute; &amp; bar</p><p>Open<br>daily</p><script>alert(1)</script><style>p{}</style>')).toBe(
      'Café & bar Open daily',
    );
    expect(htmlToText('  plain   text  ')).toBe('plain text');
  });
});

describe('sanitizeHtml', () => {
  it.each([
    ['<p onclick="x()" style="position:fixed">Hi</p>', '<p>Hi</p>'],
    ['<a href="javascript:alert(1)">x</a>', '<a>x</a>'],
    ['<a href=" JaVaScRiPt:alert(1)">x</a>', '<a>x</a>'],
    ['<a href="data:text/html;base64,PHNjcmlwdD4=">x</a>', '<a>x</a>'],
    ['<a href="mailto:desk@example.com">mail</a>', '<a href="mailto:desk@example.com">mail</a>'],
    ['<img src="javascript:alert(1)"><img src="x.png" onerror="alert(1)">', '<img src="https://base.example/news/x.png">'],
    ['<script>alert(1)</script><style>*{}</style><iframe src="https://x"></iframe><svg onload="x()"><text>t</text></svg>ok', 'ok'],
    ['<noscript><img src="https://tracker.example/p.gif"></noscript>ok', 'ok'],
    ['<form action="https://x"><input name="q"><button>Go</button></form>after', 'after'],
    ['<font color="red"><center>Kept text</center></font>', 'Kept text'],
    ['<!-- comment --><p>x</p><![CDATA[y]]>', '<p>x</p>'],
    ['<table><tr><td colspan="2" onmouseover="x()">1</td></tr></table>', '<table><tr><td colspan="2">1</td></tr></table>'],
  ])('sanitizes %s', (html, expected) => {
    expect(sanitizeHtml(html, 'https://base.example/news/item').html).toBe(expected);
  });

  it('answers the first safe image', () => {
    expect(sanitizeHtml('<img src="data:image/png;base64,AAAA"><p><img src="/a.jpg"></p>', 'https://base.example/').firstImageUrl).toBe(
      'https://base.example/a.jpg',
    );
  });
});

describe('safeUrl', () => {
  it.each([
    ['https://example.com/a', undefined, 'https://example.com/a'],
    ['/a', 'https://example.com/x/y', 'https://example.com/a'],
    ['/a', undefined, undefined],
    ['java\tscript:alert(1)', 'https://example.com/', undefined],
    ['file:///etc/passwd', undefined, undefined],
    ['', undefined, undefined],
  ])('answers %j (base %j) as %j', (url, base, expected) => {
    expect(safeUrl(url, base)).toBe(expected);
  });
});
