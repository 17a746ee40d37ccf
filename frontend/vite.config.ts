import { writeFileSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';

const root = path.dirname(fileURLToPath(import.meta.url));
const outDir = path.resolve(root, '../backend/internal/web/dist');

// The Go binary embeds outDir with `//go:embed all:dist`; the committed .gitkeep keeps
// `go build` working without Node, so it must survive emptyOutDir.
function keepGitkeep(): Plugin {
  return {
    name: 'gatehouse-keep-gitkeep',
    apply: 'build',
    closeBundle() {
      mkdirSync(outDir, { recursive: true });
      writeFileSync(path.join(outDir, '.gitkeep'), '');
    },
  };
}

export default defineConfig({
  plugins: [react(), keepGitkeep()],
  resolve: { alias: { '@': path.resolve(root, 'src') } },
  build: {
    outDir,
    emptyOutDir: true,
    assetsDir: 'assets',
    sourcemap: false,
  },
  server: {
    proxy: { '/api': { target: 'http://127.0.0.1:8080', changeOrigin: false } },
  },
  test: {
    environment: 'jsdom',
    globals: true,
    setupFiles: ['./src/test/setup.ts'],
    // Unit tests only: e2e/ is Playwright's (`npm run e2e`, playwright.config.ts).
    include: ['src/**/*.test.{ts,tsx}', 'scripts/**/*.test.mjs'],
    css: { modules: { classNameStrategy: 'non-scoped' } },
    // Form tests type into real inputs; on a busy 2-core CI machine one can
    // take longer than Vitest's 5 s default without anything being wrong.
    testTimeout: 20_000,
  },
});
