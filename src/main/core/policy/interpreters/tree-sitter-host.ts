/**
 * Python and Ruby syntax trees for the synchronous decide(): tree-sitter's grammars (WebAssembly,
 * from @vscode/tree-sitter-wasm) run in one worker thread started the first time an interpreter
 * one-liner of those languages is seen, and the caller waits for the tree with Atomics.wait.
 *
 * Why a worker: web-tree-sitter only initialises asynchronously (its Emscripten loader awaits
 * `import("module")` and the wasm instantiation), while decide() is synchronous and called from a
 * dozen hosts (the hook, `policy explain`, the MCP tools, the PTY input guard, the router's plan).
 * A thread that owns the parser, plus a blocking wait with a deadline, keeps decide() synchronous
 * everywhere without asking the hosts to await anything, and costs nothing to a process that never
 * sees a python/ruby one-liner (the hook's common path). A deadline passed or a dead worker is an
 * answer too: `unavailable`, which the policy asks about (never allows). Loading the parsers on the
 * calling thread instead (awaited by the hosts that can) was measured no faster: the thread's start
 * is small beside the wasm compile both paths pay.
 */
import { createRequire } from 'node:module';
import type { MessagePort, Worker } from 'node:worker_threads';

/** node:worker_threads is loaded with the parser's thread (~2 ms to load): not by every process that only imports decide(). */
const workerThreads = () => createRequire(import.meta.url)('node:worker_threads') as typeof import('node:worker_threads');

export type TreeLanguage = 'python' | 'ruby';

/** A syntax tree node as the worker sends it: type, field name in its parent, span (UTF-16 offsets into the code), children. */
export interface SyntaxNode {
  type: string;
  /** Field name in the parent (`function`, `arguments`, `left` …). */
  field?: string;
  start: number;
  end: number;
  /** A named node (grammar rule), not punctuation or a keyword. */
  named: boolean;
  children: SyntaxNode[];
}

export type TreeResult = { ok: true; root: SyntaxNode; hasError: boolean } | { ok: false; reason: string };

/**
 * Longest wait for the worker's first answer (thread start, wasm compile of the runtime and the
 * grammar: ~60 ms idle, several hundred under load). Paid once per process; past it the line is asked about.
 */
export const FIRST_PARSE_WAIT_MS = 5000;
/** Longest wait for a later parse (a few ms for an 8 KB one-liner): past it, ask. */
export const PARSE_WAIT_MS = 1000;

/**
 * A tree-sitter tree as plain objects, by a cursor walk (no recursion on deeply nested code).
 * Self-contained: its source is also the worker's (WORKER_SOURCE interpolates it).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function serializeTree(tree: any): SyntaxNode {
  const c = tree.walk();
  const root = { type: c.nodeType, start: c.startIndex, end: c.endIndex, named: c.nodeIsNamed, children: [] as SyntaxNode[] };
  const stack: SyntaxNode[] = [root];
  for (;;) {
    let moved = c.gotoFirstChild();
    while (!moved) {
      stack.pop();
      if (c.gotoNextSibling()) moved = true;
      else if (!c.gotoParent()) {
        c.delete();
        return root;
      }
    }
    const n: SyntaxNode = { type: c.nodeType, start: c.startIndex, end: c.endIndex, named: c.nodeIsNamed, children: [] };
    if (c.currentFieldName) n.field = c.currentFieldName;
    stack[stack.length - 1].children.push(n);
    stack.push(n);
  }
}

/** The worker: loads the runtime and grammars on demand, parses, sends the tree as plain objects (a cursor walk: no recursion on deep code). */
const WORKER_SOURCE = String.raw`
const { workerData } = require('node:worker_threads');
const path = require('node:path');
const { port, flag, pkg } = workerData;
const dir = path.dirname(pkg);
// A failure to load is answered to every request (the caller asks), not left to an 'error' event it cannot see while it waits.
let TS, ready;
try {
  TS = require(pkg);
  ready = TS.Parser.init({ locateFile: (f) => path.join(dir, f) });
} catch (e) {
  ready = Promise.reject(e);
  ready.catch(() => {});
}
const parsers = {};
function parser(lang) {
  return (parsers[lang] ??= ready
    .then(() => TS.Language.load(path.join(dir, 'tree-sitter-' + lang + '.wasm')))
    .then((l) => { const p = new TS.Parser(); p.setLanguage(l); return p; }));
}
const serialize = ${serializeTree.toString()};
port.on('message', async ({ id, lang, code }) => {
  let result;
  try {
    const p = await parser(lang);
    const tree = p.parse(code);
    result = { ok: true, root: serialize(tree), hasError: tree.rootNode.hasError };
    tree.delete();
  } catch (e) {
    result = { ok: false, reason: 'the ' + lang + ' parser failed: ' + (e && e.message ? e.message : String(e)) };
  }
  port.postMessage({ id, result });
  Atomics.store(flag, 0, id);
  Atomics.notify(flag, 0);
});
`;

