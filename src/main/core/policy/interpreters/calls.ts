/**
 * What interpreter code does, in the policy's terms. Each language's reader (python.ts, ruby.ts,
 * javascript.ts, perl.ts) walks its syntax tree and reports the calls that matter here to a
 * `Findings`: shell lines it hands to a shell, argvs it spawns, files it deletes, moves or writes
 * (as the equivalent `rm` / `mv` / `tee` argvs, so the same path rules judge them), network use
 * together with the environment or a credential file (exfiltration), sockets joined to a process
 * (reverse shell), and code run from a value that cannot be read (eval of a variable, a dynamic
 * import, native calls). Everything else — computation, printing, reading ordinary files — adds
 * nothing and is allowed.
 */

export interface CodeAnalysis {
  /** Shell command lines the code runs (unknown parts written as UNKNOWN_WORD). */
  shell: string[];
  /** Programs it spawns with an argv list, and deletions / moves / writes as equivalent argvs; UNKNOWN_WORD marks a value not known. */
  argv: string[][];
  /** It can run something we could not read statically (fact interpreter-code-unknown). */
  unknown: boolean;
  reverseShell: boolean;
  /** Further engine facts: secret-upload, env-upload, unknown-target, interpreter-code-unparsed. */
  facts: string[];
  /** Why, for the facts above (shown by `policy explain`'s matches). */
  notes: string[];
}

/**
 * A value the reader could not know, inside a shell line or an argv: an unset variable to the
 * shell evaluator, so `os.system("rm -rf " + x)` is `rm -rf $MISH_INTERPRETER_VALUE` — an unknown
 * target (ask) — while `os.system("ls " + x)` stays allowed.
 */
export const UNKNOWN_WORD = '$MISH_INTERPRETER_VALUE';

/** A string value: its text with UNKNOWN_WORD where a part is not known, and whether it is wholly known. */
export interface Str {
  text: string;
  known: boolean;
}

export const str = (text: string): Str => ({ text, known: true });
export const UNKNOWN_STR: Str = { text: UNKNOWN_WORD, known: false };

export function concat(parts: Array<Str | undefined>): Str {
  let text = '';
  let known = true;
  for (const p of parts) {
    if (!p || !p.known) known = false;
    text += p ? p.text : UNKNOWN_WORD;
  }
  return { text, known };
}

/** os.path.join / path.join / File.join: a later absolute part starts over, like the libraries do. */
export function joinPaths(parts: Array<Str | undefined>): Str {
  let out: Str | undefined;
  for (const p of parts) {
    if (!p) return UNKNOWN_STR;
    if (!out || (p.known && (p.text.startsWith('/') || p.text.startsWith('~')))) out = p;
    else out = concat([out, str(out.text.endsWith('/') ? '' : '/'), p]);
  }
  return out ?? UNKNOWN_STR;
}

/** Credential files (what `secret-upload` is about): keys, cloud and registry credentials, .env files, shadow. */
const SECRET_FILE =
  /(?:^|\/)(?:\.ssh(?:\/(?!config$|known_hosts$)[^/]*(?<!\.pub))?|\.gnupg(?:\/.*)?|\.aws\/credentials|\.aws(?:\/.*)?|\.kube\/config|\.docker\/config\.json|\.netrc|\.git-credentials|\.npmrc|\.pypirc|\.password-store(?:\/.*)?|\.config\/gcloud(?:\/.*)?|\.vault-token|\.env(?:\.[\w-]+)?|id_(?:rsa|dsa|ecdsa|ed25519)|[^/]*\.(?:pem|p12|pfx|kdbx))$|^\/etc\/(?:shadow|gshadow|sudoers)$|^\/proc\/(?:self|\d+)\/environ$/;

export function isSecretPath(p: string): boolean {
  return SECRET_FILE.test(p);
}

/** Most findings kept per code (a loop of calls repeats one finding): past it the code is `unknown`. */
export const MAX_FINDINGS = 64;

export class Findings {
  private readonly shell: string[] = [];
  private readonly argv: string[][] = [];
  private readonly facts = new Set<string>();
  private readonly notes: string[] = [];
  private unknown = false;
  private network = false;
  private socket = false;
  private spawned = false;
  private dup2 = false;
  private envData = false;
  private secretData = false;
  /** Where a chdir earlier in the code moved to (UNKNOWN_STR: somewhere not known); relative paths after it are there. */
  private cwd: Str | undefined;

  private room(): boolean {
    if (this.shell.length + this.argv.length < MAX_FINDINGS) return true;
    this.dynamic('too many calls to follow');
    return false;
  }

  /**
   * A change of working directory (`process.chdir(d)`, `Dir.chdir(d)`): later relative paths are
   * read from there (`process.chdir(os.homedir()+"/.gemini"); fs.writeFileSync("settings.json", …)`).
   * Read as lasting to the end of the code, also for a block form: a wider reading, never narrower.
   */
  chdir(dir: Str | undefined): void {
    this.cwd = dir?.known ? this.at(dir) : UNKNOWN_STR;
  }

