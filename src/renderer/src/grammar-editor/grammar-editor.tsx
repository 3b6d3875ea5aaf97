/**
 * The grammar editor (issue 12.3, CONSOLE.md "Grammar editor"): a grammar's TOML on the left,
 * the chosen raw output in the middle marked kept / folded / dropped, the condensed result on
 * the right — recomputed in a worker as you type. Must-keep lines are pinned in the raw pane's
 * ◇ gutter; an edit that stops showing one raises a warning. Saves to the project's or the
 * user's grammar folder (a built-in's name becomes an override), so the next `mish` uses it.
 *
 * Self-contained: talks to the main process only through the `grammar:*` bridge methods.
 */
import { EditorView } from '@codemirror/view';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { ConsoleBridge, GrammarFile, GrammarRaw, RequestResult } from '../../../shared/contract.js';
import { rawViewer, setFocusLine, setMarks, setMustKeep, setText, showProblems, summaryViewer, tomlEditor, type RawMarks } from './cm.js';
import { PreviewRunner, type Delivered, type GrammarDoc } from './preview-runner.js';
import { FATE, type GrammarOriginName, type PreviewProblem } from './protocol.js';
import './grammar-editor.css';
import { plural } from '../format.js';

type GrammarList = RequestResult<'grammar:list'>;
type Opened = { name: string; origin: GrammarOriginName; file: string; shared: Record<string, string>; savedText: string };
type RawChoice = { key: string; label: string; raw: GrammarRaw };

/** Latency samples kept for the status line and the e2e (keystroke → preview painted, ms). */
const LATENCY_SAMPLES = 50;

export interface GrammarEditorProps {
  bridge: ConsoleBridge;
  onClose?: () => void;
  /** Open with this command's raw output (its spool id), e.g. from the console's timeline. */
  spoolId?: string;
}

