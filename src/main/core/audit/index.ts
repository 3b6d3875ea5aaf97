/**
 * The audit log's public face: hosts and the operator code report events through an AuditSink
 * (AuditLog writes them; NO_AUDIT drops them); `mish audit verify` uses verifyAuditLog.
 */
export type { AuditActor, AuditDetail, AuditEvent, AuditHost, AuditKind, AuditRecord, AuditSink } from './types.js';
export { NO_AUDIT } from './types.js';
export { AuditLog, defaultAuditPath, readAuditRecords, type AuditLogOptions } from './audit-log.js';
export { verifyAuditLog, type AuditProblem, type AuditVerdict } from './verify.js';