  /** A path as the code will use it: a relative one after a chdir is in that folder (not known if the folder is not). */
  private at(p: Str | undefined): Str | undefined {
    if (!p || !this.cwd || (p.known && (p.text.startsWith('/') || p.text.startsWith('~') || p.text.startsWith('$')))) return p;
    if (!this.cwd.known) return UNKNOWN_STR;
    return joinPaths([this.cwd, p]);
  }

  /** A string handed to a shell. */
  runShell(s: Str | undefined, what: string): void {
    this.spawned = true;
    if (!s || (!s.known && s.text.trim() === UNKNOWN_WORD)) return this.dynamic(`${what} runs a command built at run time`);
    if (this.room()) this.shell.push(s.text);
  }

  /** A program run with an argv list; undefined: the list itself is not known. */
  spawn(argv: Array<Str | undefined> | undefined, what: string): void {
    this.spawned = true;
    if (!argv || argv.length === 0 || !argv[0]?.known) return this.dynamic(`${what} runs a program not known before it runs`);
    if (this.room()) this.argv.push(argv.map((a) => (a ? a.text : UNKNOWN_WORD)));
  }

  /** A file or tree deleted. */
  remove(path: Str | undefined, recursive: boolean, what: string): void {
    path = this.at(path);
    if (!path || !path.known) this.unknownTarget(`${what} deletes a path not known before it runs`);
    if (this.room()) this.argv.push(recursive ? ['rm', '-rf', path?.known ? path.text : UNKNOWN_WORD] : ['rm', path?.known ? path.text : UNKNOWN_WORD]);
  }

  /** A file moved or renamed (both ends count: the source disappears, the destination is overwritten). */
  move(from: Str | undefined, to: Str | undefined, what: string): void {
    from = this.at(from);
    to = this.at(to);
    if (!from?.known || !to?.known) this.unknownTarget(`${what} moves a path not known before it runs`);
    if (this.room()) this.argv.push(['mv', from?.known ? from.text : UNKNOWN_WORD, to?.known ? to.text : UNKNOWN_WORD]);
  }

  /** A file written (created, overwritten, appended to), as `tee [-a] PATH` for the write rules. */
  write(path: Str | undefined, append: boolean, what: string): void {
    path = this.at(path);
    if (!path || !path.known) return this.unknownTarget(`${what} writes a path not known before it runs`);
    if (this.room()) this.argv.push(append ? ['tee', '-a', path.text] : ['tee', path.text]);
  }

  /** A file copied onto `to`. */
  copy(from: Str | undefined, to: Str | undefined, what: string): void {
    from = this.at(from);
    to = this.at(to);
    if (!to?.known) return this.unknownTarget(`${what} copies onto a path not known before it runs`);
    if (from?.known && isSecretPath(from.text)) this.secretData = true;
    if (this.room()) this.argv.push(['cp', from?.known ? from.text : UNKNOWN_WORD, to.text]);
  }

  /** A file's mode or owner changed, as the equivalent chmod/chown argv. */
  permissions(tool: 'chmod' | 'chown', value: string, path: Str | undefined, what: string): void {
    path = this.at(path);
    if (!path?.known) return this.unknownTarget(`${what} changes a path not known before it runs`);
    if (this.room()) this.argv.push([tool, value, path.text]);
  }

  /** A file read: only credential files matter (with network use, an upload). */
  read(path: Str | undefined): void {
    if (path?.known && isSecretPath(path.text)) this.secretData = true;
  }

  /** The whole environment used as data (os.environ, process.env, ENV.to_h). */
  environment(): void {
    this.envData = true;
  }

  usesNetwork(): void {
    this.network = true;
  }

  opensSocket(): void {
    this.network = true;
    this.socket = true;
  }

  /** File descriptors joined (os.dup2): with a socket, a shell's stdio on the network. */
  joinsDescriptors(): void {
    this.dup2 = true;
  }

  /** Code that runs something not readable statically (eval of a variable, dynamic import, native calls). */
  dynamic(why: string): void {
    this.unknown = true;
    if (this.notes.length < 8) this.notes.push(why);
  }

  unknownTarget(why: string): void {
    this.facts.add('unknown-target');
    if (this.notes.length < 8) this.notes.push(why);
  }

  /** The code does not parse (or its parser is unavailable): nothing in it can be checked. */
  unparsed(why: string): void {
    this.facts.add('interpreter-code-unparsed');
    if (this.notes.length < 8) this.notes.push(why);
  }

  /** Merges what a nested piece of code (eval of a literal) does. */
  absorb(a: CodeAnalysis): void {
    this.shell.push(...a.shell);
    this.argv.push(...a.argv);
    for (const f of a.facts) this.facts.add(f);
    this.notes.push(...a.notes);
    if (a.unknown) this.unknown = true;
    if (a.reverseShell) this.socket = this.spawned = true;
  }

  done(): CodeAnalysis {
    const facts = new Set(this.facts);
    if (this.network && this.envData) facts.add('env-upload');
    if (this.network && this.secretData) facts.add('secret-upload');
    return {
      shell: this.shell,
      argv: this.argv,
      unknown: this.unknown,
      reverseShell: this.socket && (this.spawned || this.dup2),
      facts: [...facts],
      notes: this.notes,
    };
  }
}
