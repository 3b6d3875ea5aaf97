/** A request a view made that cannot be answered: its message goes back to the view as is (one line). */
export class RequestError extends Error {}

/** The value of a parse result, or a RequestError with its message. */
export function unwrap<T>(r: { ok: true; value: T } | { ok: false; error: string }): T {
  if (!r.ok) throw new RequestError(r.error);
  return r.value;
}
