/**
 * Commands whose whole output is a credential (secret-printers.ts): which command lines are
 * such printers (wrappers, `cd … &&`, pipelines that decode), which are not (their output is
 * text the scanner reads, redirected to a file, counted, captured by `$(…)`), and what a
 * printer's output line is taken for: one word is the value; a message is a message.
 */
import { describe, expect, it } from 'vitest';
import { printedValue, secretPrinterOf } from './secret-printers.js';
import { Redactor } from './redactor.js';

const printers: [string, string][] = [
  ['gh auth token', 'token printed by gh auth token'],
  // Adversary pass 15: a decrypting getter behind a package runner, Django's generator.
  ['npx dotenvx get SESSION_SECRET -f .env.production', '$SESSION_SECRET value printed by dotenvx get'],
  ["python -c 'from django.core.management.utils import get_random_secret_key; print(get_random_secret_key())'", 'secret printed by python get_random_secret_key()'],
  ['aws configure get aws_secret_access_key', 'secret printed by aws configure get'],
  ['aws configure get aws_session_token --profile prod', 'secret printed by aws configure get'],
  ['aws ecr get-login-password --region eu-west-1', 'password printed by aws ecr get-login-password'],
  ['aws secretsmanager get-secret-value --secret-id prod/db --query SecretString --output text', 'secret printed by aws secretsmanager get-secret-value'],
  ['npm config get //registry.npmjs.org/:_authToken', 'token printed by npm config get'],
  ['gcloud auth print-access-token', 'token printed by gcloud auth print-access-token'],
  ['gcloud auth application-default print-access-token', 'token printed by gcloud auth application-default print-access-token'],
  ['gcloud secrets versions access latest --secret=db-password', 'secret printed by gcloud secrets versions access'],
  ['az account get-access-token --query accessToken -o tsv', 'token printed by az account get-access-token'],
  ['az keyvault secret show --vault-name kv --name db --query value --output tsv', 'secret printed by az keyvault secret show'],
  ['heroku auth:token', 'token printed by heroku auth:token'],
  ['vault read -field=password secret/db', 'secret printed by vault read -field'],
  ['vault kv get -field=api_key kv/app', 'secret printed by vault kv -field'],
  ['vault print token', 'token printed by vault print token'],
  ["kubectl get secret db -o jsonpath='{.data.password}' | base64 -d", 'secret printed by kubectl get secret'],
  ["kubectl get secret db -o jsonpath='{.data.password}'", 'secret printed by kubectl get secret'],
  ['kubectl -n prod get secrets/db --output=go-template={{.data.token}} | base64 --decode', 'secret printed by kubectl get secret'],
  ['pass show prod/db', 'password printed by pass show'],
  ['pass prod/db | head -n1', 'password printed by pass show'],
  ['op read op://vault/db/password', 'secret printed by op read'],
  ['security find-generic-password -s github -w', 'password printed by security find-generic-password -w'],
  ['secret-tool lookup service github', 'secret printed by secret-tool lookup'],
  ['bw get password github.com', 'password printed by bw get password'],
  ['doppler secrets get DB_URL --plain', 'secret printed by doppler secrets get --plain'],
  ['terraform output -raw db_password', 'secret printed by terraform output -raw'],
  ['printenv GITHUB_TOKEN', '$GITHUB_TOKEN value printed by printenv'],
  ['sudo -E vault read -field=password secret/db', 'secret printed by vault read -field'],
  ['cd infra && gh auth token', 'token printed by gh auth token'],
  ['gh auth token | tr -d "\\n"', 'token printed by gh auth token'],
  // Through a transform (the adversary pass's M08-M10): the printer holds through any stage but a reducer.
  ['aws configure get aws_secret_access_key | rev', 'secret printed by aws configure get'],
  ["gh auth token | xxd -p | tr -d '\\n'; echo", 'token printed by gh auth token'],
  ["aws configure get aws_secret_access_key | sed 's/./& /g'", 'secret printed by aws configure get'],
  ['gh auth token | base32', 'token printed by gh auth token'],
  ['gh auth token | od -c', 'token printed by gh auth token'],
  ['gh auth token | tr a-z A-Z', 'token printed by gh auth token'],
  ["gh auth token | perl -pe 's/(.)/ord($1).\",\"/ge'", 'token printed by gh auth token'],
  ['gh auth token 2>/dev/null', 'token printed by gh auth token'],
  ['gh auth token | tee /tmp/t', 'token printed by gh auth token'],
  // aws and kubectl forms the table missed (M11, M12).
  ['aws sts get-session-token --query Credentials.SecretAccessKey --output text', 'secret printed by aws sts get-session-token'],
  ['aws sts assume-role --role-arn arn:aws:iam::1:role/x --role-session-name s --output text', 'secret printed by aws sts assume-role'],
  ['aws ssm get-parameter --name /db --with-decryption --query Parameter.Value --output text', 'secret printed by aws ssm get-parameter'],
  ['aws ecr get-login-password', 'password printed by aws ecr get-login-password'],
  ["kubectl config view --raw -o jsonpath='{.users[0].user.token}'", 'credential printed by kubectl config view --raw'],
  ["kubectl config view --raw -o go-template='{{(index .users 0).user.token}}'", 'credential printed by kubectl config view --raw'],
  ['kubectl create token default -n prod', 'token printed by kubectl create token'],
  // The third adversary pass (adv3 M01-M24).
  ['heroku config:get SECRET_KEY_BASE -a app', 'secret printed by heroku config:get'],
  ['pulumi config get dbPassword', 'secret printed by pulumi config get'],
  ['pulumi stack output dbConn --show-secrets', 'secret printed by pulumi stack output --show-secrets'],
  [`sops -d --extract '["db"]["password"]' secrets.enc.yaml`, 'secret printed by sops --extract'],
  [`sops decrypt --extract '["api"]' s.yaml`, 'secret printed by sops --extract'],
  ['aws kms decrypt --ciphertext-blob fileb://s.bin --query Plaintext --output text | base64 -d; echo', 'secret printed by aws kms decrypt'],
  ["aws ssm get-parameters-by-path --path /app --with-decryption --query 'Parameters[].Value' --output text", 'secret printed by aws ssm get-parameters-by-path'],
  ['aws iam create-access-key --user-name bot --output text', 'secret printed by aws iam create-access-key'],
  ['az storage account keys list -n acct -o tsv', 'key printed by az storage account keys list'],
  ['az cosmosdb keys list -n db -g rg --output table', 'key printed by az cosmosdb keys list'],
  ['kubeadm token create', 'token printed by kubeadm token create'],
  ['docker swarm join-token -q worker', 'token printed by docker swarm join-token -q'],
  ['argocd admin initial-password -n argocd', 'password printed by argocd admin initial-password'],
  ['keepassxc-cli show -s -a Password vault.kdbx github', 'password printed by keepassxc-cli show -s'],
  ['nmcli -s -g 802-11-wireless-security.psk connection show HomeNet', 'password printed by nmcli -s -g'],
  ['git config --get sendemail.smtppass', 'password printed by git config --get'],
  ['git config --global credential.helper.password', 'password printed by git config --get'],
  ['php artisan key:generate --show', 'key printed by php artisan key:generate --show'],
  ['sudo cat /etc/ppp/chap-secrets', 'secret printed by cat ppp secrets'],
  ['tail -n 3 pap-secrets', 'secret printed by tail ppp secrets'],
  // The fourth adversary pass (adv4 M01-M24, extra forms).
  ['docker swarm unlock-key -q', 'key printed by docker swarm unlock-key'],
  ['consul keygen', 'key printed by consul keygen'],
  ['consul kv get app/db_password', 'secret printed by consul kv get'],
  ['wg show wg0 private-key', 'key printed by wg show private-key'],
  ['wg genkey', 'key printed by wg genkey'],
  ['rbw get github', 'password printed by rbw get'],
  ['keyring get github.com bob', 'password printed by keyring get'],
  ['rclone reveal Z2Rm8sY0dGhlZ1ByZXZpZXc', 'password printed by rclone reveal'],
  ['age -d -i key.txt db_password.age', 'secret printed by age -d'],
  ['age --decrypt -i key.txt secrets.env.age', 'secret printed by age -d'],
  ['gpg -q -d ~/.password-store/github.gpg', 'password printed by gpg -d'],
  ['gpg --decrypt db_password.gpg', 'password printed by gpg -d'],
  ['systemd-creds decrypt --name=db db.cred -', 'secret printed by systemd-creds decrypt'],
  ['systemd-creds cat db', 'secret printed by systemd-creds cat'],
  ['infisical secrets get DB_PASSWORD --plain', 'secret printed by infisical secrets get'],
  ['salt-call pillar.get db:password', 'secret printed by salt-call pillar.get'],
  ['netlify env:get SESSION_SECRET', 'secret printed by netlify env:get'],
  ['aws ssm get-parameter --name /prod/db/password --with-decryption --query Parameter.Value', 'secret printed by aws ssm get-parameter'],
  ['kubectl get secret db -o json | jq -r .data.password | base64 -d', 'secret printed by kubectl get secret | jq'],
  ['kubectl view-secret db password', 'secret printed by kubectl view-secret'],
  ['php bin/console secrets:list --reveal', 'secret printed by symfony secrets:list --reveal'],
  ['php bin/console secrets:reveal DATABASE_PASSWORD', 'secret printed by symfony secrets:reveal'],
  ['mix phx.gen.secret', 'secret printed by mix phx.gen.secret'],
  ['bin/rails secret', 'secret printed by rails secret'],
  ['cat /etc/postfix/sasl_passwd', 'password printed by cat credentials file'],
  ['cat /etc/davfs2/secrets', 'password printed by cat credentials file'],
  ['cat /etc/openvpn/client/auth.txt', 'secret printed by cat credentials file'],
  // A secret variable asked of the shell (adv8 A28), and a Secret's data as custom columns (adv8 A01).
  ['echo $GITHUB_TOKEN', '$GITHUB_TOKEN value printed by echo'],
  ['source .env && echo "$STRIPE_SECRET_KEY"', '$STRIPE_SECRET_KEY value printed by echo'],
  ['set -a; . ./.env; set +a; echo "$DB_PASSWORD"', '$DB_PASSWORD value printed by echo'],
  ['echo -n $NPM_TOKEN; echo', '$NPM_TOKEN value printed by echo'],
  ['echo "token=${NPM_TOKEN}"', '$NPM_TOKEN value printed by echo'],
  ["printf '%s\\n' \"$DB_PASSWORD\"", '$DB_PASSWORD value printed by printf'],
  ['echo -n "$API_KEY" | base64', '$API_KEY value printed by echo'],
  ['kubectl get secret -o custom-columns=NAME:.metadata.name,TOKEN:.data.token', 'secret printed by kubectl get secret -o custom-columns'],
  // A document's secret field picked out bare by jq / yq (adv9 B12, B13).
  ['jq -r .token creds.json', '.token value printed by jq'],
  ["yq '.db.password' config.yaml", '.password value printed by yq'],
  ['curl -s -X POST https://auth.corp.lan/oauth/token | jq -r .access_token', '.access_token value printed by jq'],
  ['jq -r \'.["api_key"]\' settings.json', '.api_key value printed by jq'],
  ["jq -r '.auth.token // empty' ~/.config/tool.json", '.token value printed by jq'],
  ['jq -r .password f.json | base64 -d', '.password value printed by jq'],
  // Adversary pass 11: a here-string, a line a shell or a container runs, an inline script, jq's other spellings.
  ['cat <<< "$TOKEN"', '$TOKEN value printed by cat <<<'],
  ['base64 -d <<< "$API_KEY"', '$API_KEY value printed by base64 <<<'],
  ["bash -c 'echo \"$GITHUB_TOKEN\"'", '$GITHUB_TOKEN value printed by echo'],
  ['sh -c "printenv NPM_TOKEN"', '$NPM_TOKEN value printed by printenv'],
  ["bash -lc 'source .env && echo $DB_PASSWORD'", '$DB_PASSWORD value printed by echo'],
  ['eval "echo \\$NPM_TOKEN"', '$NPM_TOKEN value printed by echo'],
  ["su - app -c 'printenv API_TOKEN'", '$API_TOKEN value printed by printenv'],
  ['docker exec app printenv DB_PASSWORD', '$DB_PASSWORD value printed by printenv'],
  ['docker exec -it -u root app sh -c \'echo "$REDIS_PASSWORD"\'', '$REDIS_PASSWORD value printed by echo'],
  ['docker compose exec -T web cat /run/secrets/db_password', 'secret printed by cat secret file'],
  ['kubectl exec -n prod deploy/api -- printenv DATABASE_PASSWORD', '$DATABASE_PASSWORD value printed by printenv'],
  ["kubectl exec -it api-0 -c app -- sh -c 'echo $API_TOKEN'", '$API_TOKEN value printed by echo'],
  ['node -p process.env.GITHUB_TOKEN', '$GITHUB_TOKEN value printed by node inline script'],
  ["node -e 'console.log(process.env.NPM_TOKEN)'", '$NPM_TOKEN value printed by node inline script'],
  ["python3 -c 'import os; print(os.environ[\"API_KEY\"])'", '$API_KEY value printed by python3 inline script'],
  ["python3 -c 'import os; print(os.getenv(\"DB_PASSWORD\"))'", '$DB_PASSWORD value printed by python3 inline script'],
  ["ruby -e 'puts ENV[\"DB_PASSWORD\"]'", '$DB_PASSWORD value printed by ruby inline script'],
  ["perl -e 'print $ENV{TOKEN}'", '$TOKEN value printed by perl inline script'],
  ["php -r 'echo getenv(\"APP_SECRET\");'", '$APP_SECRET value printed by php inline script'],
  ["jq -r 'getpath([\"auth\",\"token\"])' c.json", '.token value printed by jq'],
  ["jq -r '\"Bearer \\(.token)\"' c.json", '.token value printed by jq'],
  // A secret variable's assignment cut down to its value (adv12 A25).
  ["grep '^DB_PASSWORD=' .env.production | cut -d= -f2-", '$DB_PASSWORD value printed by grep of an assignment'],
  ["sed -n 's/^API_TOKEN=//p' .env", '$API_TOKEN value printed by sed of an assignment'],
  ["awk -F= '/^SECRET_KEY=/{print $2}' .env", '$SECRET_KEY value printed by awk of an assignment'],
  // …by the BSDs' and macOS's awk, `nawk`, as by the others (session 49: only one of awk's readers knew its name).
  ["nawk -F= '/^SECRET_KEY=/{print $2}' .env", '$SECRET_KEY value printed by nawk of an assignment'],
  ["nawk -F= '/^[A-Z]/{print $2}' .env", 'value printed by nawk of a credential file'],
  // …and a file given as a process substitution, read as the pipeline it stands for (session 48's stop-time check).
  ['cut -d= -f2 <(grep TOKEN .env)', 'value printed by cut of a credential file'],
  ["awk -F= '{print $2}' <(grep -i password config.ini)", 'value printed by awk of NAME=value lines'],
  ["grep -oP '(?<=DB_PASSWORD=).*' .env", '$DB_PASSWORD value printed by grep of an assignment'],
  // Adversary pass 76: a credential file's values with their names cut away, a secret's line cut to its value.
  ["awk -F= '/^[A-Z]/{print $2}' .env", 'value printed by awk of a credential file'],
  ['cut -d= -f2- .env.production', 'value printed by cut of a credential file'],
  ["sed 's/^.*=//' .env", 'value printed by sed of a credential file'],
  ["grep 'password:' secret.yaml | awk '{print $2}' | base64 -d", "value printed by awk of a secret's line"],
  ['rev .env', 'credential file printed by rev of a credential file'],
  // Session 18: any file's NAME=value lines cut at `=` (not `:`), any text written backwards.
  ['cut -d= -f2- form-F11.txt', 'value printed by cut of NAME=value lines'],
  ["env | awk -F= '{print $2}'", 'value printed by awk of NAME=value lines'],
  ['rev notes.txt', 'reversed secret printed by rev'],
  // Closing measure 105: a credential file's separators made blanks (its rows no longer in the shape the scanner reads).
  ['column -t -s: ~/.pgpass', 'credential file printed by column of a credential file'],
  ['cat ~/.pgpass | column -t -s:', 'credential file printed by column of a credential file'],
  // Adversary pass 104: a framework's settings printed by its own runner.
  ['./manage.py shell -c "from django.conf import settings; print(settings.SECRET_KEY)"', 'SECRET_KEY value printed by manage.py inline script'],
  ['rails runner "puts Rails.application.secret_key_base"', 'secret_key_base value printed by rails inline script'],
  ['php artisan tinker --execute="echo config(\'app.key\')"', 'app.key value printed by php inline script'],
  // Adversary pass 12: more CLIs that print a value bare, a keypair file, a framework's settings read in a script.
  ['glab variable get REGISTRY_PASSWORD', 'secret printed by glab variable get'],
  ['cloudflared tunnel token prod-api', 'token printed by cloudflared tunnel token'],
  ['openstack token issue', 'token printed by openstack token issue'],
  ['az keyvault secret show --vault-name kv-shop-prod --name sql-admin-password --query value', 'secret printed by az keyvault secret show --query'],
  ['az functionapp keys list -g rg -n shop-webhooks', 'key printed by az functionapp keys list'],
  ['wg show wg0 dump', 'key printed by wg show dump'],
  ['kcadm.sh get clients/5d1c/client-secret -r shop', 'secret printed by kcadm.sh get client-secret'],
  ['cat /etc/pgbouncer/userlist.txt', 'password printed by cat credentials file'],
  ["pwsh -Command '$env:DB_PASSWORD'", '$DB_PASSWORD value printed by pwsh inline script'],
  ['python3 -c \'import json; print(json.load(open("creds.json"))["client_secret"])\'', 'client_secret value printed by python3 inline script'],
  ['gcloud redis instances get-auth-string cache-prod --region=us-central1', 'password printed by gcloud redis instances get-auth-string'],
  ['cat ~/.config/solana/id.json', 'secret printed by cat secret file'],
  ['python manage.py shell -c "from django.conf import settings; print(settings.SECRET_KEY)"', 'SECRET_KEY value printed by python inline script'],
  ["bin/rails runner 'p Rails.application.credentials.secret_key_base'", 'secret_key_base value printed by rails inline script'],
  // Adversary pass 18: a command run where the secrets are (a secret manager's environment, another host, a machine).
  ['doppler run -p shop -c prd -- printenv DB_PASSWORD', '$DB_PASSWORD value printed by printenv'],
  ['op run --env-file=.env -- printenv API_TOKEN', '$API_TOKEN value printed by printenv'],
  ['chamber exec shop-prod -- printenv DB_PASSWORD', '$DB_PASSWORD value printed by printenv'],
  ["sops exec-env secrets.enc.env 'printenv API_TOKEN'", '$API_TOKEN value printed by printenv'],
  ['fly ssh console -a shop-api -C "printenv SESSION_SECRET"', '$SESSION_SECRET value printed by printenv'],
  ['ssh -i deploy.pem deploy@web1 printenv DB_PASSWORD', '$DB_PASSWORD value printed by printenv'],
  ['heroku run -a shop printenv DATABASE_PASSWORD', '$DATABASE_PASSWORD value printed by printenv'],
  // Adversary pass 20: a setting's or a secret store's value alone.
  ['airflow config get-value core fernet_key', 'secret printed by airflow config get-value'],
  ['docker exec es01 bin/elasticsearch-keystore show xpack.security.http.ssl.keystore.secure_password', 'secret printed by elasticsearch-keystore show'],
  ['sudo cat /etc/zabbix/zabbix_agent2.psk', 'secret printed by cat secret file'],
  ["pwsh -NoProfile -c 'Get-Secret -Name ShopDbPassword -AsPlainText'", 'secret printed by pwsh -AsPlainText'],
  // A credential file encoded (the scanner reads it as text, not encoded).
  ['gzip -c .env.production | base64 -w0', 'credential file printed by gzip of a credential file'],
  ['xxd -p ~/.aws/credentials', 'credential file printed by xxd of a credential file'],
  ['base64 < ~/.pgpass', 'credential file printed by base64 of a credential file'],
  ['tar czf - .env | base64', 'credential file printed by tar of a credential file'],
  // Adversary pass 21: a secret file printed by a tool other than cat (F37), read by an inline script (F31), a database client asked
  // for a secret column (F27), a printer run per argument (F05), a document's or a table's value field (F17, F18), a named output's `.value` (F50).
  ['xxd -p /run/secrets/smtp_password', 'secret printed by xxd of a secret file'],
  ['od -c /run/secrets/db_password', 'secret printed by od of a secret file'],
  ['hexdump -C db_password.txt', 'secret printed by hexdump of a secret file'],
  ['base32 secrets/api_token', 'secret printed by base32 of a secret file'],
  ['basenc --base16 /run/secrets/db', 'secret printed by basenc of a secret file'],
  ['strings /run/secrets/db', 'secret printed by strings of a secret file'],
  ['rev /run/secrets/db', 'secret printed by rev of a secret file'],
  ["sed 's/./& /g' /run/secrets/db", 'secret printed by sed of a secret file'],
  ["awk '{print toupper($0)}' /run/secrets/db", 'secret printed by awk of a secret file'],
  ["tr 'a-z' 'n-za-m' < /run/secrets/db", 'secret printed by tr of a secret file'],
  ['cut -c1-64 /run/secrets/db', 'secret printed by cut of a secret file'],
  ["perl -pe 's/(.)/ord($1).\",\"/ge' /run/secrets/db", 'secret printed by perl of a secret file'],
  ['dd if=/run/secrets/db bs=1 2>/dev/null', 'secret printed by dd of a secret file'],
  ['cat < /run/secrets/db', 'secret printed by cat of a secret file'],
  ['xxd -p /etc/pgbouncer/userlist.txt', 'secret printed by xxd of a secret file'],
  ["find /run/secrets -type f -exec xxd -p {} \\;", 'secret printed by xxd of a secret file'],
  [`python3 -c "print(repr(open('/run/secrets/db','rb').read()))" | sed "s/.//"`, 'secret printed by python3 inline script of a secret file'],
  [`node -e "console.log(require('fs').readFileSync('/run/secrets/db','utf8'))"`, 'secret printed by node inline script of a secret file'],
  [`ruby -e 'puts File.read("/run/secrets/db")'`, 'secret printed by ruby inline script of a secret file'],
  [`python3 -c "from pathlib import Path; print(Path('/run/secrets/db').read_text())"`, 'secret printed by python3 inline script of a secret file'],
  [`psql -Atc "select encode(convert_to(password, 'UTF8'), 'hex') from svc_accounts"`, 'secret printed by psql query of a secret column'],
  ['mysql -BNe "select id, api_key from clients"', 'secret printed by mysql query of a secret column'],
  ['sqlite3 app.db "select token from sessions"', 'secret printed by sqlite3 query of a secret column'],
  // Session 33 (adv164 F33): Django REST framework's token table names its 40-hex credential `key`; `select *` of a token table.
  ["sqlite3 -header -column label_studio.sqlite3 'select key, user_id, created from authtoken_token;'", 'secret printed by sqlite3 query of a secret column'],
  ['psql -c "select * from public.api_keys"', 'secret printed by psql query of a secret column'],
  ['psql <<< "select password from users"', 'secret printed by psql query of a secret column'],
  ['docker exec db psql -U postgres -Atc "select rolname, rolpassword from pg_authid"', 'secret printed by psql query of a secret column'],
  ["psql -c \"select value from secrets where name = 'db'\"", 'secret printed by psql query of a secret column'],
  ['sqlcmd -S db -Q "SELECT ClientSecret FROM dbo.Apps" -h -1', 'secret printed by sqlcmd query of a secret column'],
  ['parallel --tag "vault kv get -field=password secret/db/{}" ::: orders billing', 'secret printed by vault kv -field'],
  ['parallel vault kv get -field=password secret/{} ::: orders billing', 'secret printed by vault kv -field'],
  ['echo orders billing | xargs -n1 -I{} vault kv get -field=password secret/{}', 'secret printed by vault kv -field'],
  ['watch -n1 vault kv get -field=password secret/db', 'secret printed by vault kv -field'],
  ['gcloud secrets versions access 3 --secret=db-pass --format=json', 'secret printed by gcloud secrets versions access'],
  ["gcloud secrets versions access 3 --secret=db-pass --format='get(payload.data)'", 'secret printed by gcloud secrets versions access'],
  ['az keyvault secret show --vault-name v -n storage-key -o table', 'secret printed by az keyvault secret show'],
  ['terraform output -json db_password', 'secret printed by terraform output'],
  ['terraform output -json | jq -r .rds_master_password.value', '.rds_master_password value printed by jq'],
  // F28: beside other printers (and a bare echo), an echo is still the line's output.
  ['printf %q "$DB_PASSWORD"; echo; printf "%s" "$DB_PASSWORD" | od -c | head -3', '$DB_PASSWORD value printed by printf'],
  // Adversary pass 22: only the command line says the output is a credential (F02, F09, F34, F49) and the like.
  ['buildkite-agent meta-data get "db-password"', 'secret printed by buildkite-agent meta-data get'],
  // Adversary pass 23: snyk's stored API token.
  ['snyk config get api', 'token printed by snyk config get api'],
  ['firebase functions:secrets:access SHOPIFY_WEBHOOK_SECRET', 'secret printed by firebase functions:secrets:access'],
  ['bin/rails credentials:fetch smtp.password', 'secret printed by rails credentials:fetch'],
  ['buildkite-agent secret get DEPLOY_KEY', 'secret printed by buildkite-agent secret get'],
  ['redis-cli -h cache.internal --raw HGET oauth:xero:tenant:42 refresh_token', 'secret printed by redis-cli HGET'],
  ['redis-cli -a "$REDIS_PW" --no-auth-warning get session:api_token', 'secret printed by redis-cli GET'],
  ['valkey-cli HMGET oauth:7 user access_token', 'secret printed by valkey-cli HMGET'],
  ['redis-cli --raw HGETALL oauth:xero:tenant:42', 'secret printed by redis-cli HGETALL'],
  ['redis-cli --raw CONFIG GET requirepass', 'password printed by redis-cli CONFIG GET'],
  ['aws redshift get-cluster-credentials --cluster-identifier dw --db-user etl --output text', 'secret printed by aws redshift get-cluster-credentials'],
  ['aws redshift-serverless get-credentials --workgroup-name wg --output text', 'secret printed by aws redshift-serverless get-credentials'],
  ['aws sso get-role-credentials --role-name r --account-id 1 --access-token t --output text', 'secret printed by aws sso get-role-credentials'],
  ['aws cognito-idp initiate-auth --auth-flow USER_PASSWORD_AUTH --client-id c --output text', 'secret printed by aws cognito-idp initiate-auth'],
  ['docker exec es01 bin/elasticsearch-service-tokens create elastic/kibana kibana-prod', 'token printed by elasticsearch-service-tokens create'],
  ['bin/elasticsearch-create-enrollment-token -s kibana', 'token printed by elasticsearch-create-enrollment-token'],
  ['bin/elasticsearch-reset-password -u elastic -a -s -b', 'password printed by elasticsearch-reset-password'],
  ['fly tokens create deploy -a shop', 'token printed by fly tokens create'],
  ['flyctl auth token', 'token printed by flyctl auth token'],
  ['influx auth create --org acme --all-access', 'token printed by influx auth create'],
];

