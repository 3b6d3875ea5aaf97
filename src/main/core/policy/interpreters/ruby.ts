/**
 * Ruby one-liners (`ruby -e`, heredocs fed to ruby), read with tree-sitter-ruby: Kernel's
 * system/exec/spawn (string: a shell line; several strings or an array: an argv), backticks and
 * %x(), IO.popen, Open3, FileUtils / File / Dir deletions and writes, Net::HTTP and sockets,
 * `send(:system, …)`, eval of a literal; string values are evaluated (literals, interpolation,
 * `+`, File.join, Dir.home, ENV["HOME"], variables assigned once).
 */
import { concat, Findings, joinPaths, str, UNKNOWN_STR, type CodeAnalysis, type Str } from './calls.js';
import { parseTree, textOf, type SyntaxNode } from './tree-sitter-host.js';

const MAX_NESTED_EVAL = 3;

const SPAWNERS = new Set(['system', 'exec', 'spawn', 'Kernel.system', 'Kernel.exec', 'Kernel.spawn', 'Process.spawn', 'Process.exec', 'IO.popen', 'Open3.capture2', 'Open3.capture2e', 'Open3.capture3', 'Open3.popen2', 'Open3.popen2e', 'Open3.popen3', 'Open3.pipeline', 'Open3.pipeline_r', 'Open3.pipeline_w', 'Open3.pipeline_rw', 'PTY.spawn', 'Kernel.`', 'Kernel.open', 'open']);
const KERNEL_SPAWNERS = new Set(['system', 'exec', 'spawn', '`']);
const DELETE: Record<string, boolean> = { 'FileUtils.rm_rf': true, 'FileUtils.rm_r': true, 'FileUtils.remove_dir': true, 'FileUtils.rmtree': true, 'FileUtils.remove_entry': true, 'FileUtils.remove_entry_secure': true, 'FileUtils.rm': false, 'FileUtils.rm_f': false, 'FileUtils.remove': false, 'FileUtils.rmdir': false, 'FileUtils.safe_unlink': false, 'File.delete': false, 'File.unlink': false, 'Dir.rmdir': false, 'Dir.delete': false, 'Dir.unlink': false };
const MOVE = new Set(['FileUtils.mv', 'FileUtils.move', 'File.rename']);
const COPY = new Set(['FileUtils.cp', 'FileUtils.copy', 'FileUtils.cp_r', 'FileUtils.install', 'FileUtils.ln', 'FileUtils.ln_s', 'FileUtils.ln_sf', 'FileUtils.copy_file', 'File.symlink', 'File.link']);
const WRITE: Record<string, boolean> = { 'File.write': false, 'IO.write': false, 'File.binwrite': false, 'IO.binwrite': false, 'FileUtils.touch': false, 'File.truncate': false };
const READ = new Set(['File.read', 'IO.read', 'File.readlines', 'IO.readlines', 'File.binread', 'File.foreach', 'IO.foreach']);
const NETWORK = /^(?:Net::\w+|URI|HTTParty|Faraday|RestClient|Excon|HTTP|Typhoeus|OpenURI|Mechanize)(?:\.|$)/;
const SOCKET = /^(?:TCPSocket|UDPSocket|Socket|UNIXSocket|TCPServer)\.(?:new|open|tcp|udp)$/;
const EVALS = new Set(['eval', 'instance_eval', 'class_eval', 'module_eval', 'Kernel.eval', 'binding.eval', 'instance_exec', 'class_exec']);
const SENDS = new Set(['send', 'public_send', '__send__']);
const NATIVE = /^(?:Fiddle|FFI|DL)(?:::|\.|$)/;

export function analyzeRuby(code: string, depth = 0): CodeAnalysis {
  const f = new Findings();
  const tree = parseTree('ruby', code);
  if (!tree.ok) {
    f.unparsed(tree.reason);
    return f.done();
  }
  if (tree.hasError) {
    f.unparsed('the code does not parse as Ruby');
    return f.done();
  }
  new RubyReader(code, f, depth).visit(tree.root);
  return f.done();
}

const kids = (n: SyntaxNode) => n.children.filter((c) => c.named && c.type !== 'comment');
const field = (n: SyntaxNode, name: string) => n.children.find((c) => c.field === name);

class RubyReader {
  private readonly values = new Map<string, Str>();
  private readonly changed = new Set<string>();

