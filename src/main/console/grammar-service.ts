/**
 * The grammar editor's main-process half (issue 12.3): lists the grammars of every layer
 * (built-in, user, project), opens one with the `_shared` includes its preview needs, reads a
 * recorded output (a fixture, or a command's spool by id, bounded), saves to the user or project
 * layer (never over a built-in: the same name in a higher layer is an override), and writes a new
 * grammar's template. The preview itself runs in the renderer's worker (core/grammar-preview).
 *
 * Files are only read from the layer folders and the fixtures folder, by names this service
 * lists; every answer is validated against the contract's schema by the caller's transport.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  grammarRequestSchemas,
  parseParams,
  type GrammarFile,
  type GrammarOrigin,
  type GrammarProblem,
  type GrammarRaw,
  type RequestName,
  type RequestResult,
} from '../../shared/contract.js';
import { compileGrammarSource, linkGrammar, type GrammarDraft, type LoadResult } from '../core/grammar/compile.js';
import { executableName } from '../core/grammar/detect.js';
import { defaultUserGrammarDir, findBuiltinGrammarDir, findProjectGrammarDir } from '../core/grammar/registry.js';
import { defaultSpoolDir, SpoolStore } from '../core/spool/spool.js';
import { packageRoot } from './package-root.js';
import type { RequestOutcome } from './hub-types.js';

/** Raw output sent to the editor: the preview target is 1 MB; a spool can hold 96 MiB. The first bytes are kept (the first errors usually matter most). */
export const MAX_PREVIEW_RAW_BYTES = 4 * 1024 * 1024;
/** Sub-folder of a layer with include-only rule sets. */
const SHARED_DIR = '_shared';
/** A fixture name as fixtures/record.ts makes them. */
const FIXTURE_NAME = /^[a-z0-9][a-z0-9._-]*$/;

export type GrammarRequestName = Extract<RequestName, `grammar:${string}`>;

export function isGrammarRequest(method: string): method is GrammarRequestName {
  return Object.hasOwn(grammarRequestSchemas, method);
}

export interface GrammarServiceOptions {
  /** The working directory whose `.mish/grammars` is the project layer (created on first save). */
  cwd: string;
  env?: Record<string, string | undefined>;
  /** Default: the package's grammars/; null = none. */
  builtinDir?: string | null;
  /** Default: $XDG_CONFIG_HOME/mish/grammars or ~/.config/mish/grammars. */
  userDir?: string;
  /** Default: $MISH_SPOOL_DIR or the XDG state dir (what `mish raw` reads). */
  spoolDir?: string;
  /** Default: the package's fixtures/recorded (absent in an installed package: no fixtures). */
  fixturesDir?: string | null;
}

class GrammarRequestError extends Error {}

interface Layer {
  origin: GrammarOrigin;
  dir: string;
}

export class GrammarService {
  private readonly builtinDir: string | undefined;
  private readonly userDir: string;
  private readonly cwd: string;
  private readonly spoolDir: string;
  private readonly fixturesDir: string | undefined;

  constructor(options: GrammarServiceOptions) {
    const env = options.env ?? process.env;
    this.cwd = path.resolve(options.cwd);
    this.builtinDir = options.builtinDir === null ? undefined : path.resolve(options.builtinDir ?? findBuiltinGrammarDir() ?? path.join(packageRoot() ?? this.cwd, 'grammars'));
    this.userDir = path.resolve(options.userDir ?? defaultUserGrammarDir(env));
    this.spoolDir = options.spoolDir ?? defaultSpoolDir(env as NodeJS.ProcessEnv);
    const root = packageRoot();
    this.fixturesDir = options.fixturesDir === null ? undefined : (options.fixturesDir ?? (root ? path.join(root, 'fixtures', 'recorded') : undefined));
  }

  /** The project layer: the nearest `.mish/grammars` above cwd, else `<cwd>/.mish/grammars` (made on save). */
  get projectDir(): string {
    return findProjectGrammarDir(this.cwd) ?? path.join(this.cwd, '.mish', 'grammars');
  }