/** A transform's output is masked line by line, spaces and all; a pass-through stage keeps the one-word value test. */
const transformed = [
  // Session 13 (adversary passes 39, 41): a key file's lines by a line tool, an XPath of a password, terraform console of a secret.
  "nl -ba certs/server.key | sed -n '10,14p'", "sed -n '10,14p' ~/.ssh/id_ed25519", "xmllint --xpath 'string(//server[id=\"nexus\"]/password)' ~/.m2/settings.xml",
  "echo 'nonsensitive(random_password.db.result)' | terraform console",
"python3 -c \"import os; print(f'key: {os.environ[\\\"API_KEY\\\"]}')\"", 'cat <<< "token=$API_TOKEN"', 'rev <<< "$API_TOKEN"', "jq -r '\"Bearer \\(.token)\"' c.json", 'echo "token=${NPM_TOKEN}"', 'echo "${DB_PASSWORD:0:4}"', 'kubectl get secret -o custom-columns=N:.metadata.name,T:.data.token', 'gh auth token | rev', "gh auth token | sed 's/./& /g'", 'gh auth token | od -c', 'gh auth token | tr a-z A-Z', 'aws sts assume-role --role-arn r --role-session-name s --output text', 'aws redshift get-cluster-credentials --db-user etl --output text', 'fly tokens create deploy', 'redis-cli HMGET k user password', 'xxd -p /run/secrets/smtp_password', 'psql -Atc "select password from users"', 'parallel --tag vault kv get -field=password secret/{} ::: a b', 'printf %q "$DB_PASSWORD"; echo; printf "%s" "$DB_PASSWORD" | od -c | head -3'];
const passThrough = ['cat <<< "$TOKEN"', 'node -p process.env.GITHUB_TOKEN', "python3 -c 'import os; print(os.environ[\"API_KEY\"])'", 'echo "$GITHUB_TOKEN"', 'echo ${GITHUB_TOKEN}', 'gh auth token', 'gh auth token | tr -d "\\n"', 'gh auth token | head -n1', 'redis-cli HGET oauth:1 refresh_token', 'buildkite-agent meta-data get db-password', "kubectl get secret db -o jsonpath='{.data.password}' | base64 -d"];