  constructor(
    private readonly code: string,
    private readonly f: Findings,
    private readonly depth: number,
  ) {}

  private text(n: SyntaxNode): string {
    return textOf(this.code, n);
  }

  visit(n: SyntaxNode, parent?: SyntaxNode): void {
    switch (n.type) {
      case 'assignment': {
        const left = field(n, 'left');
        if (left?.type === 'identifier') {
          const name = this.text(left);
          const v = this.value(field(n, 'right'));
          if (this.values.has(name) || this.changed.has(name) || !v.known) {
            this.values.delete(name);
            this.changed.add(name);
          } else this.values.set(name, v);
        }
        break;
      }
      case 'operator_assignment': {
        const left = field(n, 'left');
        if (left?.type === 'identifier') {
          this.values.delete(this.text(left));
          this.changed.add(this.text(left));
        }
        break;
      }
      case 'subshell':
        this.f.runShell(this.stringValue(n), 'backticks');
        break;
      case 'call':
        this.call(n);
        break;
      case 'identifier':
        // A bare `system` / `exec` with no arguments is still a call in Ruby; nothing to run.
        break;
      case 'constant':
        if (this.text(n) === 'ENV') this.env(n, parent);
        if (NATIVE.test(this.text(n))) this.f.dynamic(`${this.text(n)} calls native code`);
        break;
    }
    for (const c of n.children) this.visit(c, n);
  }

  /** ENV["X"] / ENV.fetch("X") is one value; ENV itself (ENV.to_h, ENV.inspect) is all of it. */
  private env(n: SyntaxNode, parent: SyntaxNode | undefined): void {
    if (parent?.type === 'element_reference' && n.field === 'object') return;
    if (parent?.type === 'call' && n.field === 'receiver') {
      const m = field(parent, 'method');
      if (m && ['fetch', '[]', 'key?', 'has_key?', 'include?', 'delete', 'store', '[]='].includes(this.text(m))) return;
    }
    if (parent?.type === 'scope_resolution') return;
    this.f.environment();
  }

  /** `Net::HTTP.post` → `Net::HTTP.post`; `system` → `system`; receiver not a constant: undefined (a method of some object). */
  private callName(n: SyntaxNode): string | undefined {
    const m = field(n, 'method');
    const r = field(n, 'receiver');
    if (!m) return undefined;
    const meth = this.text(m);
    if (!r) return meth;
    // Spaces inside a scope (`:: FileUtils`, `Net :: HTTP`, found by the fuzz test) are Ruby's, not the name's.
    if (r.type === 'constant' || r.type === 'scope_resolution') return `${this.text(r).replace(/\s+/g, '').replace(/^::/, '')}.${meth}`;
    if (r.type === 'identifier' && this.text(r) === 'binding') return `binding.${meth}`;
    // A constant-named method in a chain (`0.File.write`, found by the fuzz test): read as that
    // constant's method, failing closed (it raises NoMethodError in most Rubies, but a class may
    // define such a method and return the real File).
    if (r.type === 'call' && !field(r, 'arguments')) {
      const rm = field(r, 'method');
      if (rm && /^[A-Z]/.test(this.text(rm))) return `${this.text(rm)}.${meth}`;
    }
    // Kernel's spawners on any receiver (`self.system`, an alias of Kernel) and FileUtils' distinctive
    // deleters on any receiver (`fu = FileUtils; fu.rm_rf`): read as themselves, failing closed.
    if (KERNEL_SPAWNERS.has(meth)) return meth;
    if (Object.hasOwn(DELETE, `FileUtils.${meth}`) && DELETE[`FileUtils.${meth}`]) return `FileUtils.${meth}`;
    return undefined;
  }

  private args(n: SyntaxNode): SyntaxNode[] {
    const a = field(n, 'arguments');
    return a ? kids(a) : [];
  }