  /** Answers one `grammar:*` request; errors as values with a one-line message. */
  async handle(method: GrammarRequestName, params: unknown): Promise<RequestOutcome> {
    try {
      return { ok: true, result: this.request(method, params) };
    } catch (err) {
      return { ok: false, error: err instanceof GrammarRequestError ? err.message : `${method}: ${(err as Error).message ?? String(err)}` };
    }
  }

  private request(method: GrammarRequestName, params: unknown): unknown {
    switch (method) {
      case 'grammar:list':
        unwrap(parseParams(method, params));
        return this.list();
      case 'grammar:open':
        return this.open(unwrap(parseParams(method, params)).file);
      case 'grammar:fixture':
        return this.fixture(unwrap(parseParams(method, params)).name);
      case 'grammar:raw':
        return this.raw(unwrap(parseParams(method, params)).spoolId);
      case 'grammar:save': {
        const p = unwrap(parseParams(method, params));
        return this.save(p.name, p.text, p.target);
      }
      case 'grammar:template': {
        const p = unwrap(parseParams(method, params));
        return { text: grammarTemplate(p.name, p.argv) } satisfies RequestResult<'grammar:template'>;
      }
      default:
        throw new GrammarRequestError(`unknown request "${String(method)}"`);
    }
  }

  private layers(): Layer[] {
    const out: Layer[] = [];
    if (this.builtinDir) out.push({ origin: 'builtin', dir: this.builtinDir });
    out.push({ origin: 'user', dir: this.userDir });
    const project = this.projectDir;
    if (!out.some((l) => l.dir === path.resolve(project))) out.push({ origin: 'project', dir: path.resolve(project) });
    return out;
  }

  list(): RequestResult<'grammar:list'> {
    const grammars: GrammarFile[] = [];
    for (const layer of this.layers()) {
      for (const f of tomlFiles(layer.dir)) {
        const file = path.join(layer.dir, f);
        const text = readText(file);
        const draft = text === undefined ? undefined : compileGrammarSource(text, file, layer.origin);
        const g = draft?.ok ? draft.value.grammar : undefined;
        grammars.push({ name: g?.name ?? f.replace(/\.toml$/, ''), origin: layer.origin, file, commands: g?.commands ?? [], description: g?.description, overridden: false });
      }
    }
    // A name in a higher layer overrides the lower ones (registry.ts).
    const last = new Map<string, number>();
    grammars.forEach((g, i) => last.set(g.name, i));
    grammars.forEach((g, i) => (g.overridden = last.get(g.name) !== i));
    return { grammars, dirs: { builtin: this.builtinDir, user: this.userDir, project: this.projectDir }, fixtures: this.fixtures() };
  }

  private fixtures(): RequestResult<'grammar:list'>['fixtures'] {
    if (!this.fixturesDir) return [];
    const out: RequestResult<'grammar:list'>['fixtures'] = [];
    let names: string[];
    try {
      names = readdirSync(this.fixturesDir).filter((f) => f.endsWith('.raw'));
    } catch {
      return [];
    }
    for (const f of names.sort()) {
      const meta = this.fixtureMeta(f.slice(0, -4));
      if (meta) out.push({ name: meta.name, tool: meta.tool, command: meta.command, bytes: meta.bytes, exitCode: meta.exitCode, about: meta.about });
    }
    return out;
  }

  private fixtureMeta(name: string): FixtureMeta | undefined {
    if (!this.fixturesDir || !FIXTURE_NAME.test(name)) return undefined;
    try {
      const m = JSON.parse(readFileSync(path.join(this.fixturesDir, `${name}.json`), 'utf8')) as Partial<FixtureMeta>;
      if (!Array.isArray(m.argv) || typeof m.exitCode !== 'number') return undefined;
      return { name, tool: String(m.tool ?? ''), command: String(m.command ?? m.argv.join(' ')), argv: m.argv.map(String), exitCode: m.exitCode, durationMs: Number(m.durationMs ?? 0), bytes: Number(m.bytes ?? 0), about: typeof m.about === 'string' ? m.about : undefined };
    } catch {
      return undefined;
    }
  }

