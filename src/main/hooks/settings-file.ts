/**
 * Edits an agent's JSON settings file in place with jsonc-parser (VS Code's own settings
 * editor): only the bytes of mish's entry change; everything else (order, comments, indentation,
 * line endings) stays as the user wrote it. (Its ESM build: the UMD main does not bundle.) Why a library: a format-preserving JSON edit is
 * exactly what it does, and re-serialising the file would reorder and reformat it.
 */
import { applyEdits, findNodeAtLocation, modify, parse, parseTree, printParseErrorCode, type FormattingOptions, type ParseError } from 'jsonc-parser/lib/esm/main.js';
import type { HostAdapter } from './hosts/types.js';
import { isRecord } from './hosts/types.js';

export type EditResult = { ok: true; text: string; changed: boolean; state: 'added' | 'updated' | 'present' | 'removed' | 'absent' } | { ok: false; error: string };

/** The file's own indentation and line ending (2 spaces and \n for a new file). */
export function formattingOf(text: string): FormattingOptions {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const m = /\n([ \t]+)\S/.exec(text);
  const indent = m?.[1] ?? '  ';
  return indent.startsWith('\t') ? { insertSpaces: false, tabSize: 1, eol } : { insertSpaces: true, tabSize: indent.length, eol };
}

export function parseSettings(text: string): { ok: true; value: Record<string, unknown> } | { ok: false; error: string } {
  if (text.trim() === '') return { ok: true, value: {} };
  const errors: ParseError[] = [];
  const value: unknown = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length) {
    const e = errors[0];
    const line = text.slice(0, e.offset).split('\n').length;
    return { ok: false, error: `not valid JSON at line ${line} (${printParseErrorCode(e.error)})` };
  }
  if (!isRecord(value)) return { ok: false, error: 'the file is not a JSON object' };
  return { ok: true, value };
}

function listAt(value: Record<string, unknown>, path: (string | number)[]): unknown {
  let v: unknown = value;
  for (const k of path) v = isRecord(v) ? v[k as string] : undefined;
  return v;
}

/** Adds mish's hook entry (or brings an older mish entry up to date); idempotent. */
export function addEntry(text: string, host: HostAdapter, command: string): EditResult {
  const parsed = parseSettings(text);
  if (!parsed.ok) return parsed;
  const fmt = formattingOf(text);
  const { path, value, topLevel } = host.entry(command);
  const list = listAt(parsed.value, path);
  if (list !== undefined && !Array.isArray(list)) return { ok: false, error: `${path.join('.')} is not a list` };
  let out = text.trim() === '' ? '{}' : text;
  let state: 'added' | 'updated' | 'present' = 'added';
  const index = Array.isArray(list) ? list.findIndex((e) => host.isMishEntry(e)) : -1;
  if (index >= 0) {
    if (JSON.stringify(list![index]) === JSON.stringify(value)) return { ok: true, text, changed: false, state: 'present' };
    out = applyEdits(out, modify(out, [...path, index], value, { formattingOptions: fmt }));
    state = 'updated';
  } else {
    for (const [k, v] of Object.entries(topLevel ?? {})) if (!(k in parsed.value)) out = applyEdits(out, modify(out, [k], v, { formattingOptions: fmt }));
    out = Array.isArray(list) && list.length > 0 ? appendAfterLast(out, path, value, fmt) : applyEdits(out, modify(out, [...path, -1], value, { formattingOptions: fmt, isArrayInsertion: true }));
  }
  if (text.trim() === '' && !out.endsWith('\n')) out += fmt.eol;
  return { ok: true, text: out, changed: out !== text, state };
}

/**
 * Appends to a non-empty list right after its last element, indented like it. (jsonc-parser's
 * array insertion re-formats the list's existing elements: a user's one-line entry would be
 * spread over ten lines.)
 */
