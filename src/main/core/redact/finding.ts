/** One secret found in a text: [start, end) in UTF-16 units, and what kind it is (`github token`). */
export interface SecretFinding {
  start: number;
  end: number;
  kind: string;
  /** Found by its context (a password after `-p`), not its shape: remembered for the session, as its shape will not find it again. */
  byContext?: boolean;
}

/**
 * The kind of a secret found in base64: `base64 <kind>`, said once (a docker config's base64 holding an `auth` that is base64
 * itself read `base64 base64 basic auth credential`: pass 135).
 */
export function base64Kind(kind: string): string {
  return kind.startsWith('base64 ') ? kind : `base64 ${kind}`;
}
