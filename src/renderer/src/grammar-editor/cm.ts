/**
 * CodeMirror 6 set-ups of the grammar editor's three panes: the TOML editor (highlighting,
 * inline loader errors), the raw output (kept / folded / dropped marks, must-keep gutter) and
 * the condensed result. Colours come from the view's CSS variables, so dark and light both work.
 */
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { HighlightStyle, StreamLanguage, syntaxHighlighting } from '@codemirror/language';
import { toml } from '@codemirror/legacy-modes/mode/toml';
import { lintGutter, setDiagnostics, type Diagnostic } from '@codemirror/lint';
import { EditorState, RangeSetBuilder, StateEffect, StateField } from '@codemirror/state';
import {
  Decoration,
  EditorView,
  GutterMarker,
  ViewPlugin,
  gutter,
  highlightActiveLine,
  highlightActiveLineGutter,
  keymap,
  lineNumbers,
  type DecorationSet,
  type ViewUpdate,
} from '@codemirror/view';
import { tags } from '@lezer/highlight';
import { FATE, type PreviewProblem } from './protocol.js';

const highlight = HighlightStyle.define([
  { tag: tags.comment, color: 'var(--gx-comment)', fontStyle: 'italic' },
  { tag: tags.propertyName, color: 'var(--gx-key)' },
  { tag: tags.string, color: 'var(--gx-string)' },
  { tag: [tags.atom, tags.bool], color: 'var(--gx-atom)', fontWeight: '600' },
  { tag: tags.number, color: 'var(--gx-number)' },
]);

const baseTheme = EditorView.theme({
  '&': { height: '100%', fontSize: '12.5px', color: 'var(--gx-fg)', backgroundColor: 'var(--gx-bg2)' },
  '.cm-scroller': { fontFamily: 'var(--gx-mono)', lineHeight: '1.45' },
  '.cm-gutters': { backgroundColor: 'var(--gx-bg3)', color: 'var(--gx-muted)', borderRight: '1px solid var(--gx-line)' },
  '.cm-activeLine': { backgroundColor: 'var(--gx-active)' },
  '.cm-activeLineGutter': { backgroundColor: 'var(--gx-active)' },
  '.cm-content': { caretColor: 'var(--gx-fg)' },
  '&.cm-focused .cm-cursor': { borderLeftColor: 'var(--gx-fg)' },
  '&.cm-focused .cm-selectionBackground, .cm-selectionBackground, ::selection': { backgroundColor: 'var(--gx-sel) !important' },
  '.cm-tooltip': { backgroundColor: 'var(--gx-bg3)', color: 'var(--gx-fg)', border: '1px solid var(--gx-line)' },
});

// ---- TOML editor ------------------------------------------------------------------------------

/** The TOML editor; `onChange` gets the text and the time of the keystroke. */
export function tomlEditor(parent: HTMLElement, text: string, onChange: (text: string, at: number) => void, onSave: () => void): EditorView {
  return new EditorView({
    parent,
    state: EditorState.create({
      doc: text,
      extensions: [
        lineNumbers(),
        highlightActiveLine(),
        highlightActiveLineGutter(),
        history(),
        keymap.of([{ key: 'Mod-s', preventDefault: true, run: () => (onSave(), true) }, ...defaultKeymap, ...historyKeymap]),
        StreamLanguage.define(toml),
        syntaxHighlighting(highlight),
        lintGutter(),
        baseTheme,
        EditorView.contentAttributes.of({ 'aria-label': 'grammar TOML' }),
        EditorView.updateListener.of((u) => {
          if (u.docChanged) onChange(u.state.doc.toString(), performance.now());
        }),
      ],
    }),
  });
}

/** Shows the loader's problems inline, each at its line with the rule named. */
export function showProblems(view: EditorView, problems: readonly PreviewProblem[]): void {
  const doc = view.state.doc;
  const diagnostics: Diagnostic[] = problems.map((p) => {
    const line = doc.line(Math.min(Math.max(p.line ?? 1, 1), doc.lines));
    return { from: line.from, to: line.to, severity: 'error', source: 'mish grammar loader', message: `${p.rule ? `rule ${p.rule}: ` : ''}${p.message}` };
  });
  view.dispatch(setDiagnostics(view.state, diagnostics));
}

// ---- raw output -------------------------------------------------------------------------------

/** The preview's marks for the raw pane. */
export interface RawMarks {
  status: Uint8Array;
  ruleOf: Uint16Array;
  rules: string[];
  target: Int32Array;
}

export const setMarks = StateEffect.define<RawMarks | undefined>();
export const setMustKeep = StateEffect.define<ReadonlySet<number>>();

const marksField = StateField.define<RawMarks | undefined>({
  create: () => undefined,
  update: (v, tr) => tr.effects.reduce((acc, e) => (e.is(setMarks) ? e.value : acc), v),
});
const mustKeepField = StateField.define<ReadonlySet<number>>({
  create: () => new Set(),
  update: (v, tr) => tr.effects.reduce((acc, e) => (e.is(setMustKeep) ? e.value : acc), v),
});

const FATE_CLASS = ['gx-dropped', 'gx-kept', 'gx-folded'];
const FATE_WORD = ['dropped', 'kept', 'folded'];
const FATE_GLYPH = ['✗', '✓', '⋯'];
const lineDeco = FATE_CLASS.map((c) => Decoration.line({ class: c }));

