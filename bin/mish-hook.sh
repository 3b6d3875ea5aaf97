#!/usr/bin/env bash
# The fast front of `mish hook <agent>`: what `mish init` writes for an agent's hook,
#   '<bash>' '<mish>/bin/mish-hook.sh' '<node>' hook <agent> --timeout N
# It runs before every command the agent runs, and a Node start alone is ~100 ms on a small
# machine; bash starts in ~2 ms. It hands the payload to this user's hook daemon
# (src/main/hooks/hook-daemon.ts), which answers at once what needs nobody (an allowed command:
# no opinion, or its rewrite) exactly as the node hook would. Anything else — no daemon, a slow,
# dead or wedged one, a refusal or an escalation (the daemon answers "slow"), a reply that is
# not exactly one for this request, an unusual payload, bash older than 4 — runs the node hook
# (bin/mish-hook.cjs) with the same arguments and the same stdin bytes: it decides as it always
# did and answers ask or deny on any error. Never an answer of its own.
#
# Transport (no socket, token or HMAC): a 0700 directory of the user's; the request in a 0600
# file q.<id>, the reply on a FIFO a.<id> of ours, the id written as one short line (atomic) to
# the daemon's FIFO req. Only bash builtins on the fast path but one mkfifo.

if [ -z "${BASH_VERSINFO:-}" ] || [ "${BASH_VERSINFO[0]}" -lt 4 ]; then
  # bash 3.2 (macOS's /bin/bash): `read -t` takes whole seconds and `-v`/`-N` are missing; mish init
  # writes the node launcher there, and a front run by it anyway just runs the node hook.
  node=$1
  shift
  exec "$node" "$(dirname -- "$0")/mish-hook.cjs" "$@"
fi

