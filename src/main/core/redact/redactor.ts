/**
 * Masking of everything mish sends to an agent or writes to the audit log: known secret values
 * first (what operators typed at handoffs, through any `SecretMasker`; the values of environment
 * variables named like secrets; every value masked earlier in the session), then the secrets the
 * scanner finds (scanner.ts: vendor formats, contexts, private keys). A secret becomes
 * `[masked: <kind>]`, e.g. `[masked: github token]`, `[masked: $NPM_TOKEN value]` — the kind,
 * never the value, so the agent knows output was masked rather than broken. The spool keeps the
 * raw bytes for humans (`mish raw`); this is for the agent.
 */
import { indexAt } from './offsets.js';
import { scanContextSecrets, scanContextSecretsInBytes, scanSecrets, type ScanReport, type SecretFinding } from './scanner.js';
import { secretEnvValues } from './quick-check.js';
import { isBasicKind, LearnedSecrets, MIN_LEARNED_CHARS } from './learned-secrets.js';
import { KEY_LINE_MASK, StreamMasker } from './stream-masker.js';
import { publicKeyFormsIn, shapePrefixLength } from './private-keys.js';
import { plainText, rangeInText, withoutEscapes, withoutStringEscapes } from './escapes.js';
import { MIN_PRINTED_CHARS } from './look-alikes.js';
import { printedKind, printerValues, secretPrinterOf } from './secret-printers.js';
import { transcriptPrintedValues } from './transcript-commands.js';
import { dropDigestCells } from './digest-columns.js';
import { base64Kind } from './finding.js';
import { anchored, holds, type AnchoredValue } from './rare-anchor.js';

export { MIN_ENV_SECRET_LENGTH, SECRET_ENV_NAME, secretEnvValues } from './quick-check.js';
export type { SecretFinding } from './scanner.js';

/** Anything that masks known secret values in a text (the handoff's KnownSecrets is one). */
export interface SecretMasker {
  mask(text: string): string;
}

/** What replaces a secret of kind `kind`. */
export function maskOf(kind: string): string {
  return `[masked: ${kind}]`;
}

/** A mask in a text (so tests and readers can find them). */
export const MASK_PATTERN = /\[masked: [^\]\n]+\]/g;

export interface RedactorOptions {
  /** Maskers of known secret values (handoff secrets). More can be added with addMasker. */
  known?: SecretMasker[];
  /** The session environment: values of variables named like secrets are masked. */
  env?: Record<string, string | undefined>;
}

/** Most commands whose stream state (private key line ranges) is kept; the oldest are dropped. */
const MAX_STREAMS = 500;
/**
 * Private keys' body lines remembered apart from the session's values (MAX_LEARNED, 128 with their derived forms): a diff of two
 * RSA keys holds ~50 lines, and the session's store forgot the old key's first ones before a read's window showed them (pass 222
 * F20). 16 keys' worth of 4096-bit lines.
 */
const MAX_KEY_LINES = 1600;

export class Redactor {
  private readonly maskers: SecretMasker[];
  private values: { name: string; value: string; forms: AnchoredValue[] }[] = [];
  /** Values masked once: masked everywhere later. */
  readonly learned = new LearnedSecrets();
  /** Private keys' body lines (MAX_KEY_LINES), as they show: no derived forms. */
  private readonly keyLines = new LearnedSecrets(MAX_KEY_LINES);
  private readonly streams = new Map<string, StreamMasker>();

  constructor(options: RedactorOptions = {}) {
    this.maskers = [...(options.known ?? [])];
    if (options.env) this.addEnv(options.env);
  }

  /** Masks the values `masker` knows from now on (e.g. the secrets typed during a handoff). */
  addMasker(masker: SecretMasker): void {
    this.maskers.push(masker);
  }

  /** Masks the values of the secret-named variables of `env` from now on. */
  addEnv(env: Record<string, string | undefined>): void {
    const seen = new Set(this.values.map((v) => v.value));
    for (const { name, value } of secretEnvValues(env)) {
      if (seen.has(value)) continue;
      seen.add(value);
      // The URL-encoded form too: a token lands in URLs (`https://x:${TOKEN}@…`) encoded.
      const encoded = encodeURIComponent(value);
      // …and its JSON form with `/` written `\/` (PHP's json_encode of a config holding it: adv50 F35).
      const escaped = value.replaceAll('/', '\\/');
      this.values.push({ name, value, forms: [...new Set([value, encoded, escaped])].map(anchored) });
    }
    this.values.sort((a, b) => b.value.length - a.value.length);
  }

  /** Known values only: maskers, then secret environment values. */
  maskKnown(text: string): string {
    let out = text;
    for (const m of this.maskers) out = m.mask(out);
    for (const v of this.values) for (const form of v.forms) if (holds(out, form)) out = out.split(form.value).join(maskOf(`$${v.name} value`));
    return out;
  }

