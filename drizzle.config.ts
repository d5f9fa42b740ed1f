import { defineConfig } from 'drizzle-kit';

// Only generates migrations; they are applied in-process on start (server/db/migrate.ts).
// Never point drizzle-kit migrate/push/studio at a live PGlite directory.
export default defineConfig({
  dialect: 'postgresql',
  schema: './server/**/*.table.ts',
  out: './drizzle',
});