# Bytes, not characters, for read -n and ${#…}; the node hook gets the caller's own locale back.
if [ -n "${LC_ALL+x}" ]; then lc_all_was=$LC_ALL; lc_all_set=1; else lc_all_set=0; fi
LC_ALL=C
restore_locale() {
  if [ "$lc_all_set" = 1 ]; then LC_ALL=$lc_all_was; else unset LC_ALL; fi
}
node=$1
shift
here=${BASH_SOURCE[0]%/*}
[ "$here" = "${BASH_SOURCE[0]}" ] && here=.

# MISH_HOOK_FRONT_TRACE=<file>: one line per call saying who answered (tests, diagnosis).
trace() {
  if [ -n "${MISH_HOOK_FRONT_TRACE:-}" ]; then printf '%s\n' "$1" >> "$MISH_HOOK_FRONT_TRACE"; fi 2>/dev/null
}

# The node hook, with the payload bytes this front already read (if any) put back before the rest of stdin.
run_node() {
  restore_locale
  trace "node: $why"
  if [ -n "${req:-}" ]; then rm -f -- "$dir/q.$req" "$dir/a.$req" 2>/dev/null; fi
  if [ "$consumed" = 1 ]; then
    exec "$node" "$here/mish-hook.cjs" "$@" --from-front < <(printf '%s' "$payload"; [ "$more" = 1 ] && exec cat 2>/dev/null)
  fi
  exec "$node" "$here/mish-hook.cjs" "$@" --from-front
}

# Seconds the front waits for the daemon's reply: a warm decision takes ~1-5 ms, a first one
# (the policy read from its cache) ~100 ms, more on a loaded machine; past this the node hook
# decides instead (its own start is ~100+ ms, so waiting longer would only add to it).
REPLY_TIMEOUT=1.5
# Seconds a host may take to finish writing the payload before the front gives up on it (the node
# hook then answers the host's ask or deny at once): at most 10, and within the host's own hook
# timeout (--timeout N): the node hook's deadline there (N less min(5, N/2) s, hook-command.ts)
# less 1.5 s for its start on a loaded machine, at least 0.5 s. A front that waited out the host's
# timeout would be killed, and some hosts run the command then.
STDIN_TIMEOUT_MAX_MS=10000
STDIN_TIMEOUT_MIN_MS=500
NODE_START_MS=1500
stdin_wait_ms=$STDIN_TIMEOUT_MAX_MS
for ((i = 1; i <= $#; i++)); do
  t=
  if [ "${!i}" = --timeout ]; then j=$((i + 1)); t=${!j:-}; elif [[ ${!i} == --timeout=* ]]; then t=${!i#--timeout=}; fi
  # Whole seconds are enough here (a fraction only shortens the wait further down).
  if [[ $t =~ ^([0-9]{1,6})(\.[0-9]*)?$ ]]; then
    ms=$((10#${BASH_REMATCH[1]} * 1000))
    margin=$((ms / 2 < 5000 ? ms / 2 : 5000))
    w=$((ms - margin - NODE_START_MS))
    [ "$w" -lt "$stdin_wait_ms" ] && stdin_wait_ms=$w
  fi
done
[ "$stdin_wait_ms" -lt "$STDIN_TIMEOUT_MIN_MS" ] && stdin_wait_ms=$STDIN_TIMEOUT_MIN_MS
STDIN_TIMEOUT=$((stdin_wait_ms / 1000)).$(printf '%03d' $((stdin_wait_ms % 1000)))
# Largest payload the daemon is given (a shell call is a few KB); larger ones go to the node hook.
PAYLOAD_CAP=65536
# The environment the decision reads (src/main/hooks/hook-daemon-dir.ts FORWARDED_ENV; a test compares them).
FORWARDED_ENV=(HOME TMPDIR XDG_CONFIG_HOME XDG_STATE_HOME XDG_CACHE_HOME XDG_RUNTIME_DIR MISH_POLICY MISH_POLICY_DEFAULT MISH_AUDIT_LOG MISH_SPOOL_DIR MISH_OPERATOR_DIR CLAUDE_CONFIG_DIR CLAUDE_PROJECT_DIR CODEX_HOME CODEX_VERSION GEMINI_CLI_VERSION COPILOT_HOME CURSOR_VERSION CDPATH)

why=
consumed=0
more=0
req=
payload=
[ "${MISH_HOOK_DAEMON:-}" = 0 ] && why="MISH_HOOK_DAEMON=0" && run_node "$@"
[ -n "${HOME:-}" ] || { why="no HOME"; run_node "$@"; }

# mish's runtime dir (src/main/platform: linux-port.ts, portable-port.ts) + /hookd.
case "$OSTYPE" in
  linux*) if [ -n "${XDG_RUNTIME_DIR:-}" ]; then dir=$XDG_RUNTIME_DIR/mish/hookd; else dir=$HOME/.local/state/mish/run/hookd; fi ;;
  *) if [ -n "${TMPDIR:-}" ]; then dir=${TMPDIR%/}/mish-$UID/hookd; else why="no TMPDIR"; run_node "$@"; fi ;;
esac

# A daemon of ours runs: the directory is the user's own and no link, its FIFO is there, its pid is alive.
[ -d "$dir" ] && [ ! -L "$dir" ] && [ -O "$dir" ] && [ -p "$dir/req" ] && [ -O "$dir/req" ] || { why="no daemon FIFO"; run_node "$@"; }
pid=
{ read -r pid < "$dir/pid"; } 2>/dev/null
[[ $pid =~ ^[1-9][0-9]{0,9}$ ]] && kill -0 "$pid" 2>/dev/null || { why="no daemon process"; run_node "$@"; }
# Where /proc shows it: not a zombie (a killed daemon nobody reaped answers kill -0 but has no command line).
if [ -d /proc/self ]; then
  a0=
  { IFS= read -r -d '' a0 < "/proc/$pid/cmdline"; } 2>/dev/null
  [ -n "$a0" ] || { why="no daemon process"; run_node "$@"; }
fi

# The payload: up to the cap; a NUL byte, the cap reached or a host that stalls go to the node hook as read.
IFS= read -r -d '' -n "$PAYLOAD_CAP" -t "$STDIN_TIMEOUT" payload
rc=$?
consumed=1
if [ "$rc" -gt 128 ]; then
  # Stalled: the node hook gets no payload at all and answers the host's ask or deny ("not JSON").
  trace "node: stdin stalled (${STDIN_TIMEOUT}s)"
  restore_locale
  exec "$node" "$here/mish-hook.cjs" "$@" --from-front < /dev/null
fi
if [ "$rc" = 0 ]; then
  # Stopped at a NUL byte (read took it: it is put back) or at the cap; the rest follows from stdin.
  if [ "${#payload}" -lt "$PAYLOAD_CAP" ]; then
    trace "node: a NUL byte in the payload"
    restore_locale
    exec "$node" "$here/mish-hook.cjs" "$@" --from-front < <(printf '%s\0' "$payload"; exec cat 2>/dev/null)
  fi
  more=1
  why="payload over the cap"
  run_node "$@"
fi

cwd=$PWD
[ -n "$cwd" ] && [ "${cwd:0:1}" = / ] || { why="no cwd"; run_node "$@"; }
umask 077
req=$$.$RANDOM.$RANDOM
set -C
{
  printf '%s\0' 'mish-hook-request 1' "$here" "$node" "$cwd" "$#" "$@"
  for k in "${FORWARDED_ENV[@]}"; do
    [ -n "${!k+x}" ] && printf '%s=%s\0' "$k" "${!k}"
  done
  printf '\0%s' "$payload"
} > "$dir/q.$req" 2>/dev/null || { why="request not written"; run_node "$@"; }
set +C
mkfifo -m 600 "$dir/a.$req" 2>/dev/null || { why="no reply FIFO"; run_node "$@"; }
exec 4<> "$dir/a.$req" 2>/dev/null || { why="no reply FIFO"; run_node "$@"; }
exec 3<> "$dir/req" 2>/dev/null || { why="daemon FIFO not open"; run_node "$@"; }
# Removed since the check above, the open made a regular file there: nobody reads it (the daemon makes a new FIFO).
[ -p /dev/fd/3 ] || { exec 3>&-; why="daemon FIFO not a FIFO"; run_node "$@"; }
printf '%s\n' "$req" >&3 2>/dev/null || { why="daemon FIFO not written"; run_node "$@"; }
exec 3>&-

line=
if ! IFS= read -r -t "$REPLY_TIMEOUT" line <&4; then
  # No reply in time: the daemon is gone or wedged. Its FIFO is removed, so later calls skip it
  # at once (a daemon that finds its FIFO gone exits), and the node hook decides.
  rm -f -- "$dir/req" 2>/dev/null
  why="no reply in ${REPLY_TIMEOUT}s"
  run_node "$@"
fi
exec 4<&-
case "$line" in
  "mishd1 $req pass")
    trace fast
    exit 0
    ;;
  "mishd1 $req out {"*"}")
    printf '%s\n' "${line#"mishd1 $req out "}"
    trace fast
    exit 0
    ;;
esac
why="reply: ${line:0:200}"
run_node "$@"