  /** A value found in the text, remembered; a private key's line in the keys' own store too. */
  private learnFound(value: string, kind: string): void {
    this.learned.learn(value, kind);
    if (kind === 'private key' && !value.includes('\n')) this.keyLines.learn(value, kind, MIN_LEARNED_CHARS, true);
  }

  /** Ranges of the secrets in `text` (already known-masked): remembered values and scanner findings; the findings are remembered. */
  find(text: string, raw = false, printed?: LearnedSecrets): SecretFinding[] {
    // Colour and other escape sequences between a name and its value (a read_raw page of `jq .` under a PTY): read without them
    // (and a raw page without UTF-16's NULs).
    const u = withoutEscapes(text, raw);
    const plain = u?.plain ?? text;
    const report: ScanReport = {};
    const inPlain = scanSecrets(plain, report);
    // Shapes are found again wherever they show; values found by their context are remembered.
    // A key block found by its shape over lines (a read of its middle with no BEGIN: awk's numbered excerpt, adv126 F47): its body
    // lines, so a later read of one line alone is masked too (the stream remembers only blocks it saw begin).
    // Not a key's lines that are its public half too (publicKeyForms: PKCS#1's modulus lines up with SPKI's), remembered they
    // masked the public key printed later (opendkim-genkey's DNS record after its private key: pass 202 L1).
    let publicForms: string[] | undefined;
    const isPublicToo = (v: string) => (publicForms ??= plain.includes('-----BEGIN') ? publicKeyFormsIn(plain) : []).some((p) => p.includes(v));
    for (const f of inPlain)
      if (f.byContext) {
        const v = plain.slice(f.start, f.end);
        if (!(f.kind === 'private key' && isPublicToo(v))) this.learnFound(v, f.kind);
      }
      // A Basic credential found by its shape (base64 of `user:password` in an access log's quotes): its decoded forms, which a
      // later `base64 -d` of it prints (adv172 F39).
      else if (isBasicKind(f.kind)) this.learned.learnDecoded(plain.slice(f.start, f.end), f.kind, MIN_LEARNED_CHARS);
      else if (f.kind === 'private key' && plain.indexOf('\n', f.start) < f.end) for (const run of plain.slice(f.start, f.end).match(KEY_BODY_RUN) ?? []) if (!isPublicToo(run)) this.learnFound(run, f.kind);
    // Output held in a JSON string (`\n` between its lines): its values found by context are learned from the decoded text,
    // and found below where they stand in the text. A URL with its slashes escaped: every value found in it (a Slack webhook's
    // path is a shape, not found where its slashes are `\/`), learned with its slashes escaped too; a path's segment found by its
    // host (Make's `hook.eu1.make.com\/<id>` in a scenario's JSON: adv180), which the escaped text hides from its rule.
    const decoded = withoutStringEscapes(plain, report.escapedUrls === true);
    if (decoded !== undefined) for (const f of scanSecrets(decoded)) if (f.byContext || (report.escapedUrls && (decoded.slice(f.start, f.end).includes('/') || decoded.charCodeAt(f.start - 1) === 0x2f))) this.learned.learn(decoded.slice(f.start, f.end), f.kind);
    const found = u ? inPlain.map((f) => ({ ...f, ...rangeInText(u, f.start, f.end) })) : inPlain;
    // An OSC sequence's text is no output the plain text keeps (escapes.ts drops it whole), but a terminal shows it or acts on it:
    // a hyperlink's target (`ESC]8;;https://u:pw@host…`), a window title the shell sets to the command line (adv25 F21, F23).
    if (text.includes(OSC_START)) {
      for (const f of oscFindings(text)) {
        found.push(f);
        if (f.byContext) this.learned.learn(text.slice(f.start, f.end), f.kind);
      }
    }
    // A transcript's credential printers (`$ printenv DB_PASSWORD | xxd` then its dump): their values, learned as a command's are.
    if (report.promptMarks) for (const { value, kind } of transcriptPrintedValues(plain)) this.learnValue(value, kind);
    this.learned.find(text, found);
    this.keyLines.find(text, found);
    // A printer's values beyond what the session remembers (a credentials file's 200 rows): its command's own store.
    printed?.find(text, found);
    for (const s of this.streams.values()) s.printedStore?.find(text, found);
    if (this.learned.size > 0) {
      // A remembered value's head at a line's end, its end at a line's start: a terminal's wrap cut it over lines (adv50 F33), a
      // window shows one of them, a command still printing it has its last line half written (adv50 F31, F36, F38).
      this.learned.findAtLineBreaks(text, found);
      // A private key holds its public key: a piece of the key's body remembered is a piece of the `.pub` line printed beside it
      // (`cat id_ed25519 id_ed25519.pub`: the public key's tail masked as a private key's, 136 F34), of the PUBLIC KEY block
      // `openssl ec -pubout` prints after it and of the certificate beside it (the modulus: 137 F45, F49). Those are public.
      // (Two searches, not a keyword of the scan: `aaaa` was a hit at every position of base64's runs of zero bytes, a megabyte of
      // `AAAA…` masked five times slower: session 30's own attack.)
    }
    this.openKeyPieces(text, found);
    this.openPrintedLines(text, found);
    // (After the open pieces too: a key block the stream saw holds the public key a later line prints whole, a DKIM record's `p=`
    // or an API's `"pubkey"` in base64 DER: adv211 L1.)
    // (Opened by the scan's hits: `plain` holds every public key `text` does, escapes only split one.)
    if (found.length > 0 && report.publicKeyMarks) keepPublicKeys(text, found);
    // A digest the stream remembered from a row it read without the table's title (`fly secrets list`: pass 232 L19).
    if (found.length > 0) dropDigestCells(text, found, true);
    if (!text.includes(CUT_MARKER_START)) return found;
    this.piecesAtCuts(text, found);
    return aroundCutMarkers(text, found);
  }

