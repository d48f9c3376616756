import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "src/**/*.test.ts"],
    // Prints which database the storage tests use: PostgreSQL (and where) or PGlite.
    globalSetup: ["test/support/database-notice.ts"],
    testTimeout: 20_000,
  },
});
