/**
 * JavaScript one-liners (`node -e` / `-p`, `bun -e`, `deno eval`), read with acorn: modules are
 * followed through require / import / destructuring (`const {execSync: x} = require("child_process")`),
 * string values are evaluated (literals, `+`, template literals, path.join, os.homedir(),
 * process.env.HOME, constants), and the calls that spawn, delete, move, write or reach the
 * network are reported (calls.ts).
 */
import { createRequire } from 'node:module';
import type { Node, Options } from 'acorn';
import { concat, Findings, joinPaths, str, UNKNOWN_STR, type CodeAnalysis, type Str } from './calls.js';

/** eval of a literal nested this deep is read; deeper is unknown. */
const MAX_NESTED_EVAL = 3;

const SHELL_STRING = new Set(['child_process.exec', 'child_process.execSync']);
/** (file, [args]) */
const SPAWN = new Set(['child_process.spawn', 'child_process.spawnSync', 'child_process.execFile', 'child_process.execFileSync']);
const DELETE: Record<string, boolean> = { 'fs.rmSync': false, 'fs.rm': false, 'fs.promises.rm': false, 'fs.rmdirSync': false, 'fs.rmdir': false, 'fs.promises.rmdir': false, 'fs.unlinkSync': false, 'fs.unlink': false, 'fs.promises.unlink': false, 'fs-extra.removeSync': true, 'fs-extra.remove': true, 'fs-extra.emptyDirSync': true, 'fs-extra.emptyDir': true, 'rimraf': true, 'rimraf.sync': true, 'rimraf.rimraf': true, 'rimraf.rimrafSync': true, 'del': true, 'del.sync': true, 'del.deleteSync': true, 'del.deleteAsync': true, 'Deno.remove': false, 'Deno.removeSync': false };
const MOVE = new Set(['fs.renameSync', 'fs.rename', 'fs.promises.rename', 'fs-extra.moveSync', 'fs-extra.move', 'Deno.rename', 'Deno.renameSync']);
/** Bun.spawn(["cmd", …]): an argv list first. */
const SPAWN_LIST = new Set(['Bun.spawn', 'Bun.spawnSync']);
const WRITE: Record<string, boolean> = { 'fs.writeFileSync': false, 'fs.writeFile': false, 'fs.promises.writeFile': false, 'fs.appendFileSync': true, 'fs.appendFile': true, 'fs.promises.appendFile': true, 'fs.createWriteStream': false, 'fs.truncateSync': false, 'fs.truncate': false, 'fs.symlinkSync': false, 'fs.outputFileSync': false, 'fs-extra.outputFileSync': false, 'fs-extra.outputFile': false, 'fs-extra.writeJsonSync': false, 'fs-extra.writeJson': false, 'Bun.write': false, 'Deno.writeTextFile': false, 'Deno.writeFile': false, 'Deno.writeTextFileSync': false, 'Deno.writeFileSync': false };
const COPY = new Set(['fs.copyFileSync', 'fs.copyFile', 'fs.promises.copyFile', 'fs.cpSync', 'fs.cp', 'fs.promises.cp', 'fs-extra.copySync', 'fs-extra.copy']);
const READ = new Set(['fs.readFileSync', 'fs.readFile', 'fs.promises.readFile', 'fs.createReadStream', 'Bun.file', 'Deno.readTextFile', 'Deno.readFile']);
const NETWORK = /^(?:fetch|http\.|https\.|http2\.|axios|got|node-fetch|undici|XMLHttpRequest|WebSocket|dgram\.|tls\.connect|ws)(?:\.|$)/;
const SOCKET = /^(?:net\.(?:connect|createConnection|Socket)|tls\.connect|dgram\.createSocket|Bun\.connect|Deno\.connect)$/;
const DYNAMIC_RUN = /^(?:vm\.\w+|process\.binding|process\.dlopen|process\._linkedBinding|worker_threads\.Worker|child_process\.fork|Deno\.run|Deno\.Command|module\._load|Module\._load)$/;
const GLOBALS: Record<string, string> = { module: 'module', process: 'process', fetch: 'fetch', eval: 'eval', Function: 'Function', require: 'require', Bun: 'Bun', Deno: 'Deno', XMLHttpRequest: 'XMLHttpRequest', WebSocket: 'WebSocket', globalThis: '', global: '' };