  /** Secrets the squasher's cut marks split, each piece too short for a rule or the remembered values' search. */
  private piecesAtCuts(text: string, found: SecretFinding[]): void {
    CUT_MARKER.lastIndex = 0; // matchAll starts where aroundCutMarkers' last exec left the shared regex
    const cuts = [...text.matchAll(CUT_MARKER)].map((m) => ({ start: m.index!, end: m.index! + m[0].length }));
    // A remembered value's pieces on each side of a cut.
    this.learned.findAtCuts(text, cuts, found);
    // A value (found by its name or its shape) that runs into a cut (the cut's `…` ends it), and a word straight after the cut:
    // the same run of text, its tail (`/proc/<pid>/environ` without `tr`: the squasher drops its NULs, the variables run together
    // over 1,000 characters into one value: adv38 F07; a 1Password service account token of ~800 characters: adv40 F24).
    for (const cut of cuts) {
      const into = found.find((f) => f.start < cut.start && f.end >= cut.start && f.end <= cut.start + 1);
      if (!into) continue;
      const tail = VALUE_TAIL_AFTER_CUT.exec(text.slice(cut.end, cut.end + MAX_VALUE_TAIL));
      if (tail) found.push({ start: cut.end, end: cut.end + tail[0].length, kind: into.kind });
    }
    // A JWT the cut took the signature of (`jwt=eyJhbGci….eyJuYW1l… [+669 chars] …`: adv26 F21): no shape rule sees two parts.
    for (const cut of cuts) {
      const head = JWT_HEAD_BEFORE_CUT.exec(text.slice(Math.max(0, cut.start - MAX_JWT_HEAD), cut.start));
      if (!head) continue;
      found.push({ start: cut.start - head[0].length, end: cut.start, kind: 'jwt' });
      // …and its rest after the cut (the payload's end, the signature).
      const tail = JWT_REST_AFTER_CUT.exec(text.slice(cut.end, cut.end + MAX_JWT_HEAD));
      if (tail) found.push({ start: cut.end, end: cut.end + tail[0].length, kind: 'jwt' });
    }
    // A one-line key the cut took the middle of (Go's `%q` of the environment: `"KEY=-----BEGIN…\n… [+1,537 chars] …\nI1m3…=\n
    // -----END RSA PRIVATE KEY-----\n"`: adv30 F30): the body's rest after the cut, up to its END line.
    // Its head before the cut too, where the key is percent-encoded in a URL (Airflow's `get_uri`: `private_key_content=-----BEGIN+
    // ENCRYPTED+PRIVATE+KEY-----%0AMIIF… [+1,789 chars] …`: adv33 F13), which no block rule reads.
    for (const cut of cuts) {
      const rest = KEY_REST_AFTER_CUT.exec(text.slice(cut.end, cut.end + MAX_KEY_REST));
      if (rest) found.push({ start: cut.end, end: cut.end + rest[1].length, kind: 'private key' });
      // A key's PEM as base64 (Traefik's acme.json `"key": "LS0tLS1CRUdJTi…"`: adv35 F39): the run after the cut that holds its
      // END line's base64 (at any of the three alignments).
      const run = BASE64_RUN_AFTER_CUT.exec(text.slice(cut.end, cut.end + MAX_KEY_REST));
      if (run && BASE64_PEM_END.test(run[0]) && endsPrivateKey(run[0])) found.push({ start: cut.end, end: cut.end + run[0].length, kind: 'base64 private key' });
      const before = text.slice(Math.max(0, cut.start - MAX_KEY_REST), cut.start);
      const head = KEY_HEAD_BEFORE_CUT.exec(before);
      if (head) found.push({ start: cut.start - head[1].length, end: cut.start, kind: 'private key' });
      // Base64 the cut split (an SNS `Message` of an encoded env file, `"Message":"T1BFTkFJX0FQSV9LRVk9… [+38 chars] …0RHZm…"`: adv48
      // F17): neither side decodes as a whole. The head's whole groups, decoded, holding a secret mask the head and the tail after the cut.
      const b64 = BASE64_HEAD_BEFORE_CUT.exec(before);
      if (b64) {
        const groups = b64[0].slice(0, b64[0].length - (b64[0].length % 4));
        const decoded = Buffer.from(groups, 'base64').toString('latin1');
        const inner = PRINTABLE.test(decoded) ? scanSecrets(decoded)[0] : undefined;
        if (inner) {
          found.push({ start: cut.start - b64[0].length, end: cut.start, kind: base64Kind(inner.kind) });
          const tail = BASE64_TAIL_AFTER_CUT.exec(text.slice(cut.end, cut.end + MAX_KEY_REST));
          if (tail) found.push({ start: cut.end, end: cut.end + tail[0].length, kind: base64Kind(inner.kind) });
        }
      }
    }
  }