function decodeBase64(b64: string): Uint8Array {
  const s = atob(b64);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

const FATE_WORD: Record<number, string> = { [FATE.dropped]: 'dropped', [FATE.folded]: 'folded into a marker', [FATE.kept]: 'kept' };

/** The grammar shown when nothing says which: one with rich recorded outputs (errors, frames, warnings). */
const DEFAULT_GRAMMAR = 'cargo';

export function GrammarEditor({ bridge, onClose, spoolId }: GrammarEditorProps) {
  const [list, setList] = useState<GrammarList>();
  const [opened, setOpened] = useState<Opened>();
  const [rawChoice, setRawChoice] = useState<RawChoice>();
  const [rawLines, setRawLines] = useState(0);
  const [result, setResult] = useState<Extract<Delivered, { ok: true }>>();
  const [problems, setProblems] = useState<PreviewProblem[]>([]);
  const [mustKeep, setMustKeepState] = useState<ReadonlySet<number>>(new Set());
  const [latency, setLatency] = useState<{ last: number; compute: number; samples: number[] }>();
  const [message, setMessage] = useState<{ kind: 'ok' | 'error'; text: string }>();
  const [target, setTarget] = useState<'project' | 'user'>('project');
  const [saveName, setSaveName] = useState('');
  const [dirty, setDirty] = useState(false);
  const [newForm, setNewForm] = useState<{ name: string; command: string }>();
  const [spoolInput, setSpoolInput] = useState(spoolId ?? '');

  const tomlHost = useRef<HTMLDivElement>(null);
  const rawHost = useRef<HTMLDivElement>(null);
  const outHost = useRef<HTMLDivElement>(null);
  const toml = useRef<EditorView>(undefined);
  const rawView = useRef<EditorView>(undefined);
  const outView = useRef<EditorView>(undefined);
  const runner = useRef<PreviewRunner>(undefined);
  const openedRef = useRef<Opened>(undefined);
  openedRef.current = opened;
  const resultRef = useRef<typeof result>(undefined);
  resultRef.current = result;
  const saveRef = useRef<() => void>(() => {});

  const docOf = useCallback((text: string): GrammarDoc | undefined => {
    const o = openedRef.current;
    return o ? { text, file: o.file, origin: o.origin, shared: o.shared } : undefined;
  }, []);

  // Views and worker: created once.
  useEffect(() => {
    runner.current = new PreviewRunner({
      onRaw: (display, lines) => {
        setText(rawView.current!, display);
        rawView.current!.dispatch({ effects: setMarks.of(undefined) });
        setRawLines(lines);
      },
      onResult: (r) => {
        if (!r.ok) {
          setProblems(r.problems);
          showProblems(toml.current!, r.problems);
          return;
        }
        setProblems([]);
        showProblems(toml.current!, []);
        setText(outView.current!, r.summary.replace(/\n$/, ''));
        const marks: RawMarks = { status: r.status, ruleOf: r.ruleOf, rules: r.rules, target: r.target };
        rawView.current!.dispatch({ effects: setMarks.of(marks) });
        setResult(r);
        // Keystroke → preview painted: measured at the next frame after the views updated.
        requestAnimationFrame(() => {
          const ms = performance.now() - r.keystrokeAt;
          setLatency((prev) => ({ last: ms, compute: r.computeMs, samples: [...(prev?.samples ?? []), ms].slice(-LATENCY_SAMPLES) }));
        });
      },
      onFailure: (text) => setMessage({ kind: 'error', text }),
    });
    toml.current = tomlEditor(
      tomlHost.current!,
      '',
      (text, at) => {
        setDirty(text !== openedRef.current?.savedText);
        const doc = docOf(text);
        if (doc) runner.current!.request(doc, at);
      },
      () => saveRef.current(),
    );
    rawView.current = rawViewer(
      rawHost.current!,
      (line) =>
        setMustKeepState((prev) => {
          const next = new Set(prev);
          if (next.has(line)) next.delete(line);
          else next.add(line);
          return next;
        }),
      (line) => {
        const t = resultRef.current?.target[line - 1];
        outView.current!.dispatch({ effects: setFocusLine.of(t !== undefined && t >= 0 ? t + 1 : undefined) });
        if (t !== undefined && t >= 0) {
          const pos = outView.current!.state.doc.line(Math.min(t + 1, outView.current!.state.doc.lines)).from;
          outView.current!.dispatch({ effects: EditorView.scrollIntoView(pos, { y: 'center' }) });
        }
      },
    );
    outView.current = summaryViewer(outHost.current!);
    return () => {
      runner.current?.dispose();
      toml.current?.destroy();
      rawView.current?.destroy();
      outView.current?.destroy();
    };
  }, [docOf]);

  useEffect(() => {
    rawView.current?.dispatch({ effects: setMustKeep.of(mustKeep) });
  }, [mustKeep]);

  const refreshList = useCallback(async () => {
    const l = await bridge.listGrammars({});
    setList(l);
    return l;
  }, [bridge]);

  const loadGrammar = useCallback(
    async (file: string) => {
      try {
        const g = await bridge.openGrammar({ file });
        const o: Opened = { name: g.name, origin: g.origin, file: g.file, shared: g.shared, savedText: g.text };
        openedRef.current = o;
        setOpened(o);
        setSaveName(g.name);
        setTarget(g.origin === 'user' ? 'user' : 'project');
        setDirty(false);
        const v = toml.current!;
        v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: g.text } });
        showProblems(v, g.problems);
        setProblems(g.problems);
        runner.current!.request({ text: g.text, file: g.file, origin: g.origin, shared: g.shared }, performance.now(), true);
      } catch (err) {
        setMessage({ kind: 'error', text: (err as Error).message });
      }
    },
    [bridge],
  );

  const useRaw = useCallback((choice: RawChoice) => {
    setRawChoice(choice);
    setMustKeepState(new Set());
    setResult(undefined);
    runner.current!.setRaw({ bytes: decodeBase64(choice.raw.data), argv: choice.raw.argv, exitCode: choice.raw.exitCode, durationMs: choice.raw.durationMs });
    const doc = docOf(toml.current!.state.doc.toString());
    if (doc) runner.current!.request(doc, performance.now(), true);
  }, [docOf]);

  const loadFixture = useCallback(
    async (name: string) => {
      try {
        const raw = await bridge.readGrammarFixture({ name });
        useRaw({ key: `fixture:${name}`, label: `fixture ${name}`, raw });
      } catch (err) {
        setMessage({ kind: 'error', text: (err as Error).message });
      }
    },
    [bridge, useRaw],
  );

  const loadSpool = useCallback(
    async (input: string) => {
      // `mish raw 1a2b3c4d` pasted from a reply works as well as the bare id.
      const id = input.trim().replace(/^mish raw\s+/, '');
      try {
        const raw = await bridge.readGrammarRaw({ spoolId: id });
        useRaw({ key: `spool:${id}`, label: `spool ${id}`, raw });
        return raw;
      } catch (err) {
        setMessage({ kind: 'error', text: (err as Error).message });
        return undefined;
      }
    },
    [bridge, useRaw],
  );

  // First load: the grammar list, then a sensible start: the spool given with the grammar named
  // like its command (`npm test` → npm), else a grammar with one of its recorded outputs (a
  // failing one first), so the preview shows something from the start.
  useEffect(() => {
    void (async () => {
      const l = await refreshList();
      const raw = spoolId ? await loadSpool(spoolId) : undefined;
      const usable = l.grammars.filter((g) => !g.overridden);
      const named = (word: string | undefined) => (word ? usable.find((g) => g.name === word.split('/').pop()) : undefined);
      const first = (raw && (named(raw.argv[0]) ?? named(raw.argv[1]))) ?? usable.find((g) => g.name === DEFAULT_GRAMMAR) ?? usable[0];
      if (first) await loadGrammar(first.file);
      if (!raw && first) {
        const mine = l.fixtures.filter((f) => f.tool === first.name);
        const fixture = mine.find((f) => f.exitCode !== 0) ?? mine[0];
        if (fixture) await loadFixture(fixture.name);
      }
    })().catch((err: Error) => setMessage({ kind: 'error', text: err.message }));
  }, [refreshList, loadGrammar, loadSpool, loadFixture, spoolId]);

  const save = useCallback(async () => {
    const o = openedRef.current;
    if (!o) return;
    const text = toml.current!.state.doc.toString();
    try {
      const r = await bridge.saveGrammar({ name: saveName || o.name, text, target });
      setMessage({ kind: 'ok', text: `saved ${r.file}${r.overrides ? ` (overrides ${r.overrides})` : ''}: the next mish command uses it` });
      const next: Opened = { name: saveName || o.name, origin: r.origin, file: r.file, shared: o.shared, savedText: text };
      openedRef.current = next;
      setOpened(next);
      setDirty(false);
      await refreshList();
    } catch (err) {
      setMessage({ kind: 'error', text: (err as Error).message });
    }
  }, [bridge, saveName, target, refreshList]);
  saveRef.current = () => void save();

  const createNew = useCallback(async () => {
    if (!newForm || !list) return;
    const argv = newForm.command.trim().split(/\s+/).filter(Boolean);
    try {
      const { text } = await bridge.grammarTemplate({ name: newForm.name, argv: argv.length ? argv : [newForm.name] });
      const file = `${list.dirs.project}/${newForm.name}.toml`;
      const shared = openedRef.current?.shared ?? {};
      const o: Opened = { name: newForm.name, origin: 'project', file, shared, savedText: '' };
      openedRef.current = o;
      setOpened(o);
      setSaveName(newForm.name);
      setTarget('project');
      setNewForm(undefined);
      const v = toml.current!;
      v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: text } });
      setDirty(true);
      runner.current!.request({ text, file, origin: 'project', shared }, performance.now(), true);
    } catch (err) {
      setMessage({ kind: 'error', text: (err as Error).message });
    }
  }, [bridge, newForm, list]);

  const misses = useMemo(() => {
    if (!result) return [];
    return [...mustKeep]
      .sort((a, b) => a - b)
      .filter((no) => result.status[no - 1] !== FATE.kept)
      .map((no) => ({ no, fate: result.status[no - 1] ?? FATE.dropped, rule: result.rules[result.ruleOf[no - 1] ?? 0] }));
  }, [result, mustKeep]);

  const counts = useMemo(() => {
    if (!result) return undefined;
    const c = [0, 0, 0];
    for (const s of result.status) c[s]++;
    return { dropped: c[FATE.dropped], kept: c[FATE.kept], folded: c[FATE.folded], shown: result.summary.split('\n').length - 1 };
  }, [result]);

  const grouped = useMemo(() => {
    const by: Record<string, GrammarFile[]> = { project: [], user: [], builtin: [] };
    for (const g of list?.grammars ?? []) by[g.origin].push(g);
    return by;
  }, [list]);

  const p50 = latency ? [...latency.samples].sort((a, b) => a - b)[Math.floor(latency.samples.length / 2)] : undefined;

  return (
    <div className="gx" role="dialog" aria-label="grammar editor">
      <header className="gx-bar">
        <strong className="gx-title">Grammar editor</strong>
        <label>
          grammar{' '}
          <select aria-label="grammar" value={opened?.file ?? ''} onChange={(e) => void loadGrammar(e.target.value)}>
            {!opened && <option value="">…</option>}
            {opened && !list?.grammars.some((g) => g.file === opened.file) && <option value={opened.file}>{opened.name} (new, unsaved)</option>}
            {(['project', 'user', 'builtin'] as const).map((origin) =>
              grouped[origin].length ? (
                <optgroup key={origin} label={origin === 'builtin' ? 'built-in' : origin}>
                  {grouped[origin].map((g) => (
                    <option key={g.file} value={g.file}>
                      {g.name}
                      {g.overridden ? ' (overridden)' : ''}
                    </option>
                  ))}
                </optgroup>
              ) : null,
            )}
          </select>
        </label>
        <button className="gx-btn" onClick={() => setNewForm({ name: '', command: rawChoice?.raw.command ?? '' })}>
          New…
        </button>
        <label>
          output{' '}
          <select aria-label="recorded output" value={rawChoice?.key.startsWith('fixture:') ? rawChoice.key.slice(8) : ''} onChange={(e) => e.target.value && void loadFixture(e.target.value)}>
            <option value="">{rawChoice && !rawChoice.key.startsWith('fixture:') ? rawChoice.label : 'pick a fixture…'}</option>
            {list?.fixtures.map((f) => (
              <option key={f.name} value={f.name}>
                {f.name} · {(f.bytes / 1024).toFixed(f.bytes < 10240 ? 1 : 0)} KB
              </option>
            ))}
          </select>
        </label>
        <form
          className="gx-spool"
          onSubmit={(e) => {
            e.preventDefault();
            if (spoolInput.trim()) void loadSpool(spoolInput);
          }}
        >
          <input aria-label="spool id" placeholder="spool id (mish raw …)" value={spoolInput} onChange={(e) => setSpoolInput(e.target.value)} size={16} />
          <button className="gx-btn" type="submit">
            Load
          </button>
        </form>
        <span className="gx-spacer" />
        <label>
          save to{' '}
          <select aria-label="save to" value={target} onChange={(e) => setTarget(e.target.value as 'project' | 'user')}>
            <option value="project">project (.mish/grammars)</option>
            <option value="user">user (~/.config/mish/grammars)</option>
          </select>
        </label>
        <input aria-label="grammar name" className="gx-name" value={saveName} onChange={(e) => setSaveName(e.target.value)} size={10} />
        <button className="gx-btn gx-primary" onClick={() => void save()} disabled={!opened} title="Save (Ctrl+S)">
          Save{dirty ? ' •' : ''}
        </button>
        {onClose && (
          <button className="gx-btn" onClick={onClose} aria-label="close grammar editor" title="Close (Esc)">
            ✕
          </button>
        )}
      </header>

      {newForm && (
        <form
          className="gx-new"
          onSubmit={(e) => {
            e.preventDefault();
            void createNew();
          }}
        >
          New grammar: name <input aria-label="new grammar name" value={newForm.name} onChange={(e) => setNewForm({ ...newForm, name: e.target.value })} size={12} required pattern="[A-Za-z0-9][A-Za-z0-9_.+\-]*" />
          detected by the command <input aria-label="new grammar command" value={newForm.command} onChange={(e) => setNewForm({ ...newForm, command: e.target.value })} size={30} placeholder="e.g. ./deploy.sh prod" />
          <button className="gx-btn gx-primary" type="submit">
            Create from template
          </button>
          <button className="gx-btn" type="button" onClick={() => setNewForm(undefined)}>
            Cancel
          </button>
        </form>
      )}

      <div className="gx-status" aria-live="polite">
        {opened && (
          <span>
            <b>{opened.name}</b> · {opened.origin === 'builtin' ? 'built-in (saving creates an override)' : opened.origin}
            {result && (result.detection.matched ? ` · detects ${rawChoice?.raw.command ?? ''}${result.detection.action ? ` (action ${result.detection.action})` : ''}` : ' · does not detect this command (applied anyway)')}
          </span>
        )}
        {counts && (
          <span className="gx-counts">
            <span className="gx-kept">✓ {counts.kept.toLocaleString('en-US')} kept</span> <span className="gx-folded">⋯ {counts.folded.toLocaleString('en-US')} folded</span>{' '}
            <span className="gx-dropped">✗ {counts.dropped.toLocaleString('en-US')} dropped</span> · {plural(rawLines, 'raw line')} → {plural(counts.shown, 'line')} shown
          </span>
        )}
        {latency && (
          <span className="gx-latency" data-latency-samples={latency.samples.map((x) => x.toFixed(1)).join(",")} data-latency-ms={latency.last.toFixed(1)} data-latency-p50-ms={p50?.toFixed(1)} data-compute-ms={latency.compute.toFixed(1)}>
            preview {Math.round(latency.last)} ms (worker {Math.round(latency.compute)} ms)
          </span>
        )}
        {rawChoice?.raw.truncated && <span className="gx-warn-text">raw output cut to its first {(rawChoice.raw.data.length * 0.75 / 1048576).toFixed(0)} MB</span>}
      </div>

      {misses.length > 0 && (
        <div className="gx-warning" role="alert">
          ⚠ {misses.length === 1 ? 'A must-keep line is' : `${misses.length} must-keep lines are`} no longer shown:{' '}
          {misses.slice(0, 5).map((m) => (
            <span key={m.no} className="gx-miss">
              line {m.no} {FATE_WORD[m.fate]}
              {m.rule ? ` (${m.rule})` : ''}
            </span>
          ))}
          {misses.length > 5 && <span> and {misses.length - 5} more</span>}
        </div>
      )}
      {problems.length > 0 && (
        <div className="gx-problems" role="status">
          {problems.slice(0, 4).map((p, i) => (
            <div key={i}>
              ✗ line {p.line ?? '?'}
              {p.rule ? ` · rule ${p.rule}` : ''}: {p.message}
            </div>
          ))}
          <div className="gx-note">the preview shows the last version that loaded</div>
        </div>
      )}
      {message && (
        <div className={`gx-message gx-${message.kind}`} role={message.kind === 'error' ? 'alert' : 'status'}>
          {message.text}{' '}
          <button className="gx-btn" onClick={() => setMessage(undefined)} aria-label="dismiss">
            ✕
          </button>
        </div>
      )}

      <div className="gx-panes">
        <section className="gx-pane">
          <h2>TOML {opened ? <span className="gx-file">{opened.file}</span> : null}</h2>
          <div className="gx-cm" ref={tomlHost} />
        </section>
        <section className="gx-pane">
          <h2>
            Raw {rawChoice ? <span className="gx-file">{rawChoice.label}: {rawChoice.raw.command}</span> : null}
            <span className="gx-legend">◇ click: must keep · ✓ kept · ⋯ folded · ✗ dropped</span>
          </h2>
          <div className="gx-cm gx-raw" ref={rawHost} />
        </section>
        <section className="gx-pane">
          <h2>Condensed (what the agent sees)</h2>
          <div className="gx-cm gx-out" ref={outHost} />
        </section>
      </div>
    </div>
  );
}
