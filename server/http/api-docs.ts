import fs from 'node:fs/promises';
import path from 'node:path';
import { createRequire } from 'node:module';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from './context';

const require = createRequire(import.meta.url);
const ASSETS = new Map([
  ['swagger-ui.css', 'text/css; charset=utf-8'],
  ['swagger-ui-bundle.js', 'text/javascript; charset=utf-8'],
  ['swagger-ui-standalone-preset.js', 'text/javascript; charset=utf-8'],
]);

/** The page's own script (a file, not inline, so the policy needs no nonce); no online validator: the service works offline. */
const INIT_SCRIPT = `window.ui = SwaggerUIBundle({ url: '/api/openapi.json', dom_id: '#swagger-ui', deepLinking: true, validatorUrl: null,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset], layout: 'StandaloneLayout' });
`;

/**
 * The reference page's Content-Security-Policy: its scripts and styles are our files (Swagger UI sets inline style
 * attributes and its icons are data: images); "Try it out" calls this origin only; nothing may frame it.
 */
const API_DOCS_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; " +
  "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

const SECURITY_HEADERS = { 'Content-Security-Policy': API_DOCS_CSP, 'X-Content-Type-Options': 'nosniff', 'Referrer-Policy': 'same-origin' };

/** Swagger UI served from the installed package (no CDN: the service must work offline). */
export function registerApiDocs(app: OpenAPIHono<AppEnv>) {
  const distDir = path.dirname(require.resolve('swagger-ui-dist/package.json'));
  const cache = new Map<string, string>([['init.js', INIT_SCRIPT]]);

  app.get('/api/docs/assets/:file', async (c) => {
    const file = c.req.param('file');
    const type = file === 'init.js' ? 'text/javascript; charset=utf-8' : ASSETS.get(file);
    if (!type) return c.notFound();
    let body = cache.get(file);
    if (body === undefined) {
      body = await fs.readFile(path.join(distDir, file), 'utf8');
      cache.set(file, body);
    }
    c.header('Content-Type', type);
    c.header('Cache-Control', 'public, max-age=86400');
    c.header('X-Content-Type-Options', 'nosniff');

    return c.body(body);
  });

  app.get('/api/docs', (c) =>
    c.html(
      `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>API reference</title>
<link rel="icon" href="/logo.svg" type="image/svg+xml">
<link rel="stylesheet" href="/api/docs/assets/swagger-ui.css">
<style>body{margin:0}.topbar{display:none}</style>
</head>
<body>
<div id="swagger-ui"></div>
<script src="/api/docs/assets/swagger-ui-bundle.js"></script>
<script src="/api/docs/assets/swagger-ui-standalone-preset.js"></script>
<script src="/api/docs/assets/init.js"></script>
</body>
</html>`,
      200,
      SECURITY_HEADERS,
    ),
  );
}