  /**
   * The line a credential printer is still printing (StreamMasker.openPrinted), wherever a read shows it: the page's last line,
   * `last_line`, a status line's `last: "…"` (which may cut it: its head of MIN_OPEN_PRINTED_HEAD characters or more counts).
   */
  private openPrintedLines(text: string, found: SecretFinding[]): void {
    for (const s of this.streams.values()) {
      const p = s.openPrinted();
      if (p !== undefined) maskOpenPiece(text, p, printedKind(s.printer!), found);
      // Any command's open line whose last word may be a value cut mid-way (StreamMasker.openTail).
      const t = s.openTail();
      if (t !== undefined) maskOpenPiece(text, t, OPEN_TAIL_KIND, found);
    }
  }

  /**
   * A piece of a key block a command is still printing (a stream's open block: its body lines, its incomplete line) shown
   * outside a read's page: `last_line`, a status line's `last: "…"`, the process table (adv25 F02, F05, F46). Each base64 run
   * of text that is part of such a piece (or starts one) is masked; other base64 in the text is not (no block of its own).
   */
  private openKeyPieces(text: string, found: SecretFinding[]): void {
    let pieces: string[] | undefined;
    let lines: Set<string>[] | undefined;
    for (const s of this.streams.values()) {
      const p = s.openKeyPieces();
      if (p.length > 0) (pieces ??= []).push(...p);
      if (s.keyLines.size > 0) (lines ??= []).push(s.keyLines);
    }
    if (!pieces && !lines) return;
    BASE64_RUN.lastIndex = 0;
    for (let m = BASE64_RUN.exec(text); m; m = BASE64_RUN.exec(text)) {
      const run = m[0];
      // A whole body line of a key block the command printed (closed or open), shown anywhere; or a piece of the open one.
      // A shorter run counts only as the open piece's own text (a status line's `last: "U2tnmWxsRdHX"` of a line half printed:
      // adv50 F04, F14): the open piece holds it.
      const known =
        // (A block's short last line is remembered from 8 characters: stream-masker.ts MIN_KEY_TAIL_SHOWN.)
        lines?.some((l) => l.has(run)) ||
        pieces?.some((p) => (p.includes(run) && (run.length >= MIN_KEY_PIECE || p.endsWith(run))) || (p.length >= MIN_KEY_PIECE && run.length >= MIN_KEY_PIECE && run.startsWith(p.slice(0, MIN_KEY_PIECE))));
      if (known) found.push({ start: m.index, end: m.index + run.length, kind: 'private key' });
    }
  }

  /** Remembers the values `text` holds by their context (a command's raw output as it streams): nothing is masked or returned. */
  learnFrom(text: string): void {
    const plain = plainText(text);
    for (const f of scanContextSecrets(plain)) this.learned.learn(plain.slice(f.start, f.end), f.kind);
  }

  /** learnFrom on raw UTF-8 output, whole lines (`buf[n - 1]` a newline): only the lines with a context keyword are decoded. */
  learnFromBytes(buf: Buffer, n: number): void {
    for (const f of scanContextSecretsInBytes(buf, n)) this.learned.learn(f.value, f.kind);
  }

  /** Remembers `value`, a command printed it alone (secret-printers.ts): masked everywhere from now on. */
  learnValue(value: string, kind: string): void {
    this.learned.learn(value, kind, MIN_PRINTED_CHARS);
  }

