/**
 * An unprivileged user with a password, allowed to run one harmless command with sudo, for the
 * credential-blind sudo handoff test (issue 22): as root sudo asks no password, so the most
 * common real handoff can only be proven as another user. Needs root (CI runs as root): the
 * test is skipped with that reason otherwise.
 *
 * Each run has its own user (`mish-sudo-<pid>`), so colleagues' runs never share one; users
 * left behind by a run that was killed (its pid gone) are removed by the next.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { execFileSync, spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';

const PREFIX = 'mish-sudo-';
/** The one command the user may run with sudo (and must type the password for). */
export const SUDO_COMMAND = '/usr/bin/true';

export interface SudoUser {
  name: string;
  uid: number;
  gid: number;
  password: string;
  /** Its HOME (owned by it) in the temp directory. */
  home: string;
  /** argv prefix running a program as this user (setpriv: no PAM, no login, our environment). */
  asUser(argv: string[]): { command: string; args: string[] };
  /** Removes the user, its group, its sudoers rule and its HOME. */
  dispose(): void;
}

const sudoersFile = (name: string) => path.join('/etc/sudoers.d', name);

function removeUser(name: string): void {
  rmSync(sudoersFile(name), { force: true });
  rmSync(path.join('/run/sudo/ts', name), { force: true });
  spawnSync('userdel', [name], { stdio: 'ignore' });
}

/** Removes the users of runs that ended without cleaning up (their pid is gone). */
function sweepLeftovers(): void {
  let passwd = '';
  try {
    passwd = readFileSync('/etc/passwd', 'utf8');
  } catch {
    return;
  }
  for (const m of passwd.matchAll(new RegExp(`^(${PREFIX}(\\d+)):`, 'gm'))) {
    const pid = Number(m[2]);
    let alive = true;
    try {
      process.kill(pid, 0);
    } catch {
      alive = false;
    }
    if (!alive) removeUser(m[1]);
  }
}

export function createSudoUser(): SudoUser {
  sweepLeftovers();
  const name = `${PREFIX}${process.pid}`;
  removeUser(name);
  const home = mkdtempSync(path.join(tmpdir(), `${name}-home-`));
  execFileSync('useradd', ['--user-group', '--no-create-home', '--home-dir', home, '--shell', '/bin/bash', name], { stdio: 'pipe' });
  const password = `pw-${randomBytes(9).toString('base64url')}`;
  execFileSync('chpasswd', [], { input: `${name}:${password}\n`, stdio: ['pipe', 'pipe', 'pipe'] });
  const uid = Number(execFileSync('id', ['-u', name], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', name], { encoding: 'utf8' }).trim());
  chownSync(home, uid, gid);
  mkdirSync(path.join(home, '.run'), { mode: 0o700 });
  chownSync(path.join(home, '.run'), uid, gid);
  // The password is asked every time (timestamp_timeout=0), and no lecture before the prompt.
  const rule = `Defaults:${name} lecture=never, timestamp_timeout=0\n${name} ALL=(root) ${SUDO_COMMAND}\n`;
  const tmp = `${sudoersFile(name)}.tmp`;
  writeFileSync(tmp, rule, { mode: 0o440 });
  const check = spawnSync('visudo', ['-cf', tmp], { encoding: 'utf8' });
  if (check.status !== 0) {
    rmSync(tmp, { force: true });
    removeUser(name);
    throw new Error(`sudoers rule rejected by visudo: ${check.stdout}${check.stderr}`);
  }
  chmodSync(tmp, 0o440);
  execFileSync('mv', [tmp, sudoersFile(name)]);
  return {
    name,
    uid,
    gid,
    password,
    home,
    asUser: (argv) => ({ command: 'setpriv', args: ['--reuid', String(uid), '--regid', String(gid), '--init-groups', '--', ...argv] }),
    dispose() {
      removeUser(name);
      rmSync(home, { recursive: true, force: true });
    },
  };
}