const JS_DISTINCTIVE: Record<string, string> = { require: 'require', execSync: 'child_process.execSync', spawnSync: 'child_process.spawnSync', execFileSync: 'child_process.execFileSync', rmSync: 'fs.rmSync', rmdirSync: 'fs.rmdirSync', unlinkSync: 'fs.unlinkSync', writeFileSync: 'fs.writeFileSync', appendFileSync: 'fs.appendFileSync' };

/** acorn's ESTree nodes, read loosely (the fields each type has). */
type N = Node & Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export function analyzeJavaScript(code: string, depth = 0): CodeAnalysis {
  const f = new Findings();
  let ast: N;
  try {
    ast = parseScript(code);
  } catch (e) {
    f.unparsed(`the code does not parse as JavaScript (${(e as Error).message})`);
    return f.done();
  }
  new JsReader(f, depth).visit(ast, undefined);
  return f.done();
}

/**
 * acorn, loaded on the first JavaScript one-liner: required at run time rather than imported, so
 * the hook's bundle neither carries nor starts it for the commands (nearly all) that have none.
 */
let acornParse: ((code: string, options: Options) => Node) | undefined;
function parse(code: string, options: Options): Node {
  acornParse ??= (createRequire(import.meta.url)('acorn') as typeof import('acorn')).parse;
  return acornParse(code, options);
}

function parseScript(code: string): N {
  const opts = { ecmaVersion: 'latest' as const, allowHashBang: true, allowReturnOutsideFunction: true, allowAwaitOutsideFunction: true, allowImportExportEverywhere: true };
  try {
    return parse(code, { ...opts, sourceType: 'script' }) as N;
  } catch {
    // `import fs from "fs"` (node --input-type=module, bun, deno).
    return parse(code, { ...opts, sourceType: 'module' }) as N;
  }
}

class JsReader {
  private readonly aliases = new Map<string, string>();
  private readonly values = new Map<string, Str>();
  private readonly changed = new Set<string>();

  constructor(
    private readonly f: Findings,
    private readonly depth: number,
  ) {}

  visit(n: N | null | undefined, parent: N | undefined, key?: string): void {
    if (!n || typeof n.type !== 'string') return;
    switch (n.type) {
      case 'VariableDeclarator':
        this.declare(n.id, n.init);
        break;
      case 'AssignmentExpression':
        if (n.left.type === 'Identifier') {
          if (n.operator === '=' && !this.known(n.left.name)) this.declare(n.left, n.right);
          else this.forget(n.left.name);
        }
        break;
      case 'ImportDeclaration':
        for (const s of n.specifiers) {
          const mod = moduleName(n.source.value);
          if (!mod) continue;
          if (s.type === 'ImportSpecifier') this.aliases.set(s.local.name, `${mod}.${s.imported.name ?? s.imported.value}`);
          else this.aliases.set(s.local.name, mod);
        }
        break;
      case 'ImportExpression':
        if (this.value(n.source).known === false) this.f.dynamic('import() of a module named at run time');
        break;
      case 'CallExpression':
      case 'NewExpression':
        this.call(n);
        break;
      case 'TaggedTemplateExpression': {
        // Bun's $`rm -rf ~`, zx's $`…`: a shell.
        const q = this.qualify(n.tag);
        if (q === 'Bun.$' || q === '$' || q === 'zx.$') this.f.runShell(this.template(n.quasi), q);
        break;
      }
      case 'MemberExpression':
      case 'Identifier':
        this.reference(n, parent, key);
        break;
    }
    for (const k of Object.keys(n)) {
      if (k === 'type' || k === 'start' || k === 'end' || k === 'loc' || k === 'range') continue;
      // Binding patterns name locals (declare() read them), they do not use a value.
      if (k === 'id' && n.type === 'VariableDeclarator') continue;
      const v = n[k];
      if (Array.isArray(v)) for (const c of v) this.visit(c, n, k);
      else if (v && typeof v === 'object' && typeof v.type === 'string') this.visit(v, n, k);
    }
  }

  private known(name: string): boolean {
    return this.aliases.has(name) || this.values.has(name) || this.changed.has(name);
  }