  /** `_shared/*` include texts of every layer (a higher layer's file wins). */
  private shared(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const layer of this.layers()) {
      const dir = path.join(layer.dir, SHARED_DIR);
      for (const f of tomlFiles(dir)) {
        const text = readText(path.join(dir, f));
        if (text !== undefined) out[`${SHARED_DIR}/${f.replace(/\.toml$/, '')}`] = text;
      }
    }
    return out;
  }

  open(file: string): RequestResult<'grammar:open'> {
    const wanted = path.resolve(file);
    const entry = this.list().grammars.find((g) => g.file === wanted);
    if (!entry) throw new GrammarRequestError(`grammar:open: ${file} is not a grammar of the built-in, user or project folder`);
    const text = readText(wanted);
    if (text === undefined) throw new GrammarRequestError(`grammar:open: cannot read ${file}`);
    const shared = this.shared();
    return { name: entry.name, origin: entry.origin, file: wanted, text, shared, problems: problemsOf(text, wanted, entry.origin, shared) };
  }

  fixture(name: string): GrammarRaw {
    const meta = this.fixtureMeta(name);
    if (!meta) throw new GrammarRequestError(`grammar:fixture: no recorded output named "${name}"`);
    const bytes = readFileSync(path.join(this.fixturesDir!, `${name}.raw`));
    return rawAnswer(bytes, meta.command, meta.argv, meta.exitCode, meta.durationMs);
  }

  raw(spoolId: string): GrammarRaw {
    const reader = new SpoolStore(this.spoolDir).open(spoolId);
    if (!reader) throw new GrammarRequestError(`grammar:raw: no spool "${spoolId}" (pruned, or not from this machine's mish)`);
    const m = reader.meta;
    const durationMs = m.endedAt ? Math.max(0, Date.parse(m.endedAt) - Date.parse(m.startedAt)) : 0;
    // Detection needs only the executable and its action: words are enough for a preview.
    const argv = m.command.trim().split(/\s+/).filter(Boolean);
    return rawAnswer(reader.readAll(), m.command, argv, m.exitCode ?? 0, durationMs);
  }

  save(name: string, text: string, target: 'user' | 'project'): RequestResult<'grammar:save'> {
    const dir = path.resolve(target === 'user' ? this.userDir : this.projectDir);
    if (this.builtinDir && (dir === this.builtinDir || dir.startsWith(this.builtinDir + path.sep))) {
      throw new GrammarRequestError(`grammar:save: the ${target} grammar folder is the built-in one (${dir}); built-in grammars are never overwritten`);
    }
    const file = path.join(dir, `${name}.toml`);
    const problems = problemsOf(text, file, target, this.shared());
    if (problems.length) {
      const p = problems[0];
      throw new GrammarRequestError(`grammar:save: not saved, the grammar has ${problems.length} problem${problems.length === 1 ? '' : 's'}: line ${p.line ?? '?'}${p.rule ? ` (rule ${p.rule})` : ''}: ${p.message}`);
    }
    const draft = compileGrammarSource(text, file, target);
    const declared = draft.ok ? draft.value.grammar.name : name;
    if (declared !== name) throw new GrammarRequestError(`grammar:save: the grammar calls itself "${declared}" ([grammar] name): save it as ${declared}.toml or change the name`);
    const below = this.list().grammars.filter((g) => g.name === name && g.file !== file && rank(g.origin) < rank(target));
    mkdirSync(dir, { recursive: true });
    // Write then rename: a `mish` starting meanwhile reads the old file or the new one, never half.
    const tmp = path.join(dir, `.${name}.toml.${process.pid}.tmp`);
    writeFileSync(tmp, text.endsWith('\n') ? text : text + '\n');
    renameSync(tmp, file);
    return { file, origin: target, overrides: below.at(-1)?.file };
  }
}

interface FixtureMeta {
  name: string;
  tool: string;
  command: string;
  argv: string[];
  exitCode: number;
  durationMs: number;
  bytes: number;
  about?: string;
}