const notPrinters = [
  // A certificate or a public key's file, the whole key file (the scanner reads its armour), an XPath of no secret, random bytes
  // (an agent generates them to write into a config: docs/masking.md, "What is not masked").
  'cat cert.pem', 'head -3 ~/.ssh/id_ed25519.pub', 'cat certs/server.key', "xmllint --xpath 'string(//server/id)' s.xml", 'openssl rand -hex 32', 'openssl rand -base64 32', 'echo 1+1 | terraform console',
  // The public key derived from a generated one (adv15 M20); dotenvx without a name prints a JSON document the scanner reads.
  'wg genkey | tee /etc/wireguard/server.key | wg pubkey',
  'npx dotenvx get -f .env.production',
  'gh auth status', // text: the scanner reads `Token: gho_…`
  'aws configure get region',
  'az account get-access-token', // JSON, its fields named
  "kubectl get secret db -o yaml", // `data:` blocks: the scanner reads them
  'pass ls',
  'pass insert prod/db',
  'printenv PATH',
  'doppler run -- printenv PATH', // a secret manager's command that prints no secret
  'openssl x509 -in server.pem -noout -text', // a certificate's text
  'tar czvf backup.tgz .env.production', // to a file: the listing names the file
  'base64 logo.png',
  'cat .env', // text the scanner reads
  'ssh web1 uptime',
  'doppler secrets', // a table the scanner reads
  'export T=$(gh auth token)', // captured, never shown
  'gh auth token > ~/.token', // to a file
  'gh auth token | wc -c', // a count
  // Reducers: nothing of the value comes out.
  'gh auth token | grep -q gho_',
  'gh auth token | grep -c gho_',
  'gh auth token | sha256sum',
  'gh auth token | head -c0',
  'gh auth token >/dev/null',
  'gh auth token | rev > /tmp/t', // the last stage to a file
  'aws ecr get-login-password --region eu-west-1 | docker login --username AWS --password-stdin 1.dkr.ecr.eu-west-1.amazonaws.com',
  'gh auth token | gh auth login --with-token',
  'aws ec2 describe-instances --query Reservations[0].Instances[0].InstanceId --output text',
  "kubectl config view -o jsonpath='{.users[0].user.token}'", // without --raw: REDACTED
  "kubectl config view --raw -o jsonpath='{.clusters[0].cluster.server}'",
  'terraform output -raw region',
  'echo gh auth token',
  // Look-alikes of the third pass's printers: a value that is no secret, a table, a setter, a file the scanner reads.
  'heroku config:get NODE_ENV -a app',
  'pulumi config get aws:region',
  'pulumi stack output url',
  'sops -d secrets.enc.yaml', // the whole file: key rules read it
  'aws iam list-access-keys --output text',
  'aws kms encrypt --key-id k --plaintext fileb://p --output text --query CiphertextBlob',
  'az storage account keys list -n acct', // JSON
  'kubeadm token list',
  'docker swarm join-token worker', // a `docker swarm join --token SWMTKN-1-…` line: the vendor rule
  'argocd app list',
  'keepassxc-cli show vault.kdbx github', // protected fields hidden
  'nmcli -g 802-11-wireless-security.psk connection show HomeNet', // without -s: empty
  'nmcli -s -g ipv4.addresses connection show HomeNet',
  'git config --get user.email',
  'git config sendemail.smtppass newvalue', // sets
  'git config --unset sendemail.smtppass',
  'php artisan key:generate',
  'cat /etc/ppp/options',
  'cat chap-secrets.md',
  // Look-alikes of the fourth pass's printers.
  'docker swarm unlock --help',
  'consul kv get app/region',
  'wg show wg0 public-key',
  'wg pubkey',
  'rbw list',
  'rclone config show',
  'age -o out.txt -d -i key.txt db_password.age', // to a file
  'gpg -d backup.tar.gpg', // not a credential's file
  'gpg --list-keys',
  'systemd-creds decrypt db.cred out.txt', // to a file
  'salt-call grains.get os',
  'salt-call pillar.get app:region',
  'netlify env:get NODE_ENV',
  'aws secretsmanager list-secrets --query SecretList[0].Name',
  'kubectl get secret db -o json', // the document: the scanner reads its named data
  'kubectl get configmap app -o json | jq -r .data.region',
  'php bin/console secrets:list', // names only
  'rails server',
  'cat /etc/postfix/main.cf',
  'cat /etc/openvpn/client/office.conf',
  'ls -la',
  'git log --oneline -3',
  // Look-alikes of the echo printer: no secret variable, or no value of one comes out.
  'echo $HOME',
  'echo ${#GITHUB_TOKEN}', // its length
  'echo "token set: ${GITHUB_TOKEN:+yes}"', // a word in its place
  'echo $GITHUB_TOKEN_FILE', // a path
  "echo '$GITHUB_TOKEN'", // single quotes: the name as written
  'echo \\$GITHUB_TOKEN',
  'echo "GITHUB_TOKEN is missing"',
  'echo "$GITHUB_TOKEN" | gh auth login --with-token',
  'echo "$GITHUB_TOKEN" > .token',
  'kubectl get secrets -o custom-columns=NAME:.metadata.name,TYPE:.type',
  // jq / yq picking no secret, or the value counted or written away.
  "jq -r '.token_type' response.json",
  "jq '.items[].metadata.name'",
  "jq --arg token x '.name' f.json", // an --arg's name and value are no filter
  "yq e '.spec.replicas' deploy.yaml",
  'jq .',
  'jq -r .token f.json | wc -c',
  'jq -r .token f.json > out.txt',
  "jq -r .token f.json | jq -R '.id'",
  // Adversary pass 11's look-alikes: the value counted or consumed, no secret variable, no print, a line with no printer.
  'wc -c <<< "$API_KEY"',
  'docker login -u ci --password-stdin <<< "$REGISTRY_PASSWORD"',
  'read -r a b <<< "$API_TOKEN"',
  "bash -c 'ls -la'",
  "sh -c 'echo $HOME'",
  'docker exec app env | wc -l',
  "kubectl exec api-0 -- printenv HOSTNAME",
  "node -e 'console.log(process.env.HOME)'",
  "node -e 'fetch(u, {headers: {authorization: process.env.API_TOKEN}})'",
  "python3 -c 'import os; requests.post(u, headers={\"a\": os.environ[\"API_KEY\"]})'",
  "python3 -c 'print(len(os.environ[\"API_KEY\"]))' | wc -l",
  "jq -r 'getpath([\"auth\",\"token_type\"])' c.json",
  // Process substitutions that print no value: two sorted files compared, a value's length.
  'diff <(sort .env) <(sort .env.example)',
  'cut -d= -f2 <(grep TOKEN .env) | wc -c',
  // An assignment found but not cut to its value (the scanner reads `NAME=value`), cut to something else, or edited in place.
  "grep '^DB_PASSWORD=' .env",
  "grep '^DB_HOST=' .env | cut -d= -f2",
  'cut -d= -f1 .env',
  "awk -F= '{print $1}' .env",
  "grep version package.json | cut -d'\"' -f4",
  "grep -rn 'API_TOKEN=' src | cut -c1-80",
  "sed -i 's/^API_TOKEN=.*/API_TOKEN=x/' .env",
  "sed -n '/^API_KEY=/p' .env",
  'glab variable get DEPLOY_ENVIRONMENT',
  'cloudflared tunnel list',
  'snyk config get org',
  'bin/rails credentials:fetch smtp.address',
  'firebase functions:secrets:get SHOPIFY_WEBHOOK_SECRET',
  'python manage.py shell -c "from django.conf import settings; print(settings.DEBUG)"',
  "bin/rails runner 'p Rails.application.config.time_zone'",
  'az keyvault secret show --vault-name kv --name x --query id',
  'wg show wg0',
  "pwsh -Command '$env:PATH'",
  'python3 -c \'import json; print(json.load(open("p.json"))["name"])\'',
  // Adversary pass 21's look-alikes: a secret file named but no value of it printed, a file that holds none, a query that prints no
  // credential (a count, a description, a hash), a command run per argument that prints none, an echo beside another command's text.
  'ls /run/secrets/',
  'stat /run/secrets/db',
  'wc -c /run/secrets/db',
  'sha256sum /run/secrets/db',
  'file /run/secrets/db',
  'test -f /run/secrets/db',
  'chmod 600 /run/secrets/db',
  'cp /run/secrets/db /tmp/db',
  "sed -i 's/a/b/' /run/secrets/db",
  'dd if=/run/secrets/db of=/tmp/db',
  'grep -c x /run/secrets/db',
  'xxd -p firmware.bin',
  'od -c notes.txt',
  'grep -i password README.md',
  "sed -n '/token/p' app.log",
  'sed -n 1,9p k8s/secrets/app.yaml', // a document the scanner reads
  'cut -d, -f1 secrets/inventory.csv',
  'find /run/secrets -type f',
  'find . -name "*.ts" -exec cat {} \\;',
  `python3 -c "print(open('README.md').read())"`,
  `python3 -c "open('/run/secrets/db','w').write('x')"`,
  'psql -c "select count(*) from users where password is null"',
  'psql -c "\\d users"',
  'psql -t -c "select password_hash from users"',
  'psql -c "select hashed_password from users"',
  'psql -c "select length(password) from users"',
  'psql -c "select id, email from users where password_hash is null"',
  'psql -c "select token_type, expires_at from tokens"',
  'psql -c "select count(*) from authtoken_token"',
  'psql -c "select key, fingerprint from ssh_keys"',
  'psql -c "select * from users"',
  'psql -c "select is_secret, name from settings"',
  'mysql -e "select user, authentication_string from mysql.user"',
  'parallel gzip ::: *.log',
  'parallel --dry-run vault kv get -field=password secret/{} ::: a',
  'cat README.md; echo "$HOME"',
  'terraform output',
  "jq -r '.settings.value' f.json",
  // Look-alikes of adversary pass 22's printers: a key or a field that names no secret, a call that hands out none, JSON output.
  'redis-cli GET page:views',
  'redis-cli HGET user:42 email',
  'redis-cli --raw HMGET user:42 name email',
  'redis-cli SET session:api_token x',
  'redis-cli KEYS "*token*"',
  'aws redshift describe-clusters --output text',
  'aws redshift get-cluster-credentials --cluster-identifier dw --db-user etl',
  'buildkite-agent meta-data get release-version',
  'buildkite-agent meta-data set db-password x',
  'elasticsearch-service-tokens list',
  'fly tokens list',
  'influx auth list --json',
  'column -t -s, data.csv',
  'column -t ~/.pgpass',
  "tr a-z A-Z < notes.txt",
  'puppet lookup profile::db::host',
];

