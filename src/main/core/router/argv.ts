/**
 * Reading an argv the way most commands do, shared by the router (categories, narration) and the
 * policy engine (rule matching), which must agree on what a positional argument is.
 */

/** Positional arguments (not flags, not values of `valueFlags`), after `--` all are positional. */
export function positionals(args: readonly string[], valueFlags: readonly string[] = []): string[] {
  const out: string[] = [];
  let rest = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (rest) out.push(a);
    else if (a === '--') rest = true;
    else if (a.startsWith('-') && a.length > 1) {
      if (valueFlags.includes(a)) i++;
    } else out.push(a);
  }
  return out;
}
