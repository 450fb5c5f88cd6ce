import { defineConfig } from 'vitest/config';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { fileURLToPath } from 'node:url';

export default defineConfig({
  plugins: [svelte()],
  clearScreen: false,
  resolve: {
    alias: { $lib: fileURLToPath(new URL('./src/lib', import.meta.url)) },
    // Component tests mount Svelte in jsdom: use the browser build there too.
    ...(process.env.VITEST ? { conditions: ['browser'] } : {}),
  },
  // The word catalog sits beside ui/ (locales/), shared with the Rust side.
  server: { port: 5173, strictPort: true, fs: { allow: ['.', '../locales'] } },
  build: { target: 'safari16', outDir: 'dist', emptyOutDir: true, sourcemap: false },
  test: {
    environment: 'jsdom',
    globals: true,
    include: ['src/**/*.test.ts'],
    setupFiles: ['src/tests/setup.ts'],
    // Most of a test file's time is setting up its jsdom, which waits on nothing else: two
    // workers on two cores (the default leaves one core idle there) and threads, cheaper to
    // start than processes, take the run from about two minutes to one (BENCHMARKS.md).
    pool: 'threads',
    maxWorkers: 2,
  },
});
