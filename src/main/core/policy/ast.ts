/** Helpers over unbash's AST: generic child walking (lazy getters included) and word facts. */

export type Node = Record<string, unknown> & { type?: string; pos?: number; end?: number };

export const getterCache = new Map<object, string[]>();
/** Own enumerable keys and the prototype's getters (unbash builds substitution scripts lazily). */
export function childKeys(n: object): string[] {
  const proto = Object.getPrototypeOf(n) as object | null;
  let getters: string[] = [];
  if (proto && proto !== Object.prototype) {
    const cached = getterCache.get(proto);
    if (cached) getters = cached;
    else {
      const d = Object.getOwnPropertyDescriptors(proto);
      getters = Object.keys(d).filter((k) => typeof d[k].get === 'function' && k !== '__proto__');
      getterCache.set(proto, getters);
    }
  }
  return [...Object.keys(n), ...getters];
}

export function isLiteralPart(p: Node): boolean {
  switch (p.type) {
    case 'Literal':
    case 'SingleQuoted':
    case 'AnsiCQuoted':
    case 'BraceExpansion':
      return true;
    case 'DoubleQuoted':
      return ((p.parts as Node[]) ?? []).every((c) => c.type === 'Literal');
    default:
      return false;
  }
}

export function wordInfo(w: Node): { value: string; literal: boolean; glob: boolean; raw: string } {
  const parts = w.parts as Node[] | undefined;
  const value = String(w.value ?? w.text ?? '');
  const raw = String(w.text ?? value);
  if (!parts) return { value, literal: true, glob: false, raw };
  return {
    value,
    literal: parts.every(isLiteralPart),
    glob: parts.some((p) => p.type === 'Glob' || p.type === 'ExtendedGlob' || p.type === 'BracketGlob' || p.type === 'StarGlob' || p.type === 'QuestionGlob'),
    raw,
  };
}
