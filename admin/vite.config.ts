import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/**
 * Writes `.br` and `.gz` beside every script, style sheet and SVG once, at build time, so the
 * server sends compressed bytes without compressing on each request (http/static.ts picks one).
 */
function precompress(outDir: string): Plugin {
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? walk(path) : [path];
    });
  return {
    name: 'remit-precompress',
    apply: 'build',
    closeBundle() {
      for (const file of walk(outDir)) {
        if (!['.js', '.css', '.svg'].includes(extname(file))) continue;
        const bytes = readFileSync(file);
        if (bytes.length < 1024) continue;
        writeFileSync(
          `${file}.br`,
          brotliCompressSync(bytes, {
            params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
          }),
        );
        writeFileSync(`${file}.gz`, gzipSync(bytes, { level: 9 }));
      }
    },
  };
}

const outDir = resolve(import.meta.dirname, '..', 'dist', 'admin');

/**
 * Two pages: `/` (the submission form, light, no react-admin) and `/admin/*` (the back office).
 * Built into dist/admin, which `remit serve` serves with a history fallback.
 */
export default defineConfig({
  root: import.meta.dirname,
  base: '/',
  plugins: [react(), precompress(outDir)],
  resolve: {
    // a polyfill of a built-in, for node-polyglot: the built-in instead (admin/shims/object-entries.cjs)
    alias: [{ find: /^object\.entries$/, replacement: resolve(import.meta.dirname, 'shims', 'object-entries.cjs') }],
  },
  build: {
    outDir,
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 2000,
    rollupOptions: {
      input: {
        index: resolve(import.meta.dirname, 'index.html'),
        admin: resolve(import.meta.dirname, 'admin.html'),
      },
    },
  },
  server: {
    proxy: { '/api': 'http://127.0.0.1:3000' },
  },
});