  value(n: SyntaxNode | undefined): Str {
    if (!n) return UNKNOWN_STR;
    switch (n.type) {
      case 'string':
        return this.stringValue(n);
      case 'simple_symbol':
        return str(this.text(n).slice(1));
      case 'integer':
        return str(this.text(n));
      case 'identifier':
        return this.values.get(this.text(n)) ?? UNKNOWN_STR;
      case 'parenthesized_statements':
        return kids(n).length === 1 ? this.value(kids(n)[0]) : UNKNOWN_STR;
      case 'binary': {
        const op = n.children.find((c) => c.field === 'operator');
        if (op && this.text(op) === '+') return concat([this.value(field(n, 'left')), this.value(field(n, 'right'))]);
        return UNKNOWN_STR;
      }
      case 'element_reference': {
        const o = field(n, 'object');
        const k = kids(n).filter((c) => c !== o);
        if (o && this.text(o) === 'ENV' && k.length === 1) return envValue(this.value(k[0]));
        return UNKNOWN_STR;
      }
      case 'call': {
        const name = this.callName(n);
        const args = this.args(n);
        if (name === 'Dir.home' || name === 'Etc.getpwuid') return str('~');
        if (name === 'Dir.pwd' || name === 'Dir.getwd') return str('.');
        if (name === 'Dir.tmpdir') return str('/tmp');
        if (name === 'File.join') return joinPaths(args.map((a) => this.value(a)));
        if (name === 'File.expand_path' || name === 'File.absolute_path' || name === 'Pathname.new' || name === 'Pathname') return this.value(args[0]);
        if (name === 'ENV.fetch') return envValue(this.value(args[0]));
        const m = field(n, 'method');
        const r = field(n, 'receiver');
        if (m && r && (this.text(m) === 'to_s' || this.text(m) === 'to_path' || this.text(m) === 'expand_path')) return this.value(r);
        if (m && !r && this.text(m) === 'Pathname') return this.value(args[0]);
        return UNKNOWN_STR;
      }
      default:
        return UNKNOWN_STR;
    }
  }

