import type { Pack } from './types.js';

/** Package managers: the system's software removed, the source later installs trust redirected. */
export const packagesPack: Pack = {
  id: 'packages',
  description: "Package managers: removing system packages (apt/apt-get remove|purge|autoremove, dpkg -r/-P, rpm -e, yum/dnf remove, pacman -R, apk del, zypper rm, snap remove, flatpak uninstall, brew uninstall --ignore-dependencies) and pointing later installs at another registry or index (npm/yarn/pnpm config set registry, pip config set index-url, gem sources --add, cargo --index, git url.*.insteadOf). Installing, listing and removing a project's own dependencies stay allowed.",
  rules: String.raw`
[[rule]]
id = "system-package-remove"
reason = "removes system packages (the machine's software, and what depends on it)"
argv_any = '^(?:(?:apt|apt-get|aptitude) (?:\S+ )*(?:remove|purge|autoremove)(?= |$)|dpkg (?:\S+ )*(?:-r|-P|--remove|--purge)(?: |$)|rpm (?:\S+ )*-e(?: |$)|(?:yum|dnf|microdnf) (?:\S+ )*(?:remove|erase|autoremove)(?= |$)|pacman (?:\S+ )*-R[a-z]*(?: |$)|apk (?:\S+ )*del(?= |$)|zypper (?:\S+ )*(?:rm|remove)(?= |$)|snap remove\b|flatpak (?:\S+ )*uninstall\b|port (?:\S+ )*uninstall\b|brew (?:uninstall|remove|rm) (?:\S+ )*--ignore-dependencies\b)'

[[rule]]
id = "package-source-change"
reason = "points later package installs (or git fetches) at another registry or index: what they install then comes from there"
argv_any = '(?i)^(?:(?:npm|pnpm|yarn) config set (?:registry|npmRegistryServer|@[\w-]+:registry)\b|npm set registry\b|pip3? config (?:\S+ )*set (?:global|user|site|install)\.(?:extra-)?index-url\b|gem sources (?:\S+ )*(?:-a|--add)\b|cargo install (?:\S+ )*--index\b|git config (?:\S+ )*url\.\S+\.insteadof )'
`,
};
