export const title = 'The running system: power, every process, the firewall, kernel settings, swap, mounts, user accounts';
export default ({ bad, ok }) => {
  const W = ['sudo', 'sh -c', 'subshell', 'and', 'timeout', 'function'];
  for (const l of ['shutdown -h now', 'shutdown -r +1', 'reboot', 'halt', 'poweroff', 'kexec -e']) bad('ask', 'system-power', l, W);
  for (const l of ['systemctl reboot', 'systemctl poweroff', 'systemctl halt', 'systemctl isolate rescue.target', 'systemctl rescue', 'systemctl suspend', 'loginctl terminate-session 2', 'systemctl emergency']) bad('ask', 'systemctl-power', l, W);
  for (const l of ['systemctl start reboot.target', 'systemctl set-default rescue.target', 'systemctl start poweroff.target']) bad('ask', 'systemctl-power-target', l, W);
  for (const l of ['init 0', 'init 6', 'telinit 1']) bad('ask', 'init-runlevel', l, W);
  for (const l of ['kill -9 -1', 'kill -s KILL -1', 'kill -KILL -1', 'kill -- -1', 'kill -n 9 -1', 'kill -9 1', 'killall5 -9', 'pkill -u root', 'pkill -9 .', 'killall -9 sshd', 'killall systemd']) bad('ask', 'kill-all', l, W);
  for (const l of ['iptables -F', 'iptables -P INPUT ACCEPT -F', 'ip6tables --flush', 'iptables -X', 'nft flush ruleset', 'ufw disable', 'ufw reset']) bad('ask', 'firewall-off', l, W);
  for (const l of ['systemctl stop firewalld', 'systemctl disable ufw', 'nft delete table inet filter', 'pfctl -d']) bad('ask', 'system/firewall-flush', l, W);
  for (const l of ['sysctl -w kernel.randomize_va_space=0', 'sysctl -w net.ipv4.ip_forward=1', 'sysctl -p /tmp/evil.conf', 'sysctl --system']) bad('ask', 'system/sysctl-write', l, W);
  for (const l of ['swapoff -a', 'swapoff /swapfile']) bad('ask', 'system/swap-off', l, W);
  for (const l of ['mount --bind /tmp/x /etc', 'mount -t tmpfs none /usr', 'mount /dev/sdb1 /home']) bad('ask', 'system/mount-over-system', l, W);
  bad('ask', 'sysrq', 'echo b > /proc/sysrq-trigger', W);
  bad('ask', 'write-system-file', 'echo 1 > /proc/sys/kernel/sysrq', W);
  for (const l of ['userdel -r bob', 'usermod -aG sudo attacker', 'useradd -o -u 0 backdoor', 'passwd root', 'echo "root:x" | chpasswd', 'visudo', 'groupdel developers', 'deluser bob sudo', 'gpasswd -a me docker']) bad('ask', 'user-admin', l, W);
  bad('ask', 'fork-bomb', ':(){ :|:& };:', ['subshell']);
  bad('ask', 'fork-bomb', 'bomb() { bomb | bomb & }; bomb', ['subshell']);

  for (const l of ['kill -1 1234', 'kill -HUP 1234', 'kill -9 1234', 'kill %1', 'kill $(cat server.pid)', 'kill -TERM 4321 4322', 'pkill -f "node server.js"', 'pkill -9 -f vite', 'killall node', 'killall -9 chrome', 'shutdown -c', 'systemctl status rescue.target',
    'systemctl list-dependencies reboot.target', 'systemctl status nginx', 'systemctl restart nginx', 'systemctl reload nginx', 'systemctl is-active docker', 'systemctl daemon-reload', 'iptables -L -n', 'iptables -S', 'nft list ruleset', 'ufw status verbose',
    'ufw allow 22/tcp', 'sysctl kernel.hostname', 'sysctl -a | grep vm.swappiness', 'swapon --show', 'free -h', 'mount | grep /home', 'mount -t tmpfs tmpfs /tmp/ramdisk', 'mount /dev/sdb1 /mnt/usb', 'umount /mnt/usb', 'cat /proc/sys/kernel/sysrq',
    'id', 'whoami', 'groups', 'getent passwd me', 'last -n 5', 'uptime', 'ps aux | grep node', 'top -b -n 1', 'htop', 'journalctl -u nginx -n 100', 'dmesg | tail', 'lsof -i :3000', 'ss -tlnp', 'nproc',
  ]) ok(l);
};
