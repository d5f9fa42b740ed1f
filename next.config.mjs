import createNextIntlPlugin from 'next-intl/plugin';

// The console's translations: i18n/request.ts picks the locale and its catalogue per request (docs/i18n.md).
const withNextIntl = createNextIntlPlugin('./i18n/request.ts');

/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // Server-only packages live in the custom server's bundle; Next must never try to bundle them.
  serverExternalPackages: ['@electric-sql/pglite', 'pg', 'pg-boss', '@node-rs/argon2', 'pino'],
  async headers() {
    return [
      {
        source: '/:path*',
        headers: [
          { key: 'X-Frame-Options', value: 'DENY' },
          { key: 'X-Content-Type-Options', value: 'nosniff' },
          { key: 'Referrer-Policy', value: 'same-origin' },
        ],
      },
    ];
  },
};

export default withNextIntl(nextConfig);