interface Host {
  worker: Worker;
  port: MessagePort;
  flag: Int32Array;
  next: number;
  answered: boolean;
  dead?: string;
}

let host: Host | undefined;

function start(): Host {
  const pkg = createRequire(import.meta.url).resolve('@vscode/tree-sitter-wasm');
  const { MessageChannel, Worker } = workerThreads();
  const { port1, port2 } = new MessageChannel();
  const flag = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { port: port2, flag, pkg }, transferList: [port2] });
  // The thread never keeps a process alive: a CLI exits when its work is done.
  worker.unref();
  port1.unref();
  const h: Host = { worker, port: port1, flag, next: 0, answered: false };
  worker.on('error', (e) => (h.dead = `the parser thread failed: ${e.message}`));
  worker.on('exit', () => (h.dead ??= 'the parser thread stopped'));
  return h;
}

/**
 * Milliseconds this process has spent waiting for the parser thread. The policy's wall-clock
 * analysis budget leaves them out: the parser waits have their own deadlines (the first one
 * includes the wasm compile, several hundred ms to seconds on a loaded machine), and counting
 * them turned a dangerous one-liner's own rule into `analysis-budget` under load.
 */
export function parserWaitMs(): number {
  return waitedMs;
}
let waitedMs = 0;

/** The syntax tree of `code`, or why there is none (worker failed, deadline passed). Synchronous. */
export function parseTree(lang: TreeLanguage, code: string): TreeResult {
  const began = Date.now();
  try {
    return parseTreeTimed(lang, code);
  } finally {
    waitedMs += Date.now() - began;
  }
}

function parseTreeTimed(lang: TreeLanguage, code: string): TreeResult {
  try {
    if (host?.dead) return { ok: false, reason: host.dead };
    host ??= start();
    const h = host;
    const { receiveMessageOnPort } = workerThreads();
    const id = ++h.next;
    h.port.postMessage({ id, lang, code });
    const deadline = Date.now() + (h.answered ? PARSE_WAIT_MS : FIRST_PARSE_WAIT_MS);
    for (;;) {
      // Read before looking at the port: the worker posts first and bumps the flag after, so a wait on this value cannot miss the answer.
      const seen = Atomics.load(h.flag, 0);
      const msg = receiveMessageOnPort(h.port) as { message: { id: number; result: TreeResult } } | undefined;
      if (msg) {
        // An answer to an earlier request that timed out is dropped.
        if (msg.message.id !== id) continue;
        h.answered = true;
        return msg.message.result;
      }
      if (h.dead) return { ok: false, reason: h.dead };
      const left = deadline - Date.now();
      if (left <= 0) return { ok: false, reason: `the ${lang} parser did not answer within ${h.answered ? PARSE_WAIT_MS : FIRST_PARSE_WAIT_MS} ms` };
      // Sleeps until the worker bumps the flag (or a slice of the deadline passes: a dead worker is noticed).
      Atomics.wait(h.flag, 0, seen, Math.min(left, 50));
    }
  } catch (e) {
    return { ok: false, reason: `the ${lang} parser could not start: ${(e as Error).message}` };
  }
}

/** Text of a node. */
export function textOf(code: string, n: SyntaxNode): string {
  return code.slice(n.start, n.end);
}