describe('secretPrinterOf', () => {
  for (const [line, kind] of printers) {
    it(`${line} prints a credential`, () => {
      const p = secretPrinterOf(line);
      expect(p).toBeDefined();
      expect(`${p!.kind} printed by ${p!.tool}`).toBe(kind);
    });
  }
  // Beside another command's output an echo is read only for a minted-looking word (amongOthers): the other lines are no value.
  for (const line of ['ls -la; echo "token is $DEPLOY_TOKEN"', 'set; echo "$DEPLOY_TOKEN"', 'ls; cat <<< "$TOKEN"', 'cat notes.txt; echo "$TOKEN"'])
    it(`${line} prints among others`, () => expect(secretPrinterOf(line)?.amongOthers).toBe(true));
  for (const line of notPrinters) it(`${line} does not (its output is not a bare credential)`, () => expect(secretPrinterOf(line)).toBeUndefined());
  for (const line of transformed) it(`${line}: its output is masked line by line (transformed)`, () => expect(secretPrinterOf(line)?.transformed).toBe(true));
  for (const line of passThrough) it(`${line}: its output's one-word lines are the value (not transformed)`, () => expect(secretPrinterOf(line)?.transformed).toBeFalsy());
  it('a line that does not parse is no printer', () => expect(secretPrinterOf('gh auth token "')).toBeUndefined());
});

