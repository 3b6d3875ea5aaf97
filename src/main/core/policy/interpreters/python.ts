/**
 * Python one-liners (`python3 -c`, heredocs fed to python), read with tree-sitter-python: imports
 * and aliases are followed (`import shutil as sh`, `from os import system`, `__import__("os")`,
 * `getattr(os, "system")`), string values are evaluated (literals, `+`, f-strings, `%`,
 * os.path.join, expanduser, `Path.home() / "x"`, variables assigned once), and the calls that
 * spawn, delete, move, write or reach the network are reported (calls.ts).
 */
import { concat, Findings, joinPaths, str, UNKNOWN_STR, type CodeAnalysis, type Str } from './calls.js';
import { parseTree, textOf, type SyntaxNode } from './tree-sitter-host.js';

/** eval/exec of a literal nested this deep is read; deeper is unknown. */
const MAX_NESTED_EVAL = 3;

const SHELL_STRING = new Set(['os.system', 'os.popen', 'subprocess.getoutput', 'subprocess.getstatusoutput', 'commands.getoutput', 'commands.getstatusoutput', 'asyncio.create_subprocess_shell', 'platform.popen']);
const SUBPROCESS = new Set(['subprocess.run', 'subprocess.call', 'subprocess.check_call', 'subprocess.check_output', 'subprocess.Popen', 'pty.spawn']);
/** exec*v / spawn*v: the argv is a list argument (index). */
const EXEC_LIST: Record<string, number> = { 'os.execv': 1, 'os.execve': 1, 'os.execvp': 1, 'os.execvpe': 1, 'os.spawnv': 2, 'os.spawnve': 2, 'os.spawnvp': 2, 'os.spawnvpe': 2, 'os.posix_spawn': 1, 'os.posix_spawnp': 1 };
/** exec*l / spawn*l: the argv is the arguments from an index on. */
const EXEC_ARGS: Record<string, number> = { 'os.execl': 1, 'os.execle': 1, 'os.execlp': 1, 'os.execlpe': 1, 'os.spawnl': 2, 'os.spawnle': 2, 'os.spawnlp': 2, 'os.spawnlpe': 2, 'asyncio.create_subprocess_exec': 0 };
const DELETE: Record<string, boolean> = { 'os.remove': false, 'os.unlink': false, 'os.rmdir': false, 'os.removedirs': false, 'shutil.rmtree': true, 'send2trash.send2trash': true };
const MOVE = new Set(['shutil.move', 'os.rename', 'os.replace', 'os.renames']);
const COPY = new Set(['shutil.copy', 'shutil.copy2', 'shutil.copyfile', 'shutil.copytree', 'os.link', 'os.symlink']);
const OPEN = new Set(['open', 'io.open', 'codecs.open', 'builtins.open']);
/** Modules that reach the network; `urllib.parse` only splits and quotes URLs (`urlsplit(open(".env")…)` read a local file: pass 228 F36). */
const NETWORK = /^(?:requests|httpx|urllib\d?(?!\.parse(?:\.|$))|urllib3|http\.client|aiohttp|smtplib|ftplib|paramiko|telnetlib|xmlrpc|websocket|websockets|pycurl|boto3|botocore)(?:\.|$)/;
const SOCKET = /^socket\.(?:socket|create_connection|fromfd|socketpair)$|^asyncio\.open_connection$/;
/** Modules whose functions reach processes or files: reaching them by a name not known is unknown. */
const POWERFUL = new Set(['os', 'subprocess', 'shutil', 'pty', 'builtins', 'posix', 'commands', 'importlib', 'ctypes', 'sys']);
/** Method names only these modules have: on an unknown object they are read as the module's. */
const DISTINCTIVE: Record<string, string> = { system: 'os.system', popen: 'os.popen', rmtree: 'shutil.rmtree', execv: 'os.execv', execvp: 'os.execvp', execvpe: 'os.execvpe', execl: 'os.execl', execlp: 'os.execlp', spawnv: 'os.spawnv', Popen: 'subprocess.Popen', check_output: 'subprocess.check_output', check_call: 'subprocess.check_call', getoutput: 'subprocess.getoutput', removedirs: 'os.removedirs' };
/** Modules read as themselves even where the code forgot to import them. */
const IMPLICIT_MODULES = new Set(['os', 'subprocess', 'shutil', 'pty', 'socket', 'requests', 'urllib', 'http', 'pathlib', 'importlib', 'ctypes', 'asyncio', 'commands', 'sys', 'io', 'builtins']);
const NATIVE = /^(?:ctypes|cffi|_posixsubprocess|posix)(?:\.|$)/;

