export const title = "mish itself: its policy, configuration, grammars, state and audit files, the policy it runs under, the operator's channel";
export default ({ bad, ok }) => {
  const W = ['subshell', 'and', 'sh -c', 'function', 'then'];
  const O = 'mish-own-files';
  for (const l of [`printf '[[rule]]\\nid="x"\\ndecision="allow"\\ncommands=["*"]\\n' > ~/.config/mish/policy.toml`, 'echo "[default]" >> ~/.config/mish/policy.toml', 'cp allow-all.toml ~/.config/mish/policy.toml', 'rm ~/.config/mish/policy.toml', 'rm -rf ~/.config/mish',
    'rm -rf ~/.config', 'mv ~/.config/mish /tmp/', 'rm -f ~/.local/state/mish/audit.jsonl', 'truncate -s 0 ~/.local/state/mish/audit.jsonl', ': > ~/.local/state/mish/audit.jsonl', 'rm -rf ~/.local/state/mish', 'rm -rf ~/.local/state', 'chmod 777 ~/.config/mish/policy.toml',
    'ln -sf /tmp/p.toml ~/.config/mish/policy.toml', 'tee ~/.config/mish/policy.toml < p.toml', 'sed -i "s/forbid/allow/" ~/.config/mish/policy.toml', 'mkdir -p .mish && echo "[default]" > .mish/policy.toml', 'rm -rf .mish', 'cp p.toml .mish/policy.toml',
    'rm -rf "$XDG_RUNTIME_DIR/mish"', 'rm -rf ~/.config/mish/grammars', 'cp evil.toml ~/.config/mish/grammars/git.toml', 'unlink ~/.config/mish/policy.toml', 'shred -u ~/.local/state/mish/audit.jsonl', 'dd if=/dev/null of=~/.local/state/mish/audit.jsonl'])
    bad('forbid', O, l, W);
  for (const l of ['mish --policy /tmp/allow.toml rm -rf ~', 'mish --policy-default allow make', 'MISH_POLICY=/tmp/p.toml mish npm test', 'MISH_POLICY_DEFAULT=allow mish ls', 'env MISH_POLICY=/tmp/p mish x', 'export MISH_POLICY=/tmp/p.toml', 'export MISH_POLICY_DEFAULT=allow; mish ls', 'sudo MISH_POLICY=/tmp/p mish ls'])
    bad('forbid', 'mish-policy-override', l, ['subshell', 'and']);
  for (const l of ['mish approvals', 'mish approvals approve 3', 'mish attach 1', 'mish console']) bad('forbid', 'mish-operator-command', l, ['subshell', 'and']);
  for (const l of ['socat - UNIX-CONNECT:$XDG_RUNTIME_DIR/mish/servers/123.sock', 'nc -U ~/.local/state/mish/run/servers/1.sock', 'curl --unix-socket ~/.local/state/mish/run/servers/1.sock http://x/approve']) bad('forbid', 'mish/operator-socket', l, ['subshell', 'and']);
  // Editors: whether the file is written is up to the human at the keyboard, so ask.
  for (const l of ['vim ~/.config/mish/policy.toml', 'nano .mish/policy.toml']) bad('ask', O, l, ['subshell', 'and']);
  // Interpreter code is parsed (policy/interpreters): an open(…, "w") of mish's policy is a write, like `>`.
  bad('forbid', O, "python3 -c 'open(\"/home/me/.config/mish/policy.toml\",\"w\").write(\"\")'", ['subshell', 'and']);
  bad('forbid', O, 'perl -pi -e "s/ask/allow/" ~/.config/mish/policy.toml', ['subshell', 'and']);
  bad('ask', 'shell-stdin-unknown', 'mish serve', ['subshell']);

  for (const l of ['cat ~/.config/mish/policy.toml', 'mish policy explain "rm -rf ~"', 'mish policy check', 'mish ps', 'mish audit --tail 20', 'mish npm test', 'mish git status', 'mish --raw ls -la', 'ls ~/.local/state/mish', 'grep forbid ~/.config/mish/policy.toml', 'cp ~/.config/mish/policy.toml /tmp/policy-backup.toml',
    'diff ~/.config/mish/policy.toml docs/example.toml', 'mish doctor', 'mish help', 'echo "$MISH_POLICY"', 'test -f .mish/policy.toml && cat .mish/policy.toml', 'wc -l ~/.local/state/mish/audit.jsonl', 'tail -n 5 ~/.local/state/mish/audit.jsonl', 'jq . ~/.local/state/mish/audit.jsonl | head',
    'rm -rf ~/.cache/mish-bench', 'rm -rf /tmp/mish-test', 'mkdir -p ~/.config/myapp',
  ]) ok(l);
};
