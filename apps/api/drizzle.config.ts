import { defineConfig } from 'drizzle-kit';

// `npx drizzle-kit generate` (from apps/api) writes SQL migrations that client.ts applies at start.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/schema/index.ts',
  out: './src/db/migrations',
});