interface Scope {
  /** Local name → dotted module or function path (`sh` → `shutil`, `system` → `os.system`). */
  aliases: Map<string, string>;
  /** Local name → string value, for names assigned once. */
  values: Map<string, Str>;
  /** Local name → pathlib value (`p = Path.home()`). */
  paths: Map<string, Str>;
  /** Names assigned more than once: their value is not known. */
  changed: Set<string>;
  /** `from M import *`. */
  star: string[];
}

export function analyzePython(code: string, depth = 0): CodeAnalysis {
  const f = new Findings();
  const tree = parseTree('python', code);
  if (!tree.ok) {
    f.unparsed(tree.reason);
    return f.done();
  }
  if (tree.hasError) {
    f.unparsed('the code does not parse as Python');
    return f.done();
  }
  const scope: Scope = { aliases: new Map(), values: new Map(), paths: new Map(), changed: new Set(), star: [] };
  new PythonReader(code, f, scope, depth).visit(tree.root);
  return f.done();
}

const kids = (n: SyntaxNode) => n.children.filter((c) => c.named && c.type !== 'comment');
const field = (n: SyntaxNode, name: string) => n.children.find((c) => c.field === name);

class PythonReader {
  constructor(
    private readonly code: string,
    private readonly f: Findings,
    private readonly s: Scope,
    private readonly depth: number,
  ) {}

  private text(n: SyntaxNode): string {
    return textOf(this.code, n);
  }

  visit(n: SyntaxNode, parent?: SyntaxNode): void {
    switch (n.type) {
      case 'import_statement':
        for (const c of kids(n)) {
          if (c.type === 'dotted_name') this.s.aliases.set(this.text(c).split('.')[0], this.text(c).split('.')[0]);
          else if (c.type === 'aliased_import') this.s.aliases.set(this.text(field(c, 'alias')!), this.text(field(c, 'name')!));
        }
        this.checkModules(n);
        return;
      case 'import_from_statement': {
        const mod = field(n, 'module_name');
        const m = mod ? this.text(mod) : '';
        for (const c of n.children) {
          if (c.field !== 'name') continue;
          if (c.type === 'dotted_name') this.s.aliases.set(this.text(c), `${m}.${this.text(c)}`);
          else if (c.type === 'aliased_import') this.s.aliases.set(this.text(field(c, 'alias')!), `${m}.${this.text(field(c, 'name')!)}`);
        }
        if (n.children.some((c) => c.type === 'wildcard_import')) this.s.star.push(m);
        this.checkModules(n);
        return;
      }
      case 'assignment':
        this.assign(n);
        break;
      case 'for_statement':
        this.bindLoop(n);
        break;
      case 'list_comprehension':
      case 'set_comprehension':
      case 'dictionary_comprehension':
      case 'generator_expression':
        // The loop variable is bound before the body that uses it (the body comes first in the source).
        for (const c of n.children) if (c.type === 'for_in_clause') this.bindLoop(c);
        break;
      case 'augmented_assignment': {
        const left = field(n, 'left');
        if (left?.type === 'identifier') this.forget(this.text(left));
        break;
      }
      case 'call':
        this.call(n);
        break;
      case 'exec_statement':
        this.evalCode(kids(n)[0], 'exec');
        break;
      case 'attribute':
      case 'identifier':
        this.reference(n, parent);
        break;
    }
    for (const c of n.children) this.visit(c, n);
  }

  private checkModules(n: SyntaxNode): void {
    if (NATIVE.test(this.text(n).replace(/^from\s+|^import\s+/, ''))) this.f.dynamic('the code loads native code (ctypes/cffi): what it calls is not known');
  }

  private forget(name: string): void {
    this.s.changed.add(name);
    this.s.values.delete(name);
    this.s.paths.delete(name);
    this.s.aliases.delete(name);
  }

