import type { Pack } from './types.js';

/** The running system: power, every process, the firewall, scheduled jobs. */
export const systemPack: Pack = {
  id: 'system',
  description: 'The running system: kill of every process (kill -s KILL -1, kill -9 -1, with the signal given any way; kill -1 PID is SIGHUP to one process and stays allowed), firewall flush, crontab -r, sysctl writes, swapoff -a, mount over system folders.',
  rules: String.raw`
[[rule]]
id = "kill-every-process"
reason = "pid -1 is every process the user may signal"
commands = ["kill"]
argv_any = '^kill (?:-- |-[sn] \S+ (?:-- )?|-\S+ (?:-- )?)(?:\S+ )*-1(?: |$)'

[[rule]]
id = "firewall-flush"
reason = "flushes or disables the firewall"
argv_any = '^(?:ip6?tables(?:-legacy|-nft)? (?:\S+ )*(?:-F|--flush|-X|--delete-chain|-P INPUT ACCEPT)|nft (?:flush ruleset|delete table)|ufw (?:disable|reset)|firewall-cmd (?:\S+ )*--panic-off|pfctl -d|systemctl (?:stop|disable|mask) (?:firewalld|ufw|nftables|iptables))'

[[rule]]
id = "sysctl-write"
reason = "changes a kernel setting"
commands = ["sysctl"]
flags_any = ["-w", "--write", "-p", "--load", "--system"]

[[rule]]
id = "swap-off"
reason = "turns swap off for the whole system"
commands = ["swapoff"]

[[rule]]
id = "mount-over-system"
reason = "mounts over a system folder"
commands = ["mount"]
targets_any = '^(?:/|/etc|/usr|/bin|/sbin|/lib|/lib64|/boot|/home|/root|/var)$'
`,
};
