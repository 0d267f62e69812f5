import { resolve } from 'node:path';
import { defineConfig } from 'vite';

/**
 * The public report page (`/r/...`): its own small bundle, no React, no react-admin,
 * built after the back office into the same dist/admin (so emptyOutDir is off), for the browsers
 * of older phones and LINE's in-app browser: ES2015 syntax, Chrome 61 and Safari 11 at least.
 */
export default defineConfig({
  root: import.meta.dirname,
  base: '/',
  publicDir: false,
  build: {
    outDir: resolve(import.meta.dirname, '..', 'dist', 'admin'),
    emptyOutDir: false,
    sourcemap: false,
    target: ['es2015', 'chrome61', 'safari11'],
    cssTarget: ['chrome61', 'safari11'],
    modulePreload: false,
    rollupOptions: { input: { report: resolve(import.meta.dirname, 'report.html') } },
  },
});