  /**
   * Command `id` runs `command` (its output follows): when its whole output is a credential
   * (`gh auth token`, `vault read -field=…`), its stream state remembers every value line as
   * `<kind> printed by <tool>`, so the replies and reads that show them are masked.
   */
  noteCommand(id: string, command: string): void {
    const printer = secretPrinterOf(command);
    if (printer) this.stream(id).printer = printer;
  }

  /** `text`, the output (or the report) of `command`: masked, the value lines of a credential-printing command too. */
  maskCommandOutput(command: string, text: string): string {
    const printer = secretPrinterOf(command);
    if (!printer) return this.mask(text);
    // Every value of this output masks it, however many it prints: the session remembers the last MAX_LEARNED (a credentials
    // file of 200 rows had 136 of its passwords forgotten before its output was masked: session 34's own attack).
    const printed = new LearnedSecrets(Infinity);
    const kind = printedKind(printer);
    for (const v of printerValues(printer, text)) {
      this.learnValue(v, kind);
      printed.learn(v, kind, MIN_PRINTED_CHARS);
    }
    const known = this.maskKnown(text);
    return applyMasks(known, this.find(known, false, printed));
  }

  /** `text` with every known and every found secret masked (synchronous). */
  mask(text: string): string {
    const known = this.maskKnown(text);
    return applyMasks(known, this.find(known));
  }

  /** `text` with every known and every found secret masked. */
  async redact(text: string): Promise<string> {
    return this.mask(text);
  }

  /**
   * Several texts scanned as one; each comes back masked. `joins[i]` (default "\n") goes
   * between texts[i-1] and texts[i] while scanning: "\n" lets a private key split over
   * consecutive lines of a read_raw page be seen whole; FIELD_BREAK keeps unrelated fields apart.
   * `raw`: the texts are a raw page's lines, read without UTF-16's NULs too (a reply has none).
   */
  maskStrings(texts: readonly string[], joins?: readonly string[], raw = false): string[] {
    const known = texts.map((t) => this.maskKnown(t));
    const starts: number[] = [];
    let joined = '';
    known.forEach((t, i) => {
      if (i > 0) joined += joins?.[i] ?? '\n';
      starts.push(joined.length);
      joined += t;
    });
    const findings = this.find(joined, raw);
    if (findings.length === 0) return known;
    const perText: SecretFinding[][] = known.map(() => []);
    for (const f of findings) {
      for (let i = indexAt(starts, f.start); i < known.length && starts[i] < f.end; i++) {
        const s = Math.max(f.start - starts[i], 0);
        const e = Math.min(f.end - starts[i], known[i].length);
        if (e > s) perText[i].push({ start: s, end: e, kind: f.kind });
      }
    }
    return known.map((t, i) => applyMasks(t, perText[i]));
  }

  async redactStrings(texts: readonly string[], joins?: readonly string[]): Promise<string[]> {
    return this.maskStrings(texts, joins);
  }

  /** A JSON-like value (structuredContent) with every string in it masked; keys are kept. */
  maskDeep<T>(value: T): T {
    const strings: string[] = [];
    const joins: string[] = [];
    collect(value, strings, joins, false);
    if (strings.length === 0) return value;
    const masked = this.maskStrings(strings, joins);
    let k = 0;
    return rebuild(value, () => masked[k++]) as T;
  }

  async redactDeep<T>(value: T): Promise<T> {
    return this.maskDeep(value);
  }

  /**
   * The stream state of one command's output (`id`: its process id), fed with its raw chunks as
   * they arrive: it learns the secrets in them found by context (split across chunks or not) and
   * where its private key blocks are, so a later read that starts or ends inside a block is
   * masked. It masks nothing itself (replies and reads are masked when they are made).
   */
  stream(id: string): StreamMasker {
    let s = this.streams.get(id);
    if (!s) {
      s = new StreamMasker(this, { learnOnly: true });
      this.streams.set(id, s);
      if (this.streams.size > MAX_STREAMS) this.streams.delete(this.streams.keys().next().value!);
    }
    return s;
  }

  /**
   * Lines of command `id`'s output as a read returns them, masked before any column window or
   * line cut is taken (so a window never shows part of a secret): lines of a private key block
   * the stream saw (the read may start or end inside it) become the key mask; the rest are
   * scanned together, so a block whose armour is in the read is seen whole.
   */
  maskLines<L extends { n: number; text: string }>(id: string, lines: readonly L[]): L[] {
    if (lines.length === 0) return [...lines];
    const stream = this.streams.get(id);
    const texts = lines.map((l) => (stream?.isKeyLine(l.n) ? keyLineShown(l.text, stream.keyLinePrefix(l.n)) : l.text));
    const masked = this.maskStrings(texts, undefined, true);
    return lines.map((l, i) => (masked[i] === l.text ? l : { ...l, text: masked[i] }));
  }

