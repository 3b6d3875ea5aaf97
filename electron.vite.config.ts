// Builds the Electron app into out/: main (ESM), preload (CommonJS: a sandboxed preload cannot
// be an ES module), renderer (React). `mish console --web` serves out/renderer to a browser.
import { defineConfig } from 'electron-vite';
import { resolve } from 'node:path';

export default defineConfig({
  main: {
    build: {
      // Only Electron runs out/main; minified it is ~half the package's share (issue 25: tarball ≤ 1.5 MB).
      minify: true,
      // The squash worker is a thread's entry (src/main/core/squash-worker/pool.ts finds it next to index.js).
      rollupOptions: { input: { index: resolve('src/main/index.ts'), 'squash-worker': resolve('src/main/core/squash-worker/worker-entry.ts') } },
    },
  },
  preload: {
    build: {
      // Bundle everything (nothing external): a sandboxed preload can only require electron.
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve('src/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve('src/renderer'),
    // Relative asset URLs: the same build loads from file:// (Electron) and http:// (web host).
    base: './',
    // The grammar editor's worker runs the engine's squasher, whose byte path imports node:buffer
    // and whose header names signals from node:os: browser stand-ins (the worker feeds it text).
    resolve: {
      alias: {
        'node:buffer': resolve('src/renderer/src/grammar-editor/shims/node-buffer.ts'),
        'node:os': resolve('src/renderer/src/grammar-editor/shims/node-os.ts'),
      },
    },
    worker: { format: 'es' },
    build: {
      rollupOptions: { input: { index: resolve('src/renderer/index.html') } },
    },
  },
});
