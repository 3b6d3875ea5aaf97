export const title = 'Permissions and attributes: system and credential files opened to others, setuid bits, ownership of system trees, ACLs, immutable flags';
export default ({ bad, ok }) => {
  const W = ['sudo', 'sh -c', 'subshell', 'and', 'function'];
  for (const l of ['chmod -R 777 /', 'chmod -R 777 ~', 'chmod -R 777 .', 'chmod -R a+rwx /var/www', 'chmod -R o+w ~/projects', 'chmod --recursive 666 src']) bad('ask', 'chmod-777-recursive', l, W);
  for (const l of ['chown -R me /', 'chown -R nobody:nogroup /etc', 'chgrp -R users /usr', 'chmod -R 700 /etc', 'chown -R www-data ~', 'chmod -R g-rwx ~/.ssh']) bad('ask', 'chown-recursive-root', l, W);
  for (const l of ['chmod u+s /bin/bash', 'chmod 4755 /usr/bin/python3', 'chmod +s ./rootshell', 'chmod g+s /usr/bin/find', 'chmod 6755 /tmp/sh']) bad('ask', 'setuid', l, W);
  bad('ask', 'setuid-install', 'install -m 4755 sh /usr/local/bin/rsh', W);
  for (const l of ['chmod 777 /etc/passwd', 'chmod o+w /etc/hosts', 'chmod 000 /', 'chmod 666 /dev/sda', 'chmod a+w /usr/local/bin']) bad('ask', 'chmod-world-writable-system', l, W);
  for (const l of ['chown me /etc/hosts', 'chown root:root /tmp/../usr/bin/x', 'chgrp staff /var/log']) bad('ask', 'chown-system-path', l, W);
  for (const l of ['chmod 644 /etc/shadow', 'chmod 640 /etc/sudoers', 'chmod 755 /root', 'setfacl -m u:me:r /etc/shadow']) bad('ask', 'permissions/chmod-privilege-file', l, W);
  for (const l of ['chmod 644 ~/.ssh/id_rsa', 'chmod 755 ~/.ssh', 'chmod go+r ~/.aws/credentials', 'chmod a+r ~/.gnupg/private-keys-v1.d/x.key', 'chmod 664 ~/.kube/config', 'chmod o+rx ~/.password-store']) bad('ask', 'permissions/chmod-credential-open', l, W);
  for (const l of ['setfacl -R -m u:x:rwx /', 'setfacl -R -m o::rwx ~', 'setfacl -b /srv/data', 'setfacl -k /var/www']) bad('ask', 'permissions/setfacl-recursive', l, W);
  for (const l of ['chattr +i /etc/resolv.conf', 'chattr +i ~/.bashrc']) bad('ask', l.includes('/etc') ? 'write-system-file' : 'write-startup-file', l, W);
  for (const l of ['chattr +a ~/notes.txt', 'chattr -R +i ~/projects', 'chattr +i /opt/app/config.yml']) bad('ask', 'permissions/chattr-outside-project', l, W);

  for (const l of ['chmod 600 ~/.ssh/id_rsa', 'chmod 700 ~/.ssh', 'chmod 644 ~/.ssh/id_rsa.pub', 'chmod 644 ~/.ssh/known_hosts', 'chmod 400 key.pem', 'chmod +x scripts/build.sh', 'chmod -R u+w node_modules', 'chmod -R 755 dist', 'chmod 755 bin/cli', 'chmod -R go-w .',
    'chown -R me:me ./data', 'chown me file.txt', 'chown -R node:node /app', 'chgrp -R www-data public', 'chmod g+w shared.txt', 'chmod u+x deploy.sh', 'chmod 644 README.md', 'chmod -R a+rX public/', 'setfacl -m u:www-data:rx uploads', 'getfacl /srv/data',
    'chattr +i src/generated.ts', 'lsattr ~/.bashrc', 'stat -c %a ~/.ssh', 'ls -l /etc/shadow', 'namei -l /var/www/app', 'umask 022', 'install -m 755 build/app dist/app', 'install -m 644 app.conf ./etc/', 'chmod 600 .env', 'chmod 0644 package.json',
  ]) ok(l);
};