  /** The stream state of `id` if its output was seen. */
  streamOf(id: string): StreamMasker | undefined {
    return this.streams.get(id);
  }
}

/**
 * A private key block's line as a read shows it: the key mask, after the line's indentation (a key under YAML's `key: |` keeps
 * its place in the document), after the prefix a tool wrote before each of the block's lines (`prefix`: journalctl's date, host
 * and unit: 138 F46) and, on the BEGIN line, after what stands before the armour (`SIGNING_KEY=-----BEGIN …` of `env`: the
 * variable's name). What is kept is scanned with the rest of the read.
 */
function keyLineShown(line: string, prefix?: string): string {
  const begin = line.indexOf('-----BEGIN');
  if (begin > 0) return line.slice(0, begin) + KEY_LINE_MASK;
  const shaped = prefix ? shapePrefixLength(line, prefix) : 0;
  if (shaped > 0) return line.slice(0, shaped) + KEY_LINE_MASK;
  let indent = 0;
  while (indent < line.length && (line.charCodeAt(indent) === 0x20 || line.charCodeAt(indent) === 0x09)) indent++;
  return indent < line.length ? line.slice(0, indent) + KEY_LINE_MASK : KEY_LINE_MASK;
}

/**
 * An SSH public key's type then its blob (an `authorized_keys` or `.pub` line, `ssh-keygen -y`'s output); group b the blob. Or
 * the blob alone, its wire format naming its type (`AAAAC3NzaC1lZDI1NTE5…`: Airflow's SFTP `host_key`, adv142 P4), group b2.
 */
const SSH_PUBLIC_KEY = /(?:ssh-(?:ed25519|rsa|dss)|ecdsa-sha2-nistp(?:256|384|521)|sk-(?:ssh-ed25519|ecdsa-sha2-nistp256)@openssh\.com) (?<b>AAAA[A-Za-z0-9+/]{16,16384}={0,2})|(?<![A-Za-z0-9+/])(?<b2>AAAA(?:B3NzaC1yc2E|B3NzaC1kc3M|C3NzaC1lZDI1NTE5|E2VjZHNhLXNoYTItbmlzdHA|GnNrLXNzaC1lZDI1NTE5|InNrLWVjZHNhLXNoYTItbmlzdHA)[A-Za-z0-9+/]{16,16384}={0,2})/dg;

/** A PEM block's armour line (group b: BEGIN or END, l: its label). */
const PEM_ARMOUR = /-----(?<b>BEGIN|END) (?<l>[A-Z0-9 ]{1,64})-----/g;
/** The labels of PEM blocks that hold public data: a public key, a certificate, a request, a revocation list. */
const PUBLIC_PEM_LABEL = /^(?:(?:RSA |EC |PGP )?PUBLIC KEY(?: BLOCK)?|(?:TRUSTED )?CERTIFICATE|(?:NEW )?CERTIFICATE REQUEST|X509 CRL)$/;

/** Drops the findings inside an SSH public key's blob or a public PEM block (remembered pieces of the private key that holds it). */
/** rsaEncryption's algorithm identifier in an SPKI's DER, in base64 at the offset an SPKI puts it (1024 to 4096 bits alike). */
const SPKI_RSA_OID = 'BgkqhkiG9w0BAQEFAAOC';
/** An RSA SPKI in base64: its header, the identifier, the bit string's modulus and exponent. */
const SPKI_RSA_RUN = /MII[BC][A-Za-z0-9+/]{4}BgkqhkiG9w0BAQEFAAOC[A-Za-z0-9+/]{100,2048}={0,2}/g;
function keepPublicKeys(text: string, found: SecretFinding[]): void {
  const blobs: [number, number][] = [];
  SSH_PUBLIC_KEY.lastIndex = 0;
  for (let m = SSH_PUBLIC_KEY.exec(text); m; m = SSH_PUBLIC_KEY.exec(text)) blobs.push((m.indices!.groups!.b ?? m.indices!.groups!.b2)!);
  // Each public BEGIN paired with the END after it (one pass over the armour lines: a megabyte of BEGINs is read once).
  let open = -1;
  PEM_ARMOUR.lastIndex = 0;
  for (let m = PEM_ARMOUR.exec(text); m; m = PEM_ARMOUR.exec(text)) {
    if (m.groups!.b === 'BEGIN') open = PUBLIC_PEM_LABEL.test(m.groups!.l) ? m.index + m[0].length : -1;
    else if (open >= 0) {
      blobs.push([open, m.index]);
      open = -1;
    }
  }
  // An RSA public key's DER in base64 outside armour (SPKI: a DKIM record's `p=`, a JSON `"pubkey"`), as long as it runs.
  if (text.includes(SPKI_RSA_OID)) {
    SPKI_RSA_RUN.lastIndex = 0;
    for (let m = SPKI_RSA_RUN.exec(text); m; m = SPKI_RSA_RUN.exec(text)) blobs.push([m.index, m.index + m[0].length]);
  }
  if (blobs.length === 0) return;
  let kept = 0;
  for (const f of found) if (!blobs.some(([s, e]) => f.start >= s && f.end <= e)) found[kept++] = f;
  found.length = kept;
}


