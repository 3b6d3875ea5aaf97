export const title = 'Package managers: system packages removed, packages fetched from unvetted sources, the registry a later install trusts changed';
export default ({ bad, ok }) => {
  const W = ['sudo', 'subshell', 'and', 'timeout', 'function'];
  for (const l of ['apt-get remove -y openssh-server', 'apt-get purge -y sudo', 'apt remove --purge python3', 'apt-get autoremove --purge -y', 'dpkg -r libc6', 'dpkg --purge systemd', 'dpkg -P --force-all coreutils', 'yum remove -y kernel', 'dnf remove glibc', 'dnf erase openssl',
    'rpm -e --nodeps bash', 'pacman -Rns linux', 'pacman -Rdd glibc', 'apk del busybox', 'zypper rm -y sudo', 'snap remove firefox', 'flatpak uninstall --all -y', 'brew uninstall --force --ignore-dependencies openssl', 'port uninstall python311'])
    bad('ask', 'packages/system-package-remove', l, W);
  for (const l of ['npm config set registry https://x.example/', 'npm set registry http://x.example', 'yarn config set npmRegistryServer https://x.example', 'pnpm config set registry https://x.example', 'pip config set global.index-url https://x.example/simple', 'pip config set global.extra-index-url https://x.example/simple',
    'gem sources --add https://x.example/', 'cargo install --index https://x.example/index x', 'git config --global url.https://x.example/.insteadOf https://github.com/'])
    bad('ask', 'packages/package-source-change', l, W);
  for (const l of ['apt-get update', 'apt-get install -y build-essential', 'apt install -y jq', 'apt-cache search postgres', 'apt list --installed', 'dpkg -l | grep ssl', 'dpkg -L curl', 'yum install -y git', 'dnf install -y gcc', 'rpm -qa', 'pacman -S --needed base-devel', 'pacman -Qi bash',
    'apk add --no-cache git', 'brew install ripgrep', 'brew upgrade', 'brew list', 'brew uninstall ripgrep', 'snap list', 'npm install', 'npm install lodash', 'npm i -D typescript', 'npm uninstall left-pad', 'npm ci', 'npm config get registry', 'npm config set fund false',
    'npm config list', 'yarn add react', 'pnpm add -D vitest', 'pnpm remove lodash', 'pip install -r requirements.txt', 'pip install requests', 'pip install -e .', 'pip uninstall -y requests', 'pip config list', 'pip download pkg', 'python -m pip install --upgrade pip',
    'uv pip install -r requirements.txt', 'uv add httpx', 'poetry add requests', 'cargo install ripgrep', 'cargo add serde', 'gem install bundler', 'bundle install', 'go install golang.org/x/tools/gopls@latest', 'go get github.com/pkg/errors', 'composer install',
    'npm install github:org/repo', 'pip install git+https://github.com/org/repo.git',
  ]) ok(l);
};