const rank = (o: GrammarOrigin) => ({ builtin: 0, user: 1, project: 2 })[o];

function rawAnswer(bytes: Buffer, command: string, argv: string[], exitCode: number, durationMs: number): GrammarRaw {
  const truncated = bytes.length > MAX_PREVIEW_RAW_BYTES;
  const kept = truncated ? bytes.subarray(0, MAX_PREVIEW_RAW_BYTES) : bytes;
  return { data: kept.toString('base64'), command, argv, exitCode, durationMs, bytes: bytes.length, truncated };
}

/** The loader's errors for this text, with its includes resolved from `shared`. */
export function problemsOf(text: string, file: string, origin: GrammarOrigin, shared: Record<string, string>): GrammarProblem[] {
  const draft = compileGrammarSource(text, file, origin);
  if (!draft.ok) return draft.errors;
  const cache = new Map<string, LoadResult<GrammarDraft>>();
  const linked = linkGrammar(draft.value, (name) => {
    if (shared[name] === undefined) return undefined;
    if (!cache.has(name)) cache.set(name, compileGrammarSource(shared[name], `${name}.toml`, 'builtin'));
    return cache.get(name);
  });
  return linked.ok ? [] : linked.errors;
}

function tomlFiles(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isFile() && e.name.endsWith('.toml') && !e.name.startsWith('.'))
      .map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
}

function readText(file: string): string | undefined {
  try {
    return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
  } catch {
    return undefined;
  }
}

function unwrap<T>(r: { ok: true; value: T } | { ok: false; error: string }): T {
  if (!r.ok) throw new GrammarRequestError(r.error);
  return r.value;
}

/** TOML basic string. */
function q(s: string): string {
  return JSON.stringify(s);
}

/**
 * A new grammar for the command in argv: detected by its executable (`[detect] commands`), with
 * its action when argv names one (`[actions.<word>]`), and one example rule of each kind to edit.
 */
export function grammarTemplate(name: string, argv: readonly string[]): string {
  const exe = executableName(argv[0] ?? name) || name;
  const action = argv.slice(1).find((a) => !a.startsWith('-'));
  const actionOk = action !== undefined && /^[A-Za-z0-9][A-Za-z0-9_.:-]*$/.test(action);
  const lines = [
    `# Grammar for \`${argv.join(' ')}\` (see grammars/README.md for every key).`,
    '# Patterns are JavaScript regular expressions matched against one line, ANSI removed.',
    '# To ship it with mish: record the real tool (a success and a failure) with an entry in',
    '# fixtures/record.ts, write each fixture\'s must-keep facts, save this as grammars/<name>.toml',
    '# (grammars/README.md, "Adding a grammar"); npx vitest run test/golden.test.ts checks it.',
    '',
    '[grammar]',
    `name = ${q(name)}`,
    `description = ${q(`${exe} output`)}`,
    'category = "condense"',
    'include = ["_shared/ansi-progress"]',
    '',
    '[detect]',
    `commands = [${q(exe)}]`,
    '',
  ];
  if (actionOk) lines.push(`[actions.${/^[A-Za-z0-9_-]+$/.test(action) ? action : q(action)}]`, 'aliases = []', '');
  lines.push(
    '# Errors and warnings: always shown, with their location.',
    '[[hazard]]',
    'id = "error"',
    `pattern = '^(?:error|ERROR|fatal)\\b.*'`,
    'severity = "error"',
    '',
    '[[hazard]]',
    'id = "warning"',
    `pattern = '^(?:warning|WARN(?:ING)?)\\b.*'`,
    'severity = "warning"',
    '',
    '# Summary counts: shown as `+ …` lines.',
    '[[outcome]]',
    'id = "summary"',
    `pattern = '^(?:Done|Finished|Summary)\\b.*'`,
    '',
    '# Lines a reader would never miss: strip, or dedup to one line with a count.',
    '[[noise]]',
    'id = "progress"',
    `pattern = '^\\s*(?:Downloading|Fetching|Resolving)\\b'`,
    'action = "dedup"',
    '',
  );
  return lines.join('\n');
}
