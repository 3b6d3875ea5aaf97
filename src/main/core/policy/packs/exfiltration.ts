import type { Pack } from './types.js';

/** Data leaving the machine: credentials, the environment, the repository to somewhere new. */
export const exfiltrationPack: Pack = {
  id: 'exfiltration',
  description: 'Credential files and the environment sent over the network (curl/wget/nc/scp/rsync/interpreters: engine facts secret-upload / env-upload), the repository pushed to a remote named by URL. Uploading an ordinary file (a report, a build) stays allowed; credential files are the built-in secret-upload fact.',
  rules: String.raw`
[[rule]]
id = "git-push-url"
reason = "git push to a URL (not a configured remote): the repository leaves for a place nobody set up"
commands = ["git"]
subcommand = ["push"]
args_any = '^(?:[a-z][a-z0-9+.-]*://|[^/\s:]+@[^/\s:]+:)'

[[rule]]
id = "git-remote-add-push"
reason = "adds or repoints a remote (a later push sends the repository there)"
commands = ["git"]
subcommand = ["remote add|set-url"]

`,
};