/** Line classes for the visible lines only (a 1 MB output has tens of thousands of lines). */
const fateLines = ViewPlugin.fromClass(
  class {
    decorations: DecorationSet;
    constructor(view: EditorView) {
      this.decorations = this.build(view);
    }
    update(u: ViewUpdate) {
      if (u.viewportChanged || u.docChanged || u.startState.field(marksField) !== u.state.field(marksField)) this.decorations = this.build(u.view);
    }
    build(view: EditorView): DecorationSet {
      const marks = view.state.field(marksField);
      const b = new RangeSetBuilder<Decoration>();
      if (!marks) return b.finish();
      for (const { from, to } of view.visibleRanges) {
        for (let pos = from; pos <= to; ) {
          const line = view.state.doc.lineAt(pos);
          const s = marks.status[line.number - 1];
          if (s !== undefined) b.add(line.from, line.from, lineDeco[s]);
          pos = line.to + 1;
        }
      }
      return b.finish();
    }
  },
  { decorations: (v) => v.decorations },
);

class TextMarker extends GutterMarker {
  constructor(
    readonly text: string,
    readonly cls: string,
    readonly title: string,
  ) {
    super();
  }
  override eq(other: TextMarker) {
    return other.text === this.text && other.cls === this.cls && other.title === this.title;
  }
  override toDOM() {
    const span = document.createElement('span');
    span.textContent = this.text;
    span.className = this.cls;
    span.title = this.title;
    return span;
  }
}

const fateMarkers = FATE_GLYPH.map((g, i) => new TextMarker(g, `gx-fate ${FATE_CLASS[i]}`, FATE_WORD[i]));
const pinMarker = new TextMarker('◆', 'gx-pin on', 'must keep (click to unmark)');
const noPin = new TextMarker('◇', 'gx-pin', 'click: must keep this line');

/** The raw pane: read-only, marks per line, must-keep toggled by clicking the ◇ gutter. */
export function rawViewer(parent: HTMLElement, onToggleMustKeep: (line: number) => void, onPick: (line: number) => void): EditorView {
  return new EditorView({
    parent,
    state: EditorState.create({
      doc: '',
      extensions: [
        marksField,
        mustKeepField,
        EditorState.readOnly.of(true),
        EditorView.editable.of(false),
        gutter({
          class: 'gx-pin-gutter',
          lineMarker: (view, line) => (view.state.field(mustKeepField).has(view.state.doc.lineAt(line.from).number) ? pinMarker : noPin),
          lineMarkerChange: (u) => u.startState.field(mustKeepField) !== u.state.field(mustKeepField),
          domEventHandlers: {
            mousedown: (view, line) => {
              onToggleMustKeep(view.state.doc.lineAt(line.from).number);
              return true;
            },
          },
        }),
        lineNumbers({
          domEventHandlers: {
            mousedown: (view, line) => {
              onPick(view.state.doc.lineAt(line.from).number);
              return false;
            },
          },
        }),
        gutter({
          class: 'gx-fate-gutter',
          lineMarker: (view, line) => {
            const marks = view.state.field(marksField);
            const n = view.state.doc.lineAt(line.from).number;
            const s = marks?.status[n - 1];
            if (s === undefined) return null;
            const rule = marks!.rules[marks!.ruleOf[n - 1]];
            const m = fateMarkers[s];
            return rule ? new TextMarker(m.text, m.cls, `${FATE_WORD[s]} · ${rule}`) : m;
          },
          lineMarkerChange: (u) => u.startState.field(marksField) !== u.state.field(marksField),
        }),
        fateLines,
        highlightActiveLine(),
        baseTheme,
        EditorView.contentAttributes.of({ 'aria-label': 'raw output' }),
        EditorView.domEventHandlers({
          mousedown: (e, view) => {
            const pos = view.posAtCoords({ x: e.clientX, y: e.clientY });
            if (pos !== null) onPick(view.state.doc.lineAt(pos).number);
            return false;
          },
        }),
      ],
    }),
  });
}

// ---- condensed result -------------------------------------------------------------------------

export const setFocusLine = StateEffect.define<number | undefined>();
const focusDeco = Decoration.line({ class: 'gx-focus' });
const focusField = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(v, tr) {
    for (const e of tr.effects) {
      if (!e.is(setFocusLine)) continue;
      if (e.value === undefined || e.value < 1 || e.value > tr.state.doc.lines) return Decoration.none;
      const line = tr.state.doc.line(e.value);
      return Decoration.set([focusDeco.range(line.from)]);
    }
    return tr.docChanged ? Decoration.none : v;
  },
  provide: (f) => EditorView.decorations.from(f),
});

export function summaryViewer(parent: HTMLElement): EditorView {
  return new EditorView({
    parent,
    state: EditorState.create({
      doc: '',
      extensions: [EditorState.readOnly.of(true), EditorView.editable.of(false), lineNumbers(), focusField, baseTheme, EditorView.lineWrapping, EditorView.contentAttributes.of({ 'aria-label': 'condensed result' })],
    }),
  });
}

/** Replaces a read-only view's text (keeping its scroll position where it can). */
export function setText(view: EditorView, text: string): void {
  if (view.state.doc.toString() === text) return;
  view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
}

export { FATE };