  private forget(name: string): void {
    this.changed.add(name);
    this.aliases.delete(name);
    this.values.delete(name);
  }

  private declare(id: N, init: N | null | undefined): void {
    if (!init) return;
    if (id.type === 'Identifier') {
      if (this.known(id.name)) return this.forget(id.name);
      const q = this.qualify(init);
      if (q !== undefined) return void this.aliases.set(id.name, q);
      const v = this.value(init);
      if (v.known) this.values.set(id.name, v);
      return;
    }
    if (id.type === 'ObjectPattern') {
      const q = this.qualify(init);
      for (const p of id.properties) {
        if (p.type !== 'Property' || p.value.type !== 'Identifier') continue;
        const k = p.computed ? this.value(p.key) : str(p.key.name ?? String(p.key.value));
        if (q !== undefined && k.known) this.aliases.set(p.value.name, q ? `${q}.${k.text}` : k.text);
        else this.forget(p.value.name);
      }
    }
  }

  private bindModule(p: N, mod: string): void {
    if (p.type === 'Identifier') this.aliases.set(p.name, mod);
    else if (p.type === 'ObjectPattern')
      for (const q of p.properties) if (q.type === 'Property' && q.value.type === 'Identifier' && !q.computed) this.aliases.set(q.value.name, `${mod}.${q.key.name ?? q.key.value}`);
  }

  /** The dotted name an expression stands for (`cp.execSync` → `child_process.execSync`), '' for the global object, or undefined. */
  qualify(n: N | null | undefined): string | undefined {
    if (!n) return undefined;
    switch (n.type) {
      case 'Identifier': {
        const a = this.aliases.get(n.name);
        if (a !== undefined) return a;
        if (this.known(n.name)) return undefined;
        return Object.hasOwn(GLOBALS, n.name) ? GLOBALS[n.name] : undefined;
      }
      case 'MemberExpression': {
        const o = this.qualify(n.object);
        if (o === undefined) return undefined;
        const p = n.computed ? this.value(n.property) : str(n.property.name);
        if (!p.known) return undefined;
        if (o === '') return Object.hasOwn(GLOBALS, p.text) ? GLOBALS[p.text] : p.text;
        // process.mainModule.require / module.require: require.
        if (/(?:^|\.)require$/.test(p.text) && /^(?:process\.mainModule|module|process)$/.test(o)) return 'require';
        return `${o}.${p.text}`;
      }
      case 'ChainExpression':
      case 'ParenthesizedExpression':
        return this.qualify(n.expression);
      case 'AwaitExpression':
        return this.qualify(n.argument);
      case 'CallExpression': {
        const fn = this.qualify(n.callee) ?? this.distinctive(n.callee);
        if (fn === 'require' && n.arguments[0]) {
          const v = this.value(n.arguments[0]);
          return v.known ? (moduleName(v.text) ?? v.text) : undefined;
        }
        return undefined;
      }
      case 'ImportExpression': {
        const v = this.value(n.source);
        return v.known ? (moduleName(v.text) ?? v.text) : undefined;
      }
      default:
        return undefined;
    }
  }

  value(n: N | null | undefined): Str {
    if (!n) return UNKNOWN_STR;
    switch (n.type) {
      case 'Literal':
        return typeof n.value === 'string' || typeof n.value === 'number' ? str(String(n.value)) : UNKNOWN_STR;
      case 'TemplateLiteral':
        return this.template(n);
      case 'Identifier':
        return this.values.get(n.name) ?? UNKNOWN_STR;
      case 'ParenthesizedExpression':
        return this.value(n.expression);
      case 'BinaryExpression':
        return n.operator === '+' ? concat([this.value(n.left), this.value(n.right)]) : UNKNOWN_STR;
      case 'MemberExpression': {
        const q = this.qualify(n);
        if (q === 'process.env.HOME' || q === 'process.env.USERPROFILE') return str('~');
        if (q === 'os.constants' || q === undefined) return UNKNOWN_STR;
        return UNKNOWN_STR;
      }
      case 'CallExpression': {
        const fn = this.qualify(n.callee);
        const args: N[] = n.arguments;
        if (fn === 'os.homedir') return str('~');
        if (fn === 'os.tmpdir') return str('/tmp');
        if (fn === 'process.cwd') return str('.');
        if (fn === 'path.join' || fn === 'path.resolve' || fn === 'path.posix.join') return joinPaths(args.map((a) => this.value(a)));
        if (fn === 'path.normalize' || fn === 'String' || fn === 'path.resolve') return this.value(args[0]);
        if (n.callee.type === 'MemberExpression' && !n.callee.computed && n.callee.property.name === 'concat') return concat([this.value(n.callee.object), ...args.map((a) => this.value(a))]);
        if (n.callee.type === 'MemberExpression' && !n.callee.computed && n.callee.property.name === 'join' && n.callee.object.type === 'ArrayExpression') {
          const sep = args[0] ? this.value(args[0]) : str(',');
          const items = (n.callee.object.elements as N[]).map((e) => this.value(e));
          return concat(items.flatMap((it, k) => (k ? [sep, it] : [it])));
        }
        return UNKNOWN_STR;
      }
      default:
        return UNKNOWN_STR;
    }
  }

