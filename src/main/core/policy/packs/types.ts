/** A rule pack: one domain an agent can damage, its rules in the policy file format (docs/policy.md). */
export interface Pack {
  /** Short name; a decision by one of its rules is named `PACK/RULE`. */
  id: string;
  /** What the domain is and what the pack decides statically. */
  description: string;
  /** `[[rule]]` tables, ids without the pack prefix. */
  rules: string;
}
