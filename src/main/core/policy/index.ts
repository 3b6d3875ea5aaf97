/** The policy engine: rules from TOML layers, a pure decision on every command line. */
export { decide, POLICY_ERROR_RULE, type Policy, type PolicyDecision, type PolicyMatch, type PolicyLayer, type DecideContext } from './decide.js';
export { loadPolicy, builtinPolicy, userPolicyFile, projectPolicyFile, type PolicySources } from './load.js';
export { compilePolicyText, formatPolicyError, RANK, VERDICTS, stricter, type Verdict, type PolicyError } from './rules.js';
export { ShellInputGuard, isShellCommand, type TypedInput } from './shell-input.js';
