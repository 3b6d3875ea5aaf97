// Runs a CommonJS bundle with V8's code cache kept between runs, as v8-compile-cache does:
// `mish hook` starts before every command an agent runs, and compiling its ~700 KB of JavaScript
// again each time is most of its start-up. The cache lives in $XDG_CACHE_HOME/mish/v8 (or
// ~/.cache), keyed by the bundle's size and mtime and Node's version; a cache V8 rejects (another
// V8, a corrupt file) is rewritten, a cache that cannot be written is simply not kept.
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const vm = require('node:vm');
const Module = require('node:module');
const url = require('node:url');

function cacheFile(file, st) {
  const base = process.env.XDG_CACHE_HOME && path.isAbsolute(process.env.XDG_CACHE_HOME) ? process.env.XDG_CACHE_HOME : path.join(process.env.HOME || os.homedir(), '.cache');
  const key = `${path.basename(file)}-${st.size}-${Math.floor(st.mtimeMs)}-${process.version}-${process.arch}`;
  return path.join(base, 'mish', 'v8', key.replace(/[^\w.-]/g, '_'));
}

function runCached(file) {
  const source = fs.readFileSync(file, 'utf8');
  let cachePath;
  let cached;
  try {
    const st = fs.statSync(file);
    // The bundle's identity: what it caches of its own (the hook's compiled policy) is keyed by it.
    globalThis.__mishHookCodeId = `${file}|${st.size}|${st.mtimeMs}|${st.ino}|${process.version}`;
    cachePath = cacheFile(file, st);
    cached = fs.readFileSync(cachePath);
  } catch {
    // no cache yet
  }
  // Code run by vm.Script cannot import() on Node 20: the bundle's escalation part (an ES module
  // next to it) is imported from here (src/main/hooks/escalation-loader.ts in the bundle uses it).
  globalThis.__mishHookImport = (specifier) => import(url.pathToFileURL(path.resolve(path.dirname(file), specifier)).href);
  const script = new vm.Script(Module.wrap(source), { filename: file, cachedData: cached });
  const mod = new Module(file, module);
  mod.filename = file;
  mod.paths = Module._nodeModulePaths(path.dirname(file));
  const req = Module.createRequire(file);
  script.runInThisContext()(mod.exports, req, mod, file, path.dirname(file));
  if (cachePath && (cached === undefined || script.cachedDataRejected)) {
    // After the run: the cache then holds the functions the run compiled too. Written once, off the hot path.
    process.once('exit', () => {
      try {
        fs.mkdirSync(path.dirname(cachePath), { recursive: true, mode: 0o700 });
        const tmp = `${cachePath}.${process.pid}.tmp`;
        fs.writeFileSync(tmp, script.createCachedData());
        fs.renameSync(tmp, cachePath);
      } catch {
        // an unwritable cache directory: run without a cache
      }
    });
  }
}

module.exports = { runCached };