  private assign(n: SyntaxNode): void {
    const left = field(n, 'left');
    const right = field(n, 'right');
    if (!left) return;
    if (left.type !== 'identifier' || !right) {
      // Tuple targets, attributes, subscripts: names bound there are no longer known.
      for (const id of this.identifiers(left)) this.forget(id);
      return;
    }
    const name = this.text(left);
    if (this.s.changed.has(name) || this.s.values.has(name) || this.s.paths.has(name) || (this.s.aliases.has(name) && this.s.aliases.get(name) !== name)) {
      this.forget(name);
      return;
    }
    const q = this.qualify(right);
    if (q) {
      this.s.aliases.set(name, q);
      return;
    }
    const p = this.pathValue(right);
    if (p) {
      this.s.paths.set(name, p);
      return;
    }
    const v = this.value(right);
    if (v.known) this.s.values.set(name, v);
  }

  /** `for f in os.listdir(d)` / `glob.glob(p)` / `Path(d).iterdir()`: f is a file in d (a glob); any other loop: f is not known. */
  private bindLoop(n: SyntaxNode): void {
    const left = field(n, 'left');
    const right = field(n, 'right');
    if (!left) return;
    for (const id of this.identifiers(left)) this.forget(id);
    if (left.type !== 'identifier' || right?.type !== 'call') return;
    const fn = this.qualify(field(right, 'function'));
    const args = this.args(right);
    let v: Str | undefined;
    if (fn === 'os.listdir' || fn === 'os.scandir') {
      const d = args.pos[0] ? this.value(args.pos[0]) : str('.');
      if (d.known) v = d.text === '.' ? str('*') : joinPaths([d, str('*')]);
    } else if (fn === 'glob.glob' || fn === 'glob.iglob') {
      const g = this.value(args.pos[0]);
      if (g.known) v = g;
    } else {
      const callee = field(right, 'function');
      const base = callee?.type === 'attribute' ? this.pathValue(field(callee, 'object')) : undefined;
      const attr = callee?.type === 'attribute' ? this.text(field(callee, 'attribute')!) : '';
      if (base?.known && attr === 'iterdir') v = joinPaths([base, str('*')]);
      else if (base?.known && (attr === 'glob' || attr === 'rglob')) {
        const g = this.value(args.pos[0]);
        if (g.known) v = joinPaths([base, str(attr === 'rglob' ? `**/${g.text}` : g.text)]);
      }
    }
    if (v) {
      this.s.changed.delete(this.text(left));
      this.s.values.set(this.text(left), v);
    }
  }

  private identifiers(n: SyntaxNode): string[] {
    if (n.type === 'identifier') return [this.text(n)];
    return n.children.flatMap((c) => this.identifiers(c));
  }

  /** The dotted name a callee or reference stands for (`sh.rmtree` → `shutil.rmtree`), or undefined. */
  qualify(n: SyntaxNode | undefined): string | undefined {
    if (!n) return undefined;
    if (n.type === 'identifier') {
      const id = this.text(n);
      const a = this.s.aliases.get(id);
      if (a) return a;
      if (this.s.changed.has(id) || this.s.values.has(id) || this.s.paths.has(id)) return undefined;
      for (const m of this.s.star) if (isKnownFunction(`${m}.${id}`)) return `${m}.${id}`;
      // A well-known module used without its import (a NameError when run, but read as the module: fail closed).
      if (IMPLICIT_MODULES.has(id)) return id;
      return ['open', 'eval', 'exec', 'compile', '__import__', 'getattr', 'Path'].includes(id) ? (id === 'Path' ? undefined : id) : undefined;
    }
    if (n.type === 'attribute') {
      const o = this.qualify(field(n, 'object'));
      const a = field(n, 'attribute');
      return o && a ? `${o}.${this.text(a)}` : undefined;
    }
    if (n.type === 'parenthesized_expression') return this.qualify(kids(n)[0]);
    if (n.type === 'call') {
      const fn = this.qualify(field(n, 'function'));
      const args = this.args(n);
      if ((fn === '__import__' || fn === 'importlib.import_module' || fn?.endsWith('.__import__')) && args.pos[0]) {
        const v = this.value(args.pos[0]);
        return v.known ? v.text : undefined;
      }
      if (fn === 'getattr' && args.pos[0] && args.pos[1]) {
        const o = this.qualify(args.pos[0]);
        const v = this.value(args.pos[1]);
        return o && v.known ? `${o}.${v.text}` : undefined;
      }
    }
    return undefined;
  }

