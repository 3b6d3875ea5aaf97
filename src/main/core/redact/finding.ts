/** One secret found in a text: [start, end) in UTF-16 units, and what kind it is (`github token`). */
export interface SecretFinding {
  start: number;
  end: number;
  kind: string;
  /** Found by its context (a password after `-p`), not its shape: remembered for the session, as its shape will not find it again. */
  byContext?: boolean;
}