describe('printedValue', () => {
  it('takes one word (colour and CR around it) for the value; a message, a placeholder or a short word is not one', () => {
    const line = '\x1b[32m9f86d081884c7d659a2feaa0c55ad015a3bf4f1b\x1b[0m\r';
    const v = printedValue(line)!;
    expect(line.slice(v.start, v.end)).toBe('9f86d081884c7d659a2feaa0c55ad015a3bf4f1b');
    for (const l of ['no oauth token found for github.com', 'undefined', 'null', '(protected)', 'ok', '', '   ', '$GITHUB_TOKEN']) expect(printedValue(l), l).toBeUndefined();
  });
});

describe('Redactor.maskCommandOutput', () => {
  it("masks R's print of a secret read (`[1] \"…\"`: Sys.getenv, keyring::key_get)", () => {
    const out = new Redactor().maskCommandOutput(`Rscript -e 'Sys.getenv("SNOWFLAKE_PASSWORD")'`, '[1] "wMFr%FSnYjte6M3D2GoLLF"\n');
    expect(out).not.toContain('wMFr%FSnYjte6M3D2GoLLF');
  });

  it("masks a creation command's new credential by its field, and leaves the ids beside it (adversary pass 19)", () => {
    const key = 'Db5j/BnivbjRMA/JKSI2zJbR1nRJTXqMXoTVcCTwVo4=';
    const oci = `{\n  "data": {\n    "display-name": "s3-compat-ci",\n    "id": "4dd8fd0ffcca5726242d5236f2e13cc9f55e6884",\n    "key": "${key}",\n    "lifecycle-state": "ACTIVE"\n  }\n}\n`;
    const masked = new Redactor().maskCommandOutput('oci iam customer-secret-key create --user-id ocid1.user.oc1..aaaa --display-name s3-compat-ci', oci);
    expect(masked).toBe(oci.replace(key, '[masked: secret printed by oci iam customer-secret-key create]'));
    const secret = 'Kq8xZ2mN4pR7sT1uV3wX5yZ7aB9cD1eF';
    const twilio = `SID                                 Friendly Name  Secret\nSK0123456789abcdef0123456789abcdef  ci-deployer    ${secret}\n`;
    const t = new Redactor().maskCommandOutput('twilio api:core:keys:create --friendly-name ci-deployer --properties sid,friendlyName,secret', twilio);
    expect(t).not.toContain(secret);
    expect(t).toContain('ci-deployer'); // (the SK… sid is a Twilio API key's shape: the vendor rules mask it as before)
    const otp = 'ab25afe4-60cf-4513-ae42-deda2e3e3b2f';
    const vault = `Key                Value\n---                -----\nlease_id           ssh/creds/otp_key_role/x\nip                 10.0.4.12\nkey                ${otp}\nkey_type           otp\nport               22\nusername           ubuntu\n`;
    expect(new Redactor().maskCommandOutput('vault write ssh/creds/otp_key_role ip=10.0.4.12', vault)).toBe(vault.replace(otp, '[masked: one-time password printed by vault write ssh/creds]'));
  });

  it("masks a printer's value line, tells the kind and the tool, and remembers the value for the session", () => {
    const r = new Redactor();
    const value = 'Kx9vR2mQ7zL4pW8n';
    expect(r.maskCommandOutput('pass show prod/db', `${value}\nlogin: app\nurl: db.internal\n`)).toBe('[masked: password printed by pass show]\nlogin: app\nurl: db.internal\n');
    expect(r.mask(`psql "postgres://app:${value}@db/app"`)).not.toContain(value);
    expect(r.mask(`echo ${value}`)).toBe('echo [masked: password printed by pass show]');
  });

  it("masks a transformed printer's every line, spaces and all, and keeps od's offset line", () => {
    const r = new Redactor();
    const spaced = 'Q m 7 R t 2 V x 9 L p 4 N z 8 K c 3 B w 6';
    expect(r.maskCommandOutput("aws configure get aws_secret_access_key | sed 's/./& /g'", `${spaced} \r\n`)).toBe('[masked: secret printed by aws configure get] \r\n');
    const od = '0000000   g   h   o   _   X   k   3   m\n0000010   P   9   q   L  \\n\n0000015\n';
    expect(r.maskCommandOutput('gh auth token | od -c', od)).toBe('[masked: token printed by gh auth token]\n[masked: token printed by gh auth token]\n0000015\n');
  });

  it("masks a transformed printer's row that holds a documentation key id, and keeps mish's own [exit 0] line after it", () => {
    const row = 'ACCESSKEY\tAKIAQ3EXAMPLEKEYID7X\t2026-11-29T17:00:00+00:00\tWq8Er2Ty6Ui0Op4As8Df2Gh6Jk0Lz3Xc7Vb1Nm5Q\tActive\tbot\r\n';
    expect(new Redactor().maskCommandOutput('aws iam create-access-key --user-name bot --output text', `${row}[exit 0]\n`)).toBe('[masked: secret printed by aws iam create-access-key]\r\n[exit 0]\n');
  });

  it("masks a value that ends without a newline, with the CLI's dim ` ⏎ (no newline at end)` note after it (adv4 M15)", () => {
    const out = new Redactor().maskCommandOutput('kubectl get secret db -o json | jq -r .data.password | base64 -d', 'kK8sJQ-Pass-Qw7Er\x1b[2m ⏎ (no newline at end)\x1b[22m\n[exit 0]\n');
    expect(out).toBe('[masked: secret printed by kubectl get secret | jq]\x1b[2m ⏎ (no newline at end)\x1b[22m\n[exit 0]\n');
  });

  it("masks a secret variable's value echoed, and a Secret's custom-columns rows with their header (adv8 A28, A01)", () => {
    const r = new Redactor();
    expect(r.maskCommandOutput('set -a; . ./.env; echo "$DEPLOY_TOKEN"', 'kEchoVar6Op1Zx\n')).toBe('[masked: $DEPLOY_TOKEN value printed by echo]\n');
    expect(r.mask('curl -H "Authorization: Bearer kEchoVar6Op1Zx" api')).not.toContain('kEchoVar6Op1Zx');
    const table = 'NAME        TOKEN\nci-deploy   kKubeCC7Xq2Lm9\n';
    const kube = 'kubectl get secret -o custom-columns=NAME:.metadata.name,TOKEN:.data.token';
    expect(r.maskCommandOutput(kube, table)).toBe('[masked: secret printed by kubectl get secret -o custom-columns]\n'.repeat(2));
    expect(r.maskCommandOutput('echo $HOME', '/home/agent-user\n')).toBe('/home/agent-user\n');
  });

  it("masks a secret field jq picks out of a response, and keeps a field that is none (adv9 B12)", () => {
    const r = new Redactor();
    expect(r.maskCommandOutput('curl -s -X POST https://auth.corp.lan/oauth/token -d @creds | jq -r .access_token', 'kCurlJqAt4Ty7Ui0\n')).toBe('[masked: .access_token value printed by jq]\n');
    expect(r.maskCommandOutput("jq -r '.token_type' response.json", 'Bearer-Xq7Zp2Lm9\n')).toBe('Bearer-Xq7Zp2Lm9\n');
  });

  it('masks adversary pass 21 forms: a document\'s or a table\'s value field, a query\'s rows under kept titles, tagged lines', () => {
    const r = new Redactor();
    const data = 'S2Q4dlIybVE3ekw0cFc4bkt4OXZS';
    const json = `{\n  "name": "projects/4812/secrets/db-pass/versions/3",\n  "payload": {\n    "data": "${data}",\n    "dataCrc32c": "3735928559"\n  }\n}\n`;
    // (The payload under a version's name is the scanner's too, since pass 135: its kind, however the output was printed.)
    expect(r.maskCommandOutput('gcloud secrets versions access 3 --secret=db-pass --format=json', json)).toBe(json.replace(data, '[masked: secret manager payload]'));
    const yaml = `name: projects/4812/secrets/db-pass/versions/3\npayload:\n  data: ${data}\n  dataCrc32c: '3735928559'\n`;
    expect(r.maskCommandOutput('gcloud secrets versions access 3 --secret=db-pass --format=yaml', yaml)).toBe(yaml.replace(data, '[masked: secret manager payload]'));
    const v = 'Wq8Er2Ty6Ui0Op4As8Df2Gh6Jk0Lz3Xc7Vb1Nm5QA=';
    // (A secret named like one, `storage-key`, is the scanner's too: its padded row. `prod-db` is only the printer's.)
    const table = `ContentType    Name         Value\n-------------  -----------  --------------------------------------------\n               prod-db      ${v}\n`;
    expect(r.maskCommandOutput('az keyvault secret show --vault-name v -n prod-db -o table', table)).toBe(table.replace(v, '[masked: secret printed by az keyvault secret show]'));
    // (The row read by column since session 44, query-rows.ts: the id stays.)
    const rows = ' id |        encode        \n----+----------------------\n  1 | 4b78397652326d51377a\n(1 row)\n\n';
    expect(r.maskCommandOutput(`psql -c "select id, encode(password::bytea, 'hex') from svc"`, rows)).toBe(' id |        encode        \n----+----------------------\n  1 | [masked: secret printed by psql query of a secret column]\n(1 row)\n\n');
    const hidden = ' usename  |  passwd  \n----------+----------\n postgres | ******** \n(1 row)\n';
    expect(r.maskCommandOutput('psql -d postgres -c "select usename, passwd from pg_user"', hidden)).toBe(hidden);
    const tagged = 'orders\tKx9vR2mQ7zL4pW8n\nbilling\tQm7xT2vK9pL4wZ8n\n';
    expect(r.maskCommandOutput('parallel --tag "vault kv get -field=password secret/db/{}" ::: orders billing', tagged)).toBe('[masked: secret printed by vault kv -field]\n'.repeat(2));
    expect(r.mask('the word password stays')).toBe('the word password stays'); // a column title is never remembered
  });

  it("masks adversary pass 22 forms: redis' quoted value and its name / value lines, an aws text row's password cell, a service token", () => {
    const r = new Redactor();
    const t = 'f3a91c0e5b7d2468ace13579bdf02468ace13579bdf02468ace13579bdf0246a';
    expect(r.maskCommandOutput('redis-cli HGET oauth:xero:tenant:42 refresh_token', `"${t}"\n`)).toBe('"[masked: secret printed by redis-cli HGET]"\n');
    const hash = `tenant\nxero-42\nrefresh_token\nQm7xT2vK9pL4wZ8nKx9vR2mQ\nexpires_at\n1710148951\n`;
    // (The scanner reads it too since session 44, a name alone over its value: its kind is the name's.)
    expect(r.maskCommandOutput('redis-cli --raw HGETALL oauth:xero:tenant:42', hash)).toBe(hash.replace('Qm7xT2vK9pL4wZ8nKx9vR2mQ', '[masked: token]'));
    const config = 'requirepass\nWq8Er2Ty6Ui0Op4As8Df\n';
    expect(r.maskCommandOutput('redis-cli --raw CONFIG GET requirepass', config)).toBe('requirepass\n[masked: password]\n');
    const pw = '6/yj8AHJ/3E/By4oc4Wv/Etj0W1k+NmtA1f4SjuwJlCWqK/eAY+/zESAjRHq+VqrnRchNUxBzK9p';
    const row = `${pw}\tIAM:etl\t2024-03-11T09:37:31.512000+00:00\n`;
    expect(r.maskCommandOutput('aws redshift get-cluster-credentials --cluster-identifier dw --db-user etl --output text', row)).toBe('[masked: secret printed by aws redshift get-cluster-credentials]\n');
    // The password cell is remembered alone: a status line's cut row (`last: "<its start>…"`) is masked too.
    expect(r.mask(`last: "${pw}"`)).toBe('last: "[masked: secret printed by aws redshift get-cluster-credentials]"');
    const tok = 'AAEAAWVsYXN0aWMva2liYW5hL2tpYmFuYS1wcm9kOlI5ZzJ3dFNfUnhTVjhhUDFxa0pCZkE';
    r.maskCommandOutput('bin/elasticsearch-service-tokens create elastic/kibana kibana-prod', `SERVICE_TOKEN elastic/kibana/kibana-prod = ${tok}\n`);
    expect(r.mask(`kibana.yml holds ${tok}`)).toBe('kibana.yml holds [masked: token printed by elasticsearch-service-tokens create]');
    const fields = 'user\nbob\nemail\nbob@shop.example\n';
    expect(r.maskCommandOutput('redis-cli --raw HGETALL user:42', fields)).toBe(fields);
  });

  it("keeps another command's output and a printer's error message", () => {
    const r = new Redactor();
    expect(r.maskCommandOutput('ls', 'Kx9vR2mQ7zL4pW8n\n')).toBe('Kx9vR2mQ7zL4pW8n\n');
    expect(r.maskCommandOutput('gh auth token', 'no oauth token found for github.com\n')).toBe('no oauth token found for github.com\n');
  });
});