  private template(t: N): Str {
    const parts: Str[] = [];
    t.quasis.forEach((q: N, k: number) => {
      parts.push(str(q.value.cooked ?? q.value.raw));
      if (k < t.expressions.length) parts.push(this.value(t.expressions[k]));
    });
    return concat(parts);
  }

  private list(n: N | undefined): Array<Str | undefined> | undefined {
    if (!n || n.type !== 'ArrayExpression') return undefined;
    if (n.elements.some((e: N | null) => !e || e.type === 'SpreadElement')) return undefined;
    return n.elements.map((e: N) => this.value(e));
  }

  private option(obj: N | undefined, name: string): N | undefined {
    if (!obj || obj.type !== 'ObjectExpression') return undefined;
    return obj.properties.find((p: N) => p.type === 'Property' && !p.computed && (p.key.name ?? p.key.value) === name)?.value;
  }

  /** A method whose name only child_process / fs have, or require, on an object not known (`m.require("fs")`, `x.execSync(…)`): read as theirs, failing closed. */
  private distinctive(callee: N): string | undefined {
    if (callee.type !== 'MemberExpression' || callee.computed) return undefined;
    const p: string = callee.property.name;
    return Object.hasOwn(JS_DISTINCTIVE, p) ? JS_DISTINCTIVE[p] : undefined;
  }