/** Replaces the (possibly overlapping) ranges of `text`; overlapping ranges merge and keep the first kind. */
export function applyMasks(text: string, ranges: SecretFinding[]): string {
  if (ranges.length === 0) return text;
  const sorted = [...ranges].sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: SecretFinding[] = [];
  for (const r of sorted) {
    const last = merged[merged.length - 1];
    if (last && r.start < last.end) last.end = Math.max(last.end, r.end);
    else merged.push({ ...r });
  }
  let out = '';
  let pos = 0;
  for (const r of merged) {
    out += text.slice(pos, r.start) + maskOf(r.kind);
    pos = r.end;
  }
  return out + text.slice(pos);
}

/**
 * Between two fields while scanning: a line no pattern reads across (not base64, not part of a
 * URL or an assignment), so `status: "started"` can never be taken for the tail of a key in
 * the field before it.
 */
const FIELD_BREAK = '\n\u0000\n';

/**
 * Every string of `v` in order, with the join before each: "\n" between consecutive lines of
 * one array (strings, or `{n, text}` objects as read_raw returns them), FIELD_BREAK otherwise.
 */
function collect(v: unknown, out: string[], joins: string[], inLines: boolean): void {
  if (typeof v === 'string') {
    joins.push(inLines ? '\n' : FIELD_BREAK);
    out.push(v);
  } else if (Array.isArray(v)) {
    v.forEach((x, i) => collect(x, out, joins, i > 0 && (typeof x === 'string' || isLine(x))));
  } else if (v && typeof v === 'object') {
    for (const x of Object.values(v)) collect(x, out, joins, inLines && typeof x === 'string');
  }
}

/** An object with one string field (a numbered line `{n, text}`): its text continues the previous line. */
function isLine(x: unknown): boolean {
  return !!x && typeof x === 'object' && !Array.isArray(x) && Object.values(x).filter((y) => typeof y === 'string').length === 1;
}

function rebuild(v: unknown, next: () => string): unknown {
  if (typeof v === 'string') return next();
  if (Array.isArray(v)) return v.map((x) => rebuild(x, next));
  if (v && typeof v === 'object') {
    const o: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) o[k] = rebuild(x, next);
    return o;
  }
  return v;
}

/** A JWT's header and (part of) its payload, maybe its signature's start, right before a cut: `eyJ…` `.` `eyJ…` (`.` `…`), up to the cut. */
const JWT_HEAD_BEFORE_CUT = /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]*)?$/;
/** The rest of a JWT after a cut: base64url and dots up to its end. */
const JWT_REST_AFTER_CUT = /^[A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]+)*/;
/** How far before a cut a JWT's start is looked for. */
const MAX_JWT_HEAD = 4096;
/** After a cut: a key body's base64 with its line breaks written out (`\\n`), then its END line. */
// Or percent-encoded (`%0A` between the lines, `%2B` `%2F` `%3D` in them, `+` for a blank).
const KEY_BODY_CHARS = '(?:[A-Za-z0-9+/=]|\\\\n|%0A|%2B|%2F|%3D)';
const KEY_REST_AFTER_CUT = new RegExp(`^(${KEY_BODY_CHARS}{1,8192})-----END[ +][A-Z0-9 +]{0,32}PRIVATE[ +]KEY-----`);
/** Before a cut: a key's BEGIN line, then its body up to the cut. */
const KEY_HEAD_BEFORE_CUT = new RegExp(`-----BEGIN[ +](?:[A-Z0-9]{1,16}[ +]){0,3}PRIVATE[ +]KEY-----(${KEY_BODY_CHARS}{1,8192})$`);
/** After a cut: a run of base64. */
const BASE64_RUN_AFTER_CUT = /^[A-Za-z0-9+/]{16,8192}={0,2}/;
/** Before a cut: a run of standard base64 long enough to hold a name and a value (24 characters decode to 18). */
const BASE64_HEAD_BEFORE_CUT = /(?<![A-Za-z0-9+/])[A-Za-z0-9+/]{24,8192}$/;
/** After a cut: the rest of a base64 run, its padding included. */
const BASE64_TAIL_AFTER_CUT = /^[A-Za-z0-9+/]{1,8192}={0,2}/;
/** Decoded text (not binary: a hash, compressed data, which holds no credential text). */
const PRINTABLE = /^[\t\n\r\x20-\x7e]+$/;
/** `-----END ` in base64 at each of its three alignments (`LS0tLS1FTkQg`, `0tLS0tRU5EI`, `tLS0tLUVORC`). */
const BASE64_PEM_END = /LS0tLS1FTkQg|0tLS0tRU5EI|tLS0tLUVORC/;
/** Does base64 cut at any point (one of four alignments) decode to text with a private key's END line? */
function endsPrivateKey(run: string): boolean {
  for (let i = 0; i < 4; i++) if (Buffer.from(run.slice(i, run.length - ((run.length - i) % 4)), 'base64').toString('latin1').includes('PRIVATE KEY-----')) return true;
  return false;
}
/** How far after a cut a key's rest is looked for (a 4096-bit key's base64 is ~3,200 characters). */
const MAX_KEY_REST = 8300;
/** An OSC sequence's start; OSC: its text (group 1) to BEL or ST. */
const OSC_START = '\x1b]';
const OSC = /\x1b\]([^\x07\x1b]{1,8192})(?:\x07|\x1b\\)/g;