function appendAfterLast(text: string, path: (string | number)[], value: unknown, fmt: FormattingOptions): string {
  const node = findNodeAtLocation(parseTree(text, [], { allowTrailingComma: true })!, path);
  const last = node?.children?.[node.children.length - 1];
  if (!node || !last) return applyEdits(text, modify(text, [...path, -1], value, { formattingOptions: fmt, isArrayInsertion: true }));
  const lineStart = text.lastIndexOf('\n', last.offset) + 1;
  const lead = /^[ \t]*/.exec(text.slice(lineStart))![0];
  const sameLine = text.slice(lineStart, last.offset).trim() !== '';
  const unit = fmt.insertSpaces ? ' '.repeat(fmt.tabSize ?? 2) : '\t';
  const indent = sameLine ? lead + unit : lead;
  const body = JSON.stringify(value, null, unit).split('\n').join(`${fmt.eol}${indent}`);
  const end = last.offset + last.length;
  return `${text.slice(0, end)},${fmt.eol}${indent}${body}${text.slice(end)}`;
}

/** Removes one list element with its separator, leaving the other elements' bytes alone (jsonc-parser's removal re-formats them). */
function removeElement(text: string, path: (string | number)[], index: number, fmt: FormattingOptions): string {
  const node = findNodeAtLocation(parseTree(text, [], { allowTrailingComma: true })!, path);
  const kids = node?.children ?? [];
  const el = kids[index];
  if (!el) return applyEdits(text, modify(text, [...path, index], undefined, { formattingOptions: fmt }));
  if (index > 0) {
    const prev = kids[index - 1];
    return text.slice(0, prev.offset + prev.length) + text.slice(el.offset + el.length);
  }
  if (kids.length > 1) return text.slice(0, el.offset) + text.slice(kids[1].offset);
  // The only element: the list becomes empty (its brackets keep their place).
  return text.slice(0, node!.offset + 1) + text.slice(node!.offset + node!.length - 1);
}

/** Removes mish's entries; a list (and its parent object) left empty by it goes too. */
export function removeEntry(text: string, host: HostAdapter): EditResult {
  const parsed = parseSettings(text);
  if (!parsed.ok) return parsed;
  const fmt = formattingOf(text);
  const { path } = host.entry('');
  let out = text;
  let removed = false;
  for (;;) {
    const p = parseSettings(out);
    if (!p.ok) return p;
    const list = listAt(p.value, path);
    if (!Array.isArray(list)) break;
    const i = list.findIndex((e) => host.isMishEntry(e));
    if (i < 0) {
      if (removed && list.length === 0) out = applyEdits(out, modify(out, path, undefined, { formattingOptions: fmt }));
      break;
    }
    out = removeElement(out, path, i, fmt);
    removed = true;
  }
  if (removed && path.length > 1) {
    const p = parseSettings(out);
    const parent = p.ok ? listAt(p.value, path.slice(0, -1)) : undefined;
    if (isRecord(parent) && Object.keys(parent).length === 0) out = applyEdits(out, modify(out, path.slice(0, -1), undefined, { formattingOptions: fmt }));
  }
  return { ok: true, text: out, changed: out !== text, state: removed ? 'removed' : 'absent' };
}

/** Is mish's hook in this settings text? */
export function hasEntry(text: string, host: HostAdapter): { installed: boolean; command?: string; matcher?: string } {
  const p = parseSettings(text);
  if (!p.ok) return { installed: false };
  const list = listAt(p.value, host.entry('').path);
  if (!Array.isArray(list)) return { installed: false };
  const e = list.find((x) => host.isMishEntry(x));
  if (!e) return { installed: false };
  // `command` (Claude Code, Codex, Cursor), `hooks[].command` (Gemini CLI), `bash` (Copilot CLI).
  const cmd = isRecord(e) ? (typeof e.command === 'string' ? e.command : typeof e.bash === 'string' ? e.bash : Array.isArray(e.hooks) ? (e.hooks.find((h) => isRecord(h) && typeof h.command === 'string' && /mish/.test(h.command)) as { command?: string } | undefined)?.command : undefined) : undefined;
  // The tools it is installed for (Claude Code, Codex, Gemini CLI): an older install's covers fewer.
  const matcher = isRecord(e) && typeof e.matcher === 'string' ? e.matcher : undefined;
  return { installed: true, command: cmd, ...(matcher !== undefined ? { matcher } : {}) };
}