describe("a command's stream state", () => {
  it('remembers the value of a printer noted after its output began (the byte path hands its pending line over)', () => {
    const r = new Redactor();
    const value = 'Qm7xT2vK9pL4wZ8n';
    const stream = r.stream('c9');
    stream.pushBytes(Buffer.from(`\x1b[0m${value.slice(0, 5)}`));
    r.noteCommand('c9', 'vault read -field=password secret/db');
    stream.pushBytes(Buffer.from(`${value.slice(5)}\r\n`));
    stream.flush();
    expect(r.mask(`the value ${value} again`)).toBe('the value [masked: secret printed by vault read -field] again');
  });

  it("masks every row of xxd -i of a key file (a row whose first byte recurs in it is remembered too) and files named for keys (adversary pass 59)", () => {
    const out = 'unsigned char device_psk[] = {\n  0x09, 0xd2, 0x3d, 0xe0, 0x1c, 0x73, 0x30, 0x09, 0xfe, 0xff, 0xdb, 0xa3,\n  0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc,\n};\n';
    const r = new Redactor();
    const masked = r.maskCommandOutput('xxd -i -n device_psk secrets/device.psk', out);
    expect(masked).not.toContain('0x09, 0xd2');
    expect(masked).not.toContain('0x11, 0x22');
    // Remembered: the row shown again later is masked.
    expect(r.mask('  0x09, 0xd2, 0x3d, 0xe0, 0x1c, 0x73, 0x30, 0x09, 0xfe, 0xff, 0xdb, 0xa3,')).not.toContain('0xd2');
    for (const c of ['xxd config/client_session_key.aes', `python3 -c 'print(repr(open("instance/secret.key","rb").read()))'`, 'sudo cat /var/lib/zerotier-one/identity.secret']) expect(secretPrinterOf(c), c).toBeDefined();
    for (const c of ['cat src/secret_key_rotation.py', 'cat docs/session-keys.md']) expect(secretPrinterOf(c), c).toBeUndefined();
  });

  it('masks what conjur variable get and keyctl print / pipe print alone (adversary pass 61)', () => {
    const r = new Redactor();
    expect(r.maskCommandOutput('conjur variable get -i prod/db/password', 'Xk9mQ2vR7zL4pW8n\n')).toBe('[masked: secret printed by conjur variable get]\n');
    expect(r.maskCommandOutput('keyctl print %user:deploy-token', 'Qm7xT2vK9pL4wZ8nQm7xT2vK9pL4wZ8nAb12Cd34\n')).toBe('[masked: secret printed by keyctl print]\n');
    expect(secretPrinterOf('keyctl show @u')).toBeUndefined();
  });

  it("masks bash's printf %q of a password holding a blank (escaped by a backslash: adversary pass 59)", () => {
    const out = new Redactor().maskCommandOutput(`printf '%q\\n' "$PGPASSWORD"`, '8oCq\\$EbD\\!yxaCw\\ BDx\\&AsUd\\*v90\n');
    expect(out).toBe('[masked: $PGPASSWORD value printed by printf]\n');
  });

  it("masks wg show's preshared keys (the row's second cell, its peer's public key kept) and node's inspect of a secret file's Buffer (adversary pass 59)", () => {
    const [pub, psk] = ['82SU2fJCcW8YsnYz4Ab5wJBF/X1+O+1WH9diPvmRQXM=', 'BYOI/UO4nvRy3vx1qO9rJU+S6SOX8J/HbQvF4R800/Q='];
    const r = new Redactor();
    expect(r.maskCommandOutput('sudo wg show wg0 preshared-keys', `${pub}\t${psk}\nsQlcon7GqSLZ/NpIxZLW2/aj0Hx3RvkJgpuoVn9vlSU=\t(none)\n`)).toBe(`${pub}\t[masked: key printed by wg show preshared-keys]\nsQlcon7GqSLZ/NpIxZLW2/aj0Hx3RvkJgpuoVn9vlSU=\t(none)\n`);
    const buffer = '<Buffer 37 65 64 39 31 38 62 30 30 34 33 36 61 36 36 65 65 61 62 66 33 63 61 63 32 38 37 34 39 35 39 39>';
    expect(r.maskCommandOutput(`node -e 'console.log(require("fs").readFileSync("config/master.key"))'`, `${buffer}\n`)).toBe('[masked: secret printed by node inline script of a secret file]\n');
  });

  it("masks an echo of a secret variable among commands that print other lines: only its minted-looking word (adversary passes 59, 61)", () => {
    const token = 'IIml9sU1CihrN5cqIBVNPXCMvda95Rk1J5cWvDoe1IMrFjM4';
    const envrc = 'export INTERNAL_API_TOKEN="$(cat ~/.config/acme/token)"\ndirenv: loading ~/src/app/.envrc\ndirenv: export +INTERNAL_API_TOKEN\n';
    const r = new Redactor();
    expect(r.maskCommandOutput('cat .envrc; direnv allow; echo $INTERNAL_API_TOKEN', `${envrc}${token}\n`)).toBe(`${envrc}[masked: $INTERNAL_API_TOKEN value printed by echo]\n`);
    // The other commands' one-word lines stay: a name, a version, a path, a camel-case word, a short id.
    const others = 'DATABASE_URL\nv20.11.1\n/home/dana/src/app\ngetElementById\nJavaScript\nbuild-42\n';
    expect(new Redactor().maskCommandOutput('cut -d= -f1 .env; node -v; pwd; echo $SESSION_SECRET', `${others}Qm7xT2vK9pL4wZ8n\n`)).toBe(`${others}[masked: $SESSION_SECRET value printed by echo]\n`);
    // A transform's pieces (`fold -w 10`, letters of both cases only) and its spaced characters (`sed 's/./& /g'`).
    const folded = new Redactor().maskCommandOutput('cut -c1-20 .env; printf %s "$CIRCLE_TOKEN" | fold -w 10', 'LOG_LEVEL=debug\ncSEj72edXu\neRHGOrdFLY\n');
    expect(folded).toBe('LOG_LEVEL=debug\n[masked: $CIRCLE_TOKEN value printed by printf]\n[masked: $CIRCLE_TOKEN value printed by printf]\n');
    const spaced = new Redactor().maskCommandOutput(`sed 's/./& /g' <<< "$HF_TOKEN"; git status -s`, 'h f _ y F B k I N Q R r Q U k p L t n b F x o\n M src/app.ts\n');
    expect(spaced).toBe('[masked: $HF_TOKEN value printed by sed <<<]\n M src/app.ts\n');
  });

  it("reads each printer's values when a line holds two (wg show's preshared keys, then its private key: adversary pass 59)", () => {
    const [pub, psk, key] = ['82SU2fJCcW8YsnYz4Ab5wJBF/X1+O+1WH9diPvmRQXM=', 'BYOI/UO4nvRy3vx1qO9rJU+S6SOX8J/HbQvF4R800/Q=', 'vE2B1rV746kgpf+CPL5YSVheWzz5ZzZoJ3o34fTIg94='];
    const out = new Redactor().maskCommandOutput('sudo wg show wg0 preshared-keys; sudo wg show wg0 private-key', `${pub}\t${psk}\n${key}\n`);
    expect(out).toBe(`${pub}\t[masked: key printed by wg show private-key]\n[masked: key printed by wg show private-key]\n`);
  });

  it("masks a minted value among any file's values cut at `=`, and the secrets of text written backwards; keeps the rest (adversary pass 76)", () => {
    const v = 'Zk3pQ9xL2mVb7TnR4sWy8HcJ6dFg1aEu';
    expect(new Redactor().maskCommandOutput('cut -d= -f2- settings.txt', `production\n5432\ndb.internal\n${v}\n`)).toBe('production\n5432\ndb.internal\n[masked: value printed by cut of NAME=value lines]\n');
    // A CI's or a container's settings: commit SHAs, UUIDs, hex ids, pods' names and releases are no secrets (adversary pass 82).
    const ci = 'c45d6804dd2837ea2873f2d0218f5ef43f119c84\nbb9193f2-b4c9-4103-b540-27711dbfae23\nweb-7d9f8c6b5-eu73x\na7b12baf0d7941534bf2d7858ddada0d\napi@2.4.0+43046bc5a70e\n';
    expect(new Redactor().maskCommandOutput("env | awk -F= '{print $2}'", ci)).toBe(ci);
    // A log's fields cut at `:` are no settings' values.
    expect(new Redactor().maskCommandOutput("awk -F: '{print $2}' app.log", `x\n${v}\n`)).toBe(`x\n${v}\n`);
    const env = `SLACK_BOT_TOKEN=xoxb-1234567890123-1234567890123-abcdefghijABCDEFGHIJ1234\nDB_PASSWORD=Hq8$wN2vLr99!\nAPP_ENV=production\n`;
    const backwards = env.split('\n').map((l) => [...l].reverse().join('')).join('\n');
    const r = new Redactor();
    expect(r.maskCommandOutput('rev form-F26.txt', backwards)).toBe('[masked: reversed secret printed by rev]=NEKOT_TOB_KCALS\n[masked: reversed secret printed by rev]=DROWSSAP_BD\nnoitcudorp=VNE_PPA\n');
    // Remembered: a read of one line shows the value masked.
    expect(r.mask('!99rLv2Nw$8qH=DROWSSAP_BD')).toBe('[masked: reversed secret printed by rev]=DROWSSAP_BD');
  });

  it("masks the secrets of text put through tr's one-for-one substitution (rot13), keeps a case fold's and a deletion's output to the scanner (adversary pass 102 F10)", () => {
    const rot13 = (s: string) => s.replace(/[a-z]/gi, (c) => String.fromCharCode((c <= 'Z' ? 65 : 97) + ((c.toUpperCase().charCodeAt(0) - 65 + 13) % 26)));
    const token = 'ghp_Zk3pQ9xL2mVb7TnR4sWy8HcJ6dFg1aEuXy7Q';
    const r = new Redactor();
    const out = r.maskCommandOutput("tr 'A-Za-z' 'N-ZA-Mn-za-m' < form.txt", `${rot13(`GITHUB_TOKEN=${token}`)}
${rot13('APP_ENV=production')}
`);
    expect(out).toBe(`${rot13('GITHUB_TOKEN=')}[masked: encoded secret printed by tr]
${rot13('APP_ENV=production')}
`);
    // Remembered: a read of the line alone shows it masked.
    expect(r.mask(rot13(token))).toBe('[masked: encoded secret printed by tr]');
    expect(secretPrinterOf('tr a-z A-Z < notes.txt')).toBeUndefined();
    expect(secretPrinterOf("tr -d '\\r' < notes.txt")).toBeUndefined();
    expect(secretPrinterOf("tr 'ab' 'xx' < notes.txt")).toBeUndefined();
  });

  it("masks puppet lookup's and hiera's value of a key naming a secret, and keeps another key's (adversary pass 102 F47)", () => {
    const r = new Redactor();
    expect(r.maskCommandOutput('puppet lookup profile::db::password --node web01', '--- zmaYYMgYOgBIHCzOi99n\n')).toBe('--- [masked: secret printed by puppet lookup]\n');
    expect(r.mask('$ hiera api_token\nQm9vYXJ4Mzk5NzJrcXBv\n')).toBe('$ hiera api_token\n[masked: secret printed by hiera]\n');
    expect(new Redactor().maskCommandOutput('puppet lookup profile::db::host', '--- db-7f3a9c21e5.internal\n')).toBe('--- db-7f3a9c21e5.internal\n');
  });

  it('reads a transcript: a prompt line with a credential printer, then its output, up to the next prompt (adversary pass 71)', () => {
    const dump = '00000000: 4871 3824 774e 3276 4c72 0a              Hq8$wN2vLr.';
    const text = `$ printenv DB_PASSWORD | xxd\n${dump}\n$ ls\nREADME.md  src\nbob@box:~/app$ vault kv get -field=password secret/db\nZq8xK2mN4pR7tV9w\n+ echo done\ndone\n`;
    const out = new Redactor().mask(text);
    expect(out).not.toContain('4871 3824');
    expect(out).not.toContain('Zq8xK2mN4pR7tV9w');
    expect(out).toContain('$ ls\nREADME.md  src\n');
    expect(out).toContain('+ echo done\ndone\n');
    // A CI runner's prefix before the xtrace line and each output line (nektos/act's `| `: adversary pass 103 F46).
    const act = `[CI/deploy] ⭐ Run Main Import secrets\n| + vault kv get -field=api_key secret/ci/datadog\n| a4526968c1c1db8d994eb369c1adbcf4\n[CI/deploy]   ✅  Success\n`;
    expect(new Redactor().mask(act)).not.toContain('a4526968c1c1db8d994eb369c1adbcf4');
    const stamped = '2024-05-14T10:55:01.1184217Z + vault kv get -field=password secret/db\n2024-05-14T10:55:01.5184217Z Zq8xK2mN4pR7tV9w\n';
    expect(new Redactor().mask(stamped)).not.toContain('Zq8xK2mN4pR7tV9w');
    // A comment is no prompt: the lines under `# printenv …` in a script stay.
    const script = '# printenv API_TOKEN\nexport LOG_LEVEL=debug-verbose-mode\n';
    expect(new Redactor().mask(script)).toBe(script);
  });

  it("masks the passphrase an askpass script echoes, and keeps the script's other lines (adversary pass 61)", () => {
    const script = "#!/bin/sh\n# used by ssh-add in CI\necho 'impq-adomvye-mpxumv-lhpymu-922'\n";
    const r = new Redactor();
    expect(r.maskCommandOutput('eval "$(ssh-agent -s)"; cat "$SSH_ASKPASS"', `Agent pid 90412\n${script}`)).toBe("Agent pid 90412\n#!/bin/sh\n# used by ssh-add in CI\necho '[masked: password printed by cat of an askpass script]'\n");
    expect(r.mask('ssh-add: impq-adomvye-mpxumv-lhpymu-922')).not.toContain('impq-adomvye');
    expect(new Redactor().maskCommandOutput('cat ~/bin/git-askpass.sh', '#!/bin/sh\nprintf \'%s\\n\' "$GIT_TOKEN"\n')).toBe('#!/bin/sh\nprintf \'%s\\n\' "$GIT_TOKEN"\n');
  });

  it("masks infisical's listing under SECRET VALUE, every row of its box table, and keeps the names and short values (adversary pass 59)", () => {
    const rows = [['SIGNING_SALT', 'Xk9mQ2vR7zL4pW8nQm7x'], ['LOG_LEVEL', 'info'], ...Array.from({ length: 12 }, (_, i) => [`HOOK_${i}`, `gZBN7iJf08fR6sVRxAtck2gU7jKc${String(i).padStart(4, '0')}`])];
    const table = `┌──────────────┬──────────────────────────────────┬─────────────┐\n│ SECRET NAME  │ SECRET VALUE                     │ SECRET TYPE │\n├──────────────┼──────────────────────────────────┼─────────────┤\n${rows.map(([n, v]) => `│ ${n.padEnd(12)} │ ${v.padEnd(32)} │ shared      │`).join('\n')}\n└──────────────┴──────────────────────────────────┴─────────────┘\n`;
    const out = new Redactor().maskCommandOutput('infisical secrets --env=prod', table);
    for (const [n, v] of rows) {
      expect(out).toContain(n);
      if (v.length > 6) expect(out).not.toContain(v);
    }
    expect(out).toContain('│ info ');
  });

  it("masks the last word of any command's line still being printed when it may be a value cut mid-way (adversary passes 50, 54)", () => {
    const open = (command: string, before: string, partial: string) => {
      const r = new Redactor();
      r.noteCommand('c1', command);
      r.stream('c1').pushBytes(Buffer.from(`${before}${partial}`.replace(/\n/g, '\r\n')));
      const n = before.split('\n').length;
      return { page: r.maskLines('c1', [{ n, text: partial }])[0].text, status: r.mask(`c1 running 1s, ${n} lines, last: "${partial.trim().slice(0, 80)}"`) };
    };
    const tripleQuote = '"'.repeat(3);
    const masked: [string, string, string, string][] = [
      ['cat config/production.toml', '[server]\n', 'url = "postgres://shop:ypUT.Xbdkd', 'ypUT.Xbdkd'],
      ['git remote -v', '', 'origin\thttps://ghp_5pSnk2RtTs0Hsh5x', 'ghp_5pSnk2RtTs0Hsh5x'],
      ['kubectl logs etl', '', "{'AccessKeyId': 'x', 'SecretAccessKey': 'ojGBTd3Fe9G8o0", 'ojGBTd3Fe9G8o0'],
      ['./rotate.sh', 'rotating\n', '  new api key: 1urKY2DlBnvd', '1urKY2DlBnvd'],
      ['cat prod.toml', `[database]\npassword = ${tripleQuote}\n`, 'U7bs^EMfES', 'U7bs^EMfES'],
      ['openssl pkey -in ed.key -text -noout', 'ED25519 Private-Key:\npriv:\n    14:66:86:52:db:13:90:25:28:42:0b:19:2d:e5:35:\n', '    12:44:aa:08:b7:80:cc:2', '12:44:aa:08'],
      ['cat ~/.docker/config.json', '{\n', `\t\t\t"auth": "${'QVdTOmc5bmEzeEtTczBFcHJv'.repeat(30)}`, 'QVdTOmc5bmEzeEtTczBFcHJv'],
      // Pass 64: a journal line's `key=` value, stripe's sentence, a PuTTY key's last private line under `Private-Lines:`.
      ['journalctl -u sync-worker', '', 'Dec 01 09:12:01 box sync[812]: using key=lin_api_OSrOPz9Olc7zF8Ya', 'lin_api_OSrOPz9O'],
      ['stripe listen --forward-to localhost:8080/hook', '', '> Ready! Your webhook signing secret is whsec_a390c0d73f27664bd98d', 'whsec_a390c0d7'],
      ['cat ~/keys/bastion.ppk', `PuTTY-User-Key-File-3: ssh-rsa\nPrivate-Lines: 14\n${'A92lsivLkKWChjcS6AzZD0xWhJJEk7Yk+YrVzlO6TsfkM5wU5W+Tjs/HkMYOg63C\n'.repeat(3)}`, 'DXXREHVLACkwGzetoXbnhg', 'DXXREHVLACkw'],
    ];
    for (const [command, before, partial, piece] of masked) {
      const { page, status } = open(command, before, partial);
      expect(page, partial).not.toContain(piece);
      // (A value its label names, `new api key: …`, is masked by that name whole or cut.)
      expect(page).toMatch(/\[masked: (?:value still being printed|api key)\]/);
      expect(status, partial).not.toContain(piece);
    }
    // Ordinary lines being printed keep their last word.
    const kept: [string, string][] = [
      ['npm install', 'Downloading https://registry.npmjs.org/typescript/-/typescript-5.4.2.tgz'],
      ['npm test', '  ✓ tokenizer keeps keyboard shortcuts unchanged'],
      ['tsc -b', 'Compiling src/components/MyComponent2.tsx'],
      ['docker pull node:20', 'a1b2c3d4e5f6: Downloading [=====>   ] 12.3MB/45.6MB'],
      ['git clone https://github.com/acme/api', "Cloning into 'api'... remote: Enumerating objects"],
      ['make', 'author: Dana Smith <dana@example.com> building'],
    ];
    for (const [command, partial] of kept) expect(open(command, '', partial).page).toBe(partial);
  });

  it("remembers a printed value's base64 and a base64 value's text; reads a passphrase printed after a key; docker's .auths[].auth (adversary pass 64)", () => {
    const r = new Redactor();
    const secret = 'yAFpkCrdbN43n5k0m0KADT0PagF7c+s6z3i/kl';
    r.maskCommandOutput('aws configure get aws_secret_access_key', `${secret}\n`);
    expect(r.mask(Buffer.from(secret).toString('base64'))).not.toContain(Buffer.from(secret).toString('base64').slice(0, 20));
    const auth = Buffer.from('ci-bot:sCuJ@ekEvHNKKxrjB385H2').toString('base64');
    const r2 = new Redactor();
    expect(r2.maskCommandOutput("jq -r '.auths[].auth' ~/.docker/config.json", `${auth}\n`)).not.toContain(auth);
    expect(r2.mask('ci-bot:sCuJ@ekEvHNKKxrjB385H2')).not.toContain('sCuJ@ekEvHNKKxrjB385H2');
    const key = ['-----BEGIN ENCRYPTED PRIVATE KEY-----', 'MIIFHDBOBgkqhkiG9w0BBQ0wQTApBgkqhkiG9w0BBQwwHAQI', '-----END ENCRYPTED PRIVATE KEY-----'].join('\n');
    expect(new Redactor().maskCommandOutput('cat signing/key.enc.pem signing/.passphrase', `${key}\nmpBW^42zy5ELW9CpaMNf\n`)).not.toContain('mpBW^42zy5ELW9CpaMNf');
  });

  it("jq's outputs joined by commas: a secret's among others' (adversary pass 109 F37): the minted lines masked, the rest kept", () => {
    const refresh = 'FzivgGELxlut-Q8O_M4l4W_ch123rU_i-4O10ekEqFBAtlmdv6ASkEqF9nJfluBE';
    const out = new Redactor().maskCommandOutput(`jq -r '.tokens.refresh_token, .last_refresh, .account' ~/.codex/auth.json`, `${refresh}\n2025-06-14T09:02:44.118201Z\nalice\n`);
    expect(out).not.toContain(refresh);
    expect(out).toContain('2025-06-14T09:02:44.118201Z\nalice\n');
    // No output a secret's (`.name, .id`), or a comma inside an object's braces: no printer.
    const plain = `${refresh}\n`;
    expect(new Redactor().maskCommandOutput(`jq -r '.name, .id' items.json`, plain)).toBe(plain);
    expect(new Redactor().maskCommandOutput(`jq -c '{name: .name, id: .id}' items.json`, plain)).toBe(plain);
  });

  it("masks a printer's line still being printed in a read taken while it runs (adversary pass 50 F32), and only a printer's", () => {
    const token = Buffer.from('GKjTrcDnWfVzwTqPxXVuWOxQ5cwrgX0KOUjeSxBy').toString('base64');
    const half = token.slice(0, 28);
    const r = new Redactor();
    r.noteCommand('c2', 'echo -n "$API_TOKEN" | base64');
    r.stream('c2').pushBytes(Buffer.from(half));
    // The page's last line, and a status line's `last:` that cut it.
    const page = r.maskLines('c2', [{ n: 1, text: half }]);
    expect(page[0].text).toBe('[masked: $API_TOKEN value printed by echo]');
    expect(r.mask(`c2 running 1s, 1 lines, last: "${half.slice(0, 20)}…"`)).not.toContain(half.slice(0, 16));
    // A half line of words from a command that prints no credential stays (a made word alone is openTail's: the test above).
    const other = new Redactor();
    other.noteCommand('c3', 'cat build.log');
    const words = 'compiling module three of twelve';
    other.stream('c3').pushBytes(Buffer.from(words));
    expect(other.maskLines('c3', [{ n: 1, text: words }])[0].text).toBe(words);
  });
});