/** The secrets in the texts of a text's OSC sequences (a hyperlink's target, a title), as ranges of the text. */
function oscFindings(text: string): SecretFinding[] {
  const out: SecretFinding[] = [];
  OSC.lastIndex = 0;
  for (let m = OSC.exec(text); m; m = OSC.exec(text)) {
    const at = m.index + 2;
    for (const f of scanSecrets(m[1])) out.push({ ...f, start: at + f.start, end: at + f.end });
  }
  return out;
}

/** Each place `text` shows `piece` (or its head: a status line may cut it), pushed as a finding of `kind`. */
function maskOpenPiece(text: string, piece: string, kind: string, found: SecretFinding[]): void {
  const head = piece.slice(0, Math.min(piece.length, MIN_OPEN_PRINTED_HEAD));
  for (let i = text.indexOf(head); i >= 0; i = text.indexOf(head, i + 1)) {
    let end = i + head.length;
    while (end < text.length && end - i < piece.length && text.charCodeAt(end) === piece.charCodeAt(end - i)) end++;
    found.push({ start: i, end, kind });
    i = end - 1;
  }
}
/** The mask's kind for an open line's last word: what it is is not known until the line ends. */
const OPEN_TAIL_KIND = 'value still being printed';

/** A key block's body line as a run of base64 (a body line is 64 characters; its shorter last one is the stream's to remember). */
const KEY_BODY_RUN = /[A-Za-z0-9+/]{40,76}={0,2}/g;

/** A piece of a key's body shown on its own is this long at least (shorter runs are words: `MII` is no secret). */
const MIN_KEY_PIECE = 16;
/** A printer's open line is looked for by its head this long (or whole when shorter): a status line cuts it at ~80 characters. */
const MIN_OPEN_PRINTED_HEAD = 16;
/** A run of base64 characters, MIN_OPEN_PIECE and up (a key line's piece being printed may be short: it must end the open piece). */
const MIN_OPEN_PIECE = 8;
const BASE64_RUN = new RegExp(`[A-Za-z0-9+/]{${MIN_OPEN_PIECE},}={0,2}`, 'g');

/** How the squasher's mark of a line's cut middle begins (squasher/line-cut.ts cutMarker: `… [+1,234 chars] …`). */
const CUT_MARKER_START = '… [+';
/** A value's tail after a cut: a run of value characters straight after the marker (what KEY_VALUE_VALUE would go on over). */
const VALUE_TAIL_AFTER_CUT = /^[^\s"',;}\]]+/;
/** Of a value's tail after a cut, at most this much is read (a line's tail is at most a few hundred characters). */
const MAX_VALUE_TAIL = 4096;
const CUT_MARKER = /… \[\+[\d,]+ chars\] …/g;

/**
 * Findings with the squasher's cut mark kept out: a value that runs across a long line's cut (`"password": "VALUE_SPE… [+212
 * chars] …", "port"`: adv19 K01) is masked on each side of the mark, and the mark, which says the line was shortened, stays.
 */
function aroundCutMarkers(text: string, found: SecretFinding[]): SecretFinding[] {
  const out: SecretFinding[] = [];
  for (const f of found) {
    CUT_MARKER.lastIndex = f.start;
    let from = f.start;
    for (let m = CUT_MARKER.exec(text); m && m.index < f.end; m = CUT_MARKER.exec(text)) {
      if (m.index > from) out.push({ ...f, start: from, end: m.index });
      from = m.index + m[0].length;
    }
    if (from < f.end) out.push({ ...f, start: from, end: f.end });
  }
  return out;
}
