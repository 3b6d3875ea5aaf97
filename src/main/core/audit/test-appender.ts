/** Test helper run as a child process: appends `count` records to the audit log at `path` (concurrency tests). */
import { AuditLog } from './audit-log.js';

const [log, count, tag] = process.argv.slice(2);
const audit = new AuditLog({ path: log, onError: (m) => process.stderr.write(`${m}\n`) });
for (let i = 0; i < Number(count); i++) audit.record({ kind: 'command', by: 'agent', host: 'cli', command: `echo ${tag} ${i}`, exitCode: 0 });
await audit.flush();