  private args(call: SyntaxNode): { pos: SyntaxNode[]; kw: Map<string, SyntaxNode>; splat: boolean } {
    const list = field(call, 'arguments');
    const pos: SyntaxNode[] = [];
    const kw = new Map<string, SyntaxNode>();
    let splat = false;
    for (const c of list ? kids(list) : []) {
      if (c.type === 'keyword_argument') {
        const k = field(c, 'name');
        const v = field(c, 'value');
        if (k && v) kw.set(this.text(k), v);
      } else if (c.type === 'list_splat' || c.type === 'dictionary_splat') splat = true;
      else pos.push(c);
    }
    return { pos, kw, splat };
  }

  /** A string value, with UNKNOWN_WORD where it cannot be known. */
  value(n: SyntaxNode | undefined): Str {
    if (!n) return UNKNOWN_STR;
    switch (n.type) {
      case 'string':
        return this.stringValue(n);
      case 'concatenated_string':
        return concat(kids(n).map((c) => this.value(c)));
      case 'parenthesized_expression':
        return this.value(kids(n)[0]);
      case 'identifier': {
        const id = this.text(n);
        return this.s.values.get(id) ?? this.s.paths.get(id) ?? UNKNOWN_STR;
      }
      case 'binary_operator': {
        const op = n.children.find((c) => c.field === 'operator');
        const l = field(n, 'left');
        const r = field(n, 'right');
        if (op && this.text(op) === '+') return concat([this.value(l), this.value(r)]);
        if (op && this.text(op) === '%') {
          const fmt = this.value(l);
          const items = r?.type === 'tuple' ? kids(r).map((c) => this.value(c)) : [this.value(r)];
          return formatPercent(fmt, items);
        }
        if (op && this.text(op) === '/') {
          const p = this.pathValue(n);
          if (p) return p;
        }
        return UNKNOWN_STR;
      }
      case 'call': {
        const p = this.pathValue(n);
        if (p) return p;
        const fn = this.qualify(field(n, 'function'));
        const args = this.args(n);
        if (fn === 'os.path.join') return joinPaths(args.pos.map((a) => this.value(a)));
        if (fn === 'os.path.expanduser' || fn === 'os.path.abspath' || fn === 'os.path.realpath' || fn === 'os.path.normpath' || fn === 'str' || fn === 'os.fspath') return this.value(args.pos[0]);
        if (fn === 'os.getenv' || fn === 'os.environ.get') return envValue(this.value(args.pos[0]));
        if (fn === 'os.getcwd') return str('.');
        // "…".format(x)
        const callee = field(n, 'function');
        if (callee?.type === 'attribute' && this.text(field(callee, 'attribute')!) === 'format') {
          const fmt = this.value(field(callee, 'object'));
          return formatBraces(fmt, args.pos.map((a) => this.value(a)));
        }
        if (callee?.type === 'attribute' && this.text(field(callee, 'attribute')!) === 'join') {
          const sep = this.value(field(callee, 'object'));
          const list = args.pos[0];
          if (sep.known && list && (list.type === 'list' || list.type === 'tuple')) {
            const items = kids(list).map((c) => this.value(c));
            return concat(items.flatMap((it, k) => (k ? [sep, it] : [it])));
          }
        }
        return UNKNOWN_STR;
      }
      case 'subscript': {
        if (this.qualify(field(n, 'value')) === 'os.environ') return envValue(this.value(field(n, 'subscript')));
        return UNKNOWN_STR;
      }
      case 'attribute':
        return this.pathValue(n) ?? UNKNOWN_STR;
      default:
        return UNKNOWN_STR;
    }
  }

