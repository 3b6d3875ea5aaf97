/**
 * What `mish hook` loads only for an escalated or refused call: the operator wire and the audit
 * log. A bundle entry of its own (dist/hook-escalation.mjs), so the allowed path's dist/hook.cjs
 * stays small.
 */
export { askOperator } from './hook-operator.js';
export { createHookAudit } from './hook-audit.js';
