import type { Pack } from './types.js';

/** Permissions and attributes of system and credential files. */
export const permissionsPack: Pack = {
  id: 'permissions',
  description: 'Permissions and attributes: chmod / chown of privilege files (/etc/shadow, sudoers), chmod that opens ~/.ssh, ~/.gnupg, ~/.aws to others, setfacl -R or on system folders, chattr (immutable / append-only) outside the project.',
  rules: String.raw`
[[rule]]
id = "chmod-privilege-file"
reason = "changes who may read or write a system credential or privilege file"
commands = ["chmod", "chown", "chgrp", "setfacl"]
targets_any = '^(?:/etc/(?:shadow|gshadow|passwd|group|sudoers(?:\.d/.*)?)|/root(?:/.*)?)$'

[[rule]]
id = "chmod-credential-open"
reason = "opens the user's keys or credentials to other users (chmod 600 / 700 stay allowed)"
commands = ["chmod"]
args_any = '^(?:0?[0-7]?[0-7](?:[1-7][0-7]|[0-7][1-7])|[ugoa]*[goa][ugoa]*[+=][rwxXst]+|\+[rwxXst]+)$'
targets_any = '^~/\.(?:ssh|gnupg|aws|kube|docker|password-store)(?:/(?![^/]*\.pub$)(?!known_hosts$).*)?$'

[[rule]]
id = "setfacl-recursive"
reason = "setfacl -R changes access to a whole tree"
commands = ["setfacl"]
flags_any = ["-R", "--recursive", "-b", "--remove-all", "-k"]

[[rule]]
id = "chattr-outside-project"
reason = "chattr sets immutable / append-only attributes (even root cannot then change or delete the file)"
commands = ["chattr"]
# As written: a relative path is in the project (normalised it would be absolute like the rest).
args_any = '^(?:/|~|\$\{?HOME\b|\.\./)'

`,
};
