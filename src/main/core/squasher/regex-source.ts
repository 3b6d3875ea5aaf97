/**
 * Reading a RegExp's source by its brackets: where a class or a group closes, its top-level
 * branches. Shared by the prefilter's readers (needles, anchored combinations) and line leads.
 */

/** Index of the `]` closing the class opened at `open`, or -1. */
export function skipClass(src: string, open: number): number {
  for (let i = open + 1; i < src.length; i++) {
    if (src[i] === '\\') i++;
    else if (src[i] === ']') return i;
  }
  return -1;
}

/** Index of the `)` closing the group opened at `open` (classes and escapes respected), or -1. */
export function skipGroup(src: string, open: number): number {
  let depth = 0;
  for (let i = open; i < src.length; i++) {
    const c = src[i];
    if (c === '\\') i++;
    else if (c === '[') {
      i = skipClass(src, i);
      if (i < 0) return -1;
    } else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i;
  }
  return -1;
}

/** The top-level `|`-separated branches of a source (classes, groups and escapes respected); undefined if malformed. */
export function topLevelBranches(src: string): string[] | undefined {
  const out: string[] = [];
  let from = 0;
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (c === '\\') i++;
    else if (c === '[') {
      i = skipClass(src, i);
      if (i < 0) return undefined;
    } else if (c === '(') {
      i = skipGroup(src, i);
      if (i < 0) return undefined;
    } else if (c === '|') {
      out.push(src.slice(from, i));
      from = i + 1;
    }
  }
  out.push(src.slice(from));
  return out;
}