  private call(n: N): void {
    // import("child_process").then((m) => m.execSync(…)) / require-like promises: the callback's parameter is the module.
    if (n.callee.type === 'MemberExpression' && !n.callee.computed && n.callee.property.name === 'then') {
      const mod = this.qualify(n.callee.object);
      const cb = n.arguments[0];
      if (mod && cb && (cb.type === 'ArrowFunctionExpression' || cb.type === 'FunctionExpression') && cb.params[0]) this.bindModule(cb.params[0], mod);
    }
    const name = this.qualify(n.callee) ?? this.distinctive(n.callee);
    const args: N[] = n.arguments;
    const a0 = args[0];
    if (name === undefined) return;
    if (args.some((a) => a.type === 'SpreadElement') && (SHELL_STRING.has(name) || SPAWN.has(name) || Object.hasOwn(DELETE, name) || Object.hasOwn(WRITE, name))) return this.f.dynamic(`${name} is called with spread arguments`);
    if (SHELL_STRING.has(name)) return this.f.runShell(this.value(a0), name);
    if (SPAWN.has(name)) {
      const list = args[1] && args[1].type === 'ArrayExpression' ? this.list(args[1]) : args[1] && args[1].type !== 'ObjectExpression' ? undefined : [];
      const opts = args.find((a, k) => k > 0 && a.type === 'ObjectExpression');
      const shell = this.option(opts, 'shell');
      if (list === undefined) return this.f.spawn(undefined, name);
      if (shell && !(shell.type === 'Literal' && shell.value === false)) return this.f.runShell(concat([this.value(a0), ...list.flatMap((x) => [str(' '), x ?? UNKNOWN_STR])]), name);
      return this.f.spawn([this.value(a0), ...list], name);
    }
    if (SPAWN_LIST.has(name)) return this.f.spawn(a0?.type === 'ArrayExpression' ? this.list(a0) : undefined, name);
    if (Object.hasOwn(DELETE, name)) {
      const opts = this.option(args[1], 'recursive');
      return this.f.remove(this.value(a0), DELETE[name] || (opts !== undefined && !(opts.type === 'Literal' && opts.value === false)), name);
    }
    if (name === 'process.chdir' || name === 'Deno.chdir') return this.f.chdir(this.value(a0));
    if (MOVE.has(name)) return this.f.move(this.value(a0), this.value(args[1]), name);
    if (COPY.has(name)) return this.f.copy(this.value(a0), this.value(args[1]), name);
    if (Object.hasOwn(WRITE, name)) {
      const flag = this.option(args[name === 'fs.createWriteStream' ? 1 : 2], 'flag') ?? this.option(args[1], 'flags');
      const append = WRITE[name] || (flag !== undefined && /a/.test(this.value(flag).text));
      return this.f.write(name === 'fs.symlinkSync' ? this.value(args[1]) : this.value(a0), append, name);
    }
    if (name === 'fs.openSync' || name === 'fs.open' || name === 'fs.promises.open') {
      const mode = args[1] ? this.value(args[1]) : str('r');
      if (!mode.known || /[wa+]/.test(mode.text)) return this.f.write(this.value(a0), mode.text.includes('a'), name);
      return this.f.read(this.value(a0));
    }
    if (name === 'fs.chmodSync' || name === 'fs.chmod' || name === 'fs.promises.chmod') return this.f.permissions('chmod', args[1] ? (typeof args[1].value === 'number' ? args[1].value.toString(8) : this.value(args[1]).text) : '?', this.value(a0), name);
    if (name === 'fs.chownSync' || name === 'fs.chown') return this.f.permissions('chown', 'root', this.value(a0), name);
    if (READ.has(name)) return this.f.read(this.value(a0));
    if (SOCKET.test(name)) return this.f.opensSocket();
    if (NETWORK.test(name)) return this.f.usesNetwork();
    if (name === 'eval') return this.evalCode(a0, 'eval');
    if (name === 'Function' || name === 'AsyncFunction') return this.evalCode(args[args.length - 1], 'new Function');
    if (name === 'require' && a0 && !this.value(a0).known) return this.f.dynamic('require() of a module named at run time');
    if (DYNAMIC_RUN.test(name)) return this.f.dynamic(`${name} runs code or a program this check does not read`);
    if (name === 'setTimeout' || name === 'setInterval') {
      if (a0 && (a0.type === 'Literal' || a0.type === 'TemplateLiteral' || a0.type === 'BinaryExpression')) this.evalCode(a0, name);
    }
  }

  private evalCode(arg: N | undefined, what: string): void {
    if (!arg) return;
    const v = this.value(arg);
    if (!v.known) return this.f.dynamic(`${what} runs code built at run time`);
    if (this.depth >= MAX_NESTED_EVAL) return this.f.dynamic(`${what} nested too deep to follow`);
    this.f.absorb(analyzeJavaScript(v.text, this.depth + 1));
  }

  /** References that are not calls: the whole environment as data, or a spawning function passed as a value. */
  private reference(n: N, parent: N | undefined, key: string | undefined): void {
    if (parent?.type === 'MemberExpression' && key === 'object') return;
    if (parent?.type === 'MemberExpression' && key === 'property' && !parent.computed) return;
    if ((parent?.type === 'CallExpression' || parent?.type === 'NewExpression') && key === 'callee') return;
    if (parent?.type === 'VariableDeclarator' || (parent?.type === 'AssignmentExpression' && key === 'left') || parent?.type === 'Property' && key === 'key') return;
    if (key === 'params') return;
    if (parent?.type === 'ImportSpecifier' || parent?.type === 'ImportDefaultSpecifier' || parent?.type === 'ImportNamespaceSpecifier') return;
    const q = this.qualify(n);
    if (!q) return;
    if (q === 'process.env') return this.f.environment();
    if (SHELL_STRING.has(q) || SPAWN.has(q) || q === 'eval' || q === 'child_process') this.f.dynamic(`${q} is passed as a value: what it runs is not read`);
  }
}

function moduleName(spec: unknown): string | undefined {
  if (typeof spec !== 'string') return undefined;
  const m = spec.replace(/^node:/, '');
  if (m === 'fs/promises') return 'fs.promises';
  return m;
}
