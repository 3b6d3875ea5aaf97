/**
 * Whether keys pressed with the focus on `el` are typed somewhere: an input, a text area or
 * editable text, but not the text area xterm keeps focused in a terminal that only shows (keys
 * there are the console's shortcuts); a terminal the operator holds takes every key.
 */
export function typesIntoField(el: Element | null): boolean {
  const t = el as HTMLElement | null;
  if (!t || !(t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.isContentEditable)) return false;
  const terminal = t.closest('.terminal');
  return !terminal || terminal.getAttribute('data-typing') === 'true';
}
