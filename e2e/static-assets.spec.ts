import { expect, test } from '@playwright/test';

/* Static files live in public/ (the design card's top level) and are served to anyone, signed in or not. */

test('the favicon, robots.txt and the logo are served from public/, and every page icon resolves', async ({ page, request }) => {
  const favicon = await request.get('/favicon.ico', { maxRedirects: 0 });
  expect(favicon.status()).toBe(200);
  expect(favicon.headers()['content-type']).toMatch(/image\/(x-icon|vnd\.microsoft\.icon)/);
  const robots = await request.get('/robots.txt', { maxRedirects: 0 });
  expect(robots.status()).toBe(200);
  expect(robots.headers()['content-type']).toMatch(/^text\/plain/);
  expect(await robots.text()).toContain('Disallow: /');
  const logo = await request.get('/logo.svg', { maxRedirects: 0 });
  expect(logo.status()).toBe(200);
  expect(logo.headers()['content-type']).toMatch(/^image\/svg\+xml/);

  // The login page's icons and logo, and the API reference's icon, all answer 200.
  const failed: string[] = [];
  page.on('response', (res) => {
    if (res.status() >= 400) failed.push(`${res.status()} ${res.url()}`);
  });
  for (const path of ['/login', '/api/docs']) {
    await page.goto(path);
    const icons = await page.locator('link[rel~="icon"]').evaluateAll((links) => links.map((l) => (l as HTMLLinkElement).href));
    expect(icons.length, `icons of ${path}`).toBeGreaterThan(0);
    for (const href of icons) expect((await request.get(href, { maxRedirects: 0 })).status(), href).toBe(200);
  }
  await page.goto('/login');
  await expect(page.locator('img[src="/logo.svg"]')).toHaveJSProperty('complete', true);
  expect(await page.locator('img[src="/logo.svg"]').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  expect(failed).toEqual([]);
});