  private stringValue(n: SyntaxNode): Str {
    const parts: Str[] = [];
    const single = this.text(n).startsWith("'") || /^%q/.test(this.text(n));
    for (const c of n.children) {
      if (c.type === 'string_content') parts.push(str(single ? this.text(c).replace(/\\(['\\])/g, '$1') : unescapeRuby(this.text(c))));
      else if (c.type === 'escape_sequence') parts.push(str(unescapeRuby(this.text(c))));
      else if (c.type === 'interpolation') {
        const inner = kids(c);
        parts.push(inner.length === 1 ? this.value(inner[0]) : UNKNOWN_STR);
      }
    }
    return concat(parts);
  }

  private call(n: SyntaxNode): void {
    let name = this.callName(n);
    let args = this.args(n);
    const meth = field(n, 'method');
    // obj.send(:system, …): the named method, with the rest of the arguments.
    if (meth && SENDS.has(this.text(meth))) {
      const target = this.value(args[0]);
      if (!target.known) return this.f.dynamic(`${this.text(meth)} calls a method named at run time`);
      const r = field(n, 'receiver');
      name = r && (r.type === 'constant' || r.type === 'scope_resolution') ? `${this.text(r)}.${target.text}` : target.text;
      args = args.slice(1);
    }
    if (!name) {
      // Pathname#rmtree / #delete on a pathname value.
      const r = field(n, 'receiver');
      if (r && meth && ['rmtree', 'delete', 'unlink', 'rmdir'].includes(this.text(meth)) && r.type === 'call' && /^Pathname/.test(this.text(r))) this.f.remove(this.value(r), this.text(meth) === 'rmtree', `Pathname#${this.text(meth)}`);
      return;
    }
    if (SPAWNERS.has(name)) return this.spawn(name, args);
    if (Object.hasOwn(DELETE, name)) {
      if (args[0]?.type === 'array') for (const a of kids(args[0])) this.f.remove(this.value(a), DELETE[name], name);
      else for (const a of args.filter((x) => x.type !== 'pair' && x.type !== 'hash')) this.f.remove(this.value(a), DELETE[name], name);
      return;
    }
    if (name === 'Dir.chdir' || name === 'FileUtils.cd' || name === 'FileUtils.chdir') return this.f.chdir(args[0] ? this.value(args[0]) : str('~'));
    if (MOVE.has(name)) return this.f.move(this.value(args[0]), this.value(args[1]), name);
    if (COPY.has(name)) return this.f.copy(this.value(args[0]), this.value(args[1]), name);
    if (Object.hasOwn(WRITE, name)) return this.f.write(this.value(args[0]), WRITE[name], name);
    if (name === 'File.open' || name === 'File.new' || name === 'IO.sysopen') {
      const mode = args[1] && args[1].type !== 'pair' ? this.value(args[1]) : str('r');
      if (!mode.known || /[wa+]/.test(mode.text) || /WRONLY|RDWR|CREAT|APPEND|TRUNC/.test(mode.text)) return this.f.write(this.value(args[0]), /a|APPEND/.test(mode.text), name);
      return this.f.read(this.value(args[0]));
    }
    if (name === 'FileUtils.chmod' || name === 'FileUtils.chmod_R' || name === 'File.chmod') return this.f.permissions('chmod', args[0] ? this.text(args[0]).replace(/^0o?/, '') : '?', this.value(args[1]), name);
    if (name === 'FileUtils.chown' || name === 'FileUtils.chown_R' || name === 'File.chown') return this.f.permissions('chown', 'root', this.value(args[2]), name);
    if (READ.has(name)) return this.f.read(this.value(args[0]));
    if (SOCKET.test(name)) return this.f.opensSocket();
    if (NETWORK.test(name)) return this.f.usesNetwork();
    if (name === 'IO.for_fd' || name === 'STDIN.reopen' || name === '$stdin.reopen' || name === 'STDOUT.reopen') return this.f.joinsDescriptors();
    if (EVALS.has(name)) {
      const code = this.value(args[0]);
      if (!args[0] && field(n, 'block')) return;
      if (!code.known) return this.f.dynamic(`${name} runs code built at run time`);
      if (this.depth >= MAX_NESTED_EVAL) return this.f.dynamic(`${name} nested too deep to follow`);
      return this.f.absorb(analyzeRuby(code.text, this.depth + 1));
    }
    if (name === 'Object.const_get' || name === 'Kernel.const_get' || name === 'method' || name === 'Kernel.method') {
      if (!this.value(args[0]).known) this.f.dynamic(`${name} reaches a name not known before it runs`);
      else if (SPAWNERS.has(this.value(args[0]).text)) this.f.dynamic(`${this.value(args[0]).text} is taken as a value: what it runs is not read`);
    }
  }

  /** system("ls -l") is a shell line; system("ls", "-l") and system(["ls", "ls"], "-l") are argvs; a leading env hash and trailing options are skipped. */
  private spawn(name: string, all: SyntaxNode[]): void {
    const args = all.filter((a, k) => !(a.type === 'hash' || a.type === 'pair' || (k === 0 && a.type === 'element_reference' && /^ENV/.test(this.text(a)))));
    if (name === 'open' || name === 'Kernel.open') {
      // open("| cmd") runs a shell; open(path) reads (or writes with a mode).
      const v = this.value(args[0]);
      if (v.text.startsWith('|')) return this.f.runShell({ text: v.text.slice(1), known: v.known }, name);
      // A name not known could be "| cmd".
      if (!v.known && v.text.startsWith('$')) return this.f.dynamic(`${name} of a name not known before it runs can run a command ("| …")`);
      const mode = args[1] ? this.value(args[1]) : str('r');
      if (/^https?:/.test(v.text)) return this.f.usesNetwork();
      if (!mode.known || /[wa+]/.test(mode.text)) return this.f.write(v, mode.text.includes('a'), name);
      return this.f.read(v);
    }
    if (args.some((a) => a.type === 'splat_argument')) return this.f.spawn(undefined, name);
    const first = args[0];
    if (!first) return this.f.spawn(undefined, name);
    if (first.type === 'array') {
      const items = kids(first).map((c) => this.value(c));
      // IO.popen(["ls", "-l"]): the argv; system(["ls", "argv0"], "-l"): the program and its name.
      if (name === 'IO.popen' || args.length === 1) return this.f.spawn(items, name);
      return this.f.spawn([items[0], ...args.slice(1).map((a) => this.value(a))], name);
    }
    if (args.length === 1 || name.startsWith('Open3.') && args.length === 1) return this.f.runShell(this.value(first), name);
    return this.f.spawn(args.map((a) => this.value(a)), name);
  }
}

function envValue(name: Str): Str {
  return name.known && name.text === 'HOME' ? str('~') : UNKNOWN_STR;
}

function unescapeRuby(s: string): string {
  return s.replace(/\\(?:x([0-9a-fA-F]{2})|u([0-9a-fA-F]{4})|(.))/gs, (_m, hex, uni, ch) => {
    if (hex) return String.fromCharCode(parseInt(hex, 16));
    if (uni) return String.fromCharCode(parseInt(uni, 16));
    return ({ n: '\n', t: '\t', r: '\r', '0': '\0', e: '\x1b', s: ' ' } as Record<string, string>)[ch] ?? ch;
  });
}