  private stringValue(n: SyntaxNode): Str {
    const start = n.children.find((c) => c.type === 'string_start');
    const prefix = start ? this.text(start).replace(/['"]+$/, '').toLowerCase() : '';
    const raw = prefix.includes('r');
    const parts: Str[] = [];
    for (const c of n.children) {
      if (c.type === 'string_content') parts.push(str(raw ? this.text(c) : unescapePython(this.text(c))));
      else if (c.type === 'escape_sequence') parts.push(str(unescapePython(this.text(c))));
      else if (c.type === 'interpolation') parts.push(this.value(c.children.find((k) => k.field === 'expression') ?? kids(c)[0]));
    }
    return concat(parts);
  }

  /** pathlib values: Path.home(), Path("~").expanduser(), p / "x", Path(x). */
  private pathValue(n: SyntaxNode | undefined): Str | undefined {
    if (!n) return undefined;
    if (n.type === 'identifier') return this.s.paths.get(this.text(n));
    if (n.type === 'parenthesized_expression') return this.pathValue(kids(n)[0]);
    if (n.type === 'binary_operator') {
      const op = n.children.find((c) => c.field === 'operator');
      const l = this.pathValue(field(n, 'left'));
      if (l && op && this.text(op) === '/') return joinPaths([l, this.value(field(n, 'right'))]);
      return undefined;
    }
    if (n.type !== 'call') return undefined;
    const callee = field(n, 'function');
    const args = this.args(n);
    if (callee?.type === 'identifier' && ['Path', 'PosixPath', 'PurePath'].includes(this.text(callee)) && !this.s.aliases.has(this.text(callee))) return args.pos.length ? joinPaths(args.pos.map((a) => this.value(a))) : str('.');
    const q = this.qualify(callee);
    if (q && /^pathlib\.(?:Pure)?(?:Posix)?Path$/.test(q)) return args.pos.length ? joinPaths(args.pos.map((a) => this.value(a))) : str('.');
    if (q && /^pathlib\.(?:Posix)?Path\.home$/.test(q)) return str('~');
    if (callee?.type === 'attribute') {
      const attr = this.text(field(callee, 'attribute')!);
      const obj = field(callee, 'object');
      if (attr === 'home' && obj && ['Path', 'PosixPath'].includes(this.text(obj))) return str('~');
      if (attr === 'cwd' && obj && ['Path', 'PosixPath'].includes(this.text(obj))) return str('.');
      const base = this.pathValue(obj);
      if (base && ['expanduser', 'resolve', 'absolute'].includes(attr)) return base;
      if (base && attr === 'joinpath') return joinPaths([base, ...args.pos.map((a) => this.value(a))]);
      if (base && attr === 'parent') return undefined;
    }
    return undefined;
  }

  private call(n: SyntaxNode): void {
    const callee = field(n, 'function');
    const q = this.qualify(callee);
    let name = this.knownSuffix(q ?? this.dotted(callee));
    // Only on an object not known: `platform.system()` is platform's own function.
    if (q === undefined && (!name || !isKnownName(name))) name = this.distinctive(callee) ?? name;
    const args = this.args(n);
    const a0 = args.pos[0];
    if (name) {
      if (SHELL_STRING.has(name)) return this.f.runShell(a0 ? this.value(a0) : undefined, name);
      if (SUBPROCESS.has(name)) {
        const list = a0 && (a0.type === 'list' || a0.type === 'tuple') ? this.list(a0) : undefined;
        const shell = args.kw.get('shell');
        if (list && shell && this.text(shell) !== 'False') return this.f.runShell(concat(list.flatMap((x, k) => (k ? [str(' '), x] : [x]))), name);
        if (list) return this.f.spawn(list, name);
        if (a0) return this.f.runShell(this.value(a0), name);
        return this.f.spawn(undefined, name);
      }
      if (Object.hasOwn(EXEC_LIST, name)) {
        const l = args.pos[EXEC_LIST[name]];
        return this.f.spawn(l && (l.type === 'list' || l.type === 'tuple') ? this.list(l) : undefined, name);
      }
      if (Object.hasOwn(EXEC_ARGS, name)) return this.f.spawn(args.splat ? undefined : args.pos.slice(EXEC_ARGS[name]).map((x) => this.value(x)), name);
      if (name === 'os.chdir') return this.f.chdir(a0 ? this.value(a0) : undefined);
      if (Object.hasOwn(DELETE, name)) return this.f.remove(a0 ? this.value(a0) : undefined, DELETE[name], name);
      if (MOVE.has(name)) return this.f.move(this.value(a0), this.value(args.pos[1]), name);
      if (COPY.has(name)) return this.f.copy(this.value(a0), this.value(args.pos[1]), name);
      if (name === 'os.truncate') return this.f.write(this.value(a0), false, name);
      if (name === 'os.chmod') return this.f.permissions('chmod', a0 ? modeText(this.text(args.pos[1] ?? a0)) : '?', this.value(a0), name);
      if (name === 'os.chown' || name === 'shutil.chown' || name === 'os.lchown') return this.f.permissions('chown', 'root', this.value(a0), name);
      if (name === 'os.open') {
        const flags = args.pos[1] ? this.text(args.pos[1]) : '';
        if (/O_(?:WRONLY|RDWR|CREAT|TRUNC|APPEND)/.test(flags)) return this.f.write(this.value(a0), /O_APPEND/.test(flags), name);
        return this.f.read(this.value(a0));
      }
      if (OPEN.has(name)) return this.open(this.value(a0), args.pos[1] ?? args.kw.get('mode'), name);
      if (name === 'os.dup2') return this.f.joinsDescriptors();
      if (SOCKET.test(name)) return this.f.opensSocket();
      if (NETWORK.test(name)) return this.f.usesNetwork();
      if (name === 'eval' || name === 'exec' || name === 'compile') return this.evalCode(a0, name);
      if (name === '__import__' || name === 'importlib.import_module') {
        if (!a0 || !this.value(a0).known) this.f.dynamic(`${name} imports a module named at run time`);
        return;
      }
      if (name === 'getattr' && a0 && args.pos[1]) {
        const o = this.qualify(a0);
        if (o && POWERFUL.has(o.split('.')[0]) && !this.value(args.pos[1]).known) this.f.dynamic(`getattr on ${o} with a name not known before it runs`);
        return;
      }
      if (NATIVE.test(name)) return this.f.dynamic(`${name} calls native code`);
    }
    // Methods on pathlib values: Path(x).unlink(), .write_text(), .open("w"), .rename(y).
    if (callee?.type === 'attribute') {
      const base = this.pathValue(field(callee, 'object'));
      const attr = this.text(field(callee, 'attribute')!);
      if (base) {
        if (attr === 'unlink' || attr === 'rmdir') return this.f.remove(base, false, `Path.${attr}`);
        if (attr === 'rename' || attr === 'replace') return this.f.move(base, this.value(a0), `Path.${attr}`);
        if (attr === 'write_text' || attr === 'write_bytes' || attr === 'touch') return this.f.write(base, false, `Path.${attr}`);
        if (attr === 'open') return this.open(base, a0 ?? args.kw.get('mode'), 'Path.open');
        if (attr === 'chmod') return this.f.permissions('chmod', a0 ? modeText(this.text(a0)) : '?', base, 'Path.chmod');
        if (attr === 'symlink_to' || attr === 'hardlink_to') return this.f.write(base, false, `Path.${attr}`);
        if (attr === 'read_text' || attr === 'read_bytes') return this.f.read(base);
      }
    }
  }

  /** A method whose name only os / shutil / subprocess have, on an object not known (`obj.rmtree("/")`): read as theirs, failing closed. */
  private distinctive(n: SyntaxNode | undefined): string | undefined {
    if (n?.type !== 'attribute') return undefined;
    const a = field(n, 'attribute');
    return a ? DISTINCTIVE[this.text(a)] : undefined;
  }

  /** `a.b.c` as written when every part is a name (`self.os.system`), else undefined. */
  private dotted(n: SyntaxNode | undefined): string | undefined {
    if (!n) return undefined;
    if (n.type === 'identifier') return this.text(n);
    if (n.type !== 'attribute') return undefined;
    const o = this.dotted(field(n, 'object'));
    const a = field(n, 'attribute');
    return o && a ? `${o}.${this.text(a)}` : undefined;
  }

  /**
   * Modules re-export the ones they import (`pathlib.os` is `os`, `shutil.os.system` runs a shell):
   * a dotted name whose tail is a known call is that call. Plain names are kept as they are.
   */
  private knownSuffix(q: string | undefined): string | undefined {
    if (!q || isKnownName(q)) return q;
    const parts = q.split('.');
    for (let k = 1; k < parts.length - 1; k++) {
      const tail = parts.slice(k).join('.');
      if (isKnownName(tail)) return tail;
    }
    return q;
  }

  private open(path: Str, modeNode: SyntaxNode | undefined, what: string): void {
    const mode = modeNode ? this.value(modeNode) : str('r');
    if (!mode.known) return this.f.write(path, false, what);
    if (/[wax+]/.test(mode.text)) return this.f.write(path, mode.text.includes('a'), what);
    this.f.read(path);
  }

  private list(n: SyntaxNode): Array<Str | undefined> | undefined {
    const items = kids(n);
    if (items.some((c) => c.type === 'list_splat' || c.type === 'list_comprehension')) return undefined;
    return items.map((c) => this.value(c));
  }

  private evalCode(arg: SyntaxNode | undefined, what: string): void {
    const v = this.value(arg);
    if (!v.known) return this.f.dynamic(`${what} runs code built at run time`);
    if (this.depth >= MAX_NESTED_EVAL) return this.f.dynamic(`${what} nested too deep to follow`);
    this.f.absorb(analyzePython(v.text, this.depth + 1));
  }

  /** References that are not calls: the whole environment as data, or a spawning function passed as a value (`map(os.system, …)`). */
  private reference(n: SyntaxNode, parent: SyntaxNode | undefined): void {
    if (parent?.type === 'attribute' && n.field === 'object') return;
    if (parent?.type === 'call' && n.field === 'function') return;
    if (parent && (parent.type === 'import_statement' || parent.type === 'import_from_statement' || parent.type === 'dotted_name' || parent.type === 'aliased_import' || parent.type === 'keyword_argument' && n.field === 'name')) return;
    if (parent?.type === 'assignment' && n.field === 'left') return;
    if (n.type === 'identifier' && parent?.type === 'attribute' && n.field === 'attribute') return;
    const q = this.qualify(n);
    if (!q) return;
    if (q === 'os.environ' || q === 'os.environb') {
      // os.environ["X"] is one value; os.environ itself (dict(os.environ), json.dumps(os.environ)) is all of it.
      if (parent?.type === 'subscript' && n.field === 'value') return;
      this.f.environment();
      return;
    }
    if (parent?.type === 'assignment' && n.field === 'right') return;
    if (isKnownFunction(q)) this.f.dynamic(`${q} is passed as a value: what it runs is not read`);
  }
}

/** Any name the call table acts on. */
function isKnownName(q: string): boolean {
  return isKnownFunction(q) || MOVE.has(q) || COPY.has(q) || OPEN.has(q) || SOCKET.test(q) || /^os\.(?:chmod|chown|lchown|truncate|open|dup2)$|^shutil\.chown$/.test(q);
}

function isKnownFunction(q: string): boolean {
  return SHELL_STRING.has(q) || SUBPROCESS.has(q) || Object.hasOwn(EXEC_LIST, q) || Object.hasOwn(EXEC_ARGS, q) || Object.hasOwn(DELETE, q) || MOVE.has(q) || q === 'eval' || q === 'exec';
}

function envValue(name: Str): Str {
  return name.known && name.text === 'HOME' ? str('~') : UNKNOWN_STR;
}

function modeText(t: string): string {
  const m = /^0o?([0-7]{3,4})$/.exec(t.trim());
  return m ? m[1] : t.trim();
}

/** "rm -rf %s" % x */
function formatPercent(fmt: Str, items: Str[]): Str {
  if (!fmt.known) return UNKNOWN_STR;
  const parts: Str[] = [];
  let k = 0;
  let last = 0;
  const re = /%(?:\([^)]*\))?[-#0 +]*\d*(?:\.\d+)?[sdrifxXoa%]/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(fmt.text))) {
    parts.push(str(fmt.text.slice(last, m.index)));
    parts.push(m[0] === '%%' ? str('%') : (items[k++] ?? UNKNOWN_STR));
    last = m.index + m[0].length;
  }
  parts.push(str(fmt.text.slice(last)));
  return concat(parts);
}

/** "rm -rf {}".format(x) */
function formatBraces(fmt: Str, items: Str[]): Str {
  if (!fmt.known) return UNKNOWN_STR;
  const parts: Str[] = [];
  let k = 0;
  let last = 0;
  const re = /\{(\d*)[^{}]*\}/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(fmt.text))) {
    parts.push(str(fmt.text.slice(last, m.index)));
    parts.push((m[1] ? items[Number(m[1])] : items[k++]) ?? UNKNOWN_STR);
    last = m.index + m[0].length;
  }
  parts.push(str(fmt.text.slice(last)));
  return concat(parts);
}

function unescapePython(s: string): string {
  return s.replace(/\\(?:x([0-9a-fA-F]{2})|u([0-9a-fA-F]{4})|([0-7]{1,3})|(.))/gs, (_m, hex, uni, oct, ch) => {
    if (hex) return String.fromCharCode(parseInt(hex, 16));
    if (uni) return String.fromCharCode(parseInt(uni, 16));
    if (oct) return String.fromCharCode(parseInt(oct, 8));
    return ({ n: '\n', t: '\t', r: '\r', '0': '\0', '\n': '' } as Record<string, string>)[ch] ?? ch;
  });
}
