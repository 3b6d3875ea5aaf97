# mish shell integration for bash (sourced through --rcfile, or written to a temp file remotely).
#
# Protocol: private OSC 6474 sequences carrying a per-session nonce, so command output can
# never forge a boundary (the nonce lives in an unexported shell variable only):
#   ESC ] 6474 ; R ; nonce BEL                 shell ready (end of this file)
#   ESC ] 6474 ; S ; nonce BEL                 command started (printed by __mish_s)
#   ESC ] 6474 ; C ; nonce ; simple-cmd BEL    a simple command is about to run (DEBUG trap)
#   ESC ] 6474 ; D ; nonce ; cdpath BEL        the shell's CDPATH, when set (just before E: the policy
#                                              follows a relative `cd` through it; no D = unset)
#   ESC ] 6474 ; E ; nonce ; status ; cwd BEL  command ended (first thing of the prompt hook)
# Everything here must survive the user's `set -u`, `set -e` and `set -o pipefail`: no unset
# expansions, no failing commands outside conditionals, builtins only (no forks in the hot path).

# The user's own rc first, so our hooks are installed last and wrap theirs.
if [ -z "${MISH_SKIP_USER_RC-}" ] && [ -f "${HOME-}/.bashrc" ]; then
  . "$HOME/.bashrc"
fi
if [ -n "${MISH_RCFILE-}" ]; then builtin command rm -f -- "$MISH_RCFILE"; unset MISH_RCFILE; fi

__mish_n="${MISH_NONCE-}"
builtin unset MISH_NONCE MISH_SKIP_USER_RC
__mish_state=idle

# Keep the user's PROMPT_COMMAND (string or bash 5.1 array) and run it after ours.
# (The `+` form: every element, none when unset, and no error under the user's `set -u`.)
__mish_user_pc=("${PROMPT_COMMAND[@]+"${PROMPT_COMMAND[@]}"}")
builtin unset PROMPT_COMMAND

__mish_status() { return "${1-0}"; }

__mish_prompt() {
  local __mish_ec=$?   # must stay the first command: the status of the user's command
  if [ "${__mish_state-}" != idle ]; then
    __mish_state=idle
    if [ -n "${CDPATH-}" ]; then builtin printf '\033]6474;D;%s;%s\007' "${__mish_n-}" "$CDPATH"; fi
    builtin printf '\033]6474;E;%s;%s;%s\007' "${__mish_n-}" "$__mish_ec" "${PWD-}"
  fi
  local __mish_c
  for __mish_c in "${__mish_user_pc[@]}"; do
    __mish_status "$__mish_ec"
    builtin eval "$__mish_c" || :
  done
  __mish_status "$__mish_ec" || :
}

__mish_s() {
  __mish_state=armed
  builtin printf '\033]6474;S;%s\007' "${__mish_n-}"
}

# Runs right after the user's command line (same input line, status preserved). A command that
# replaced or removed PROMPT_COMMAND (`PROMPT_COMMAND='…'`, `unset PROMPT_COMMAND`) would silence
# the end marker and leave the session hanging: its value becomes the user's chained hooks
# (added to them when it kept ours, as `PROMPT_COMMAND="$PROMPT_COMMAND; x"` does), ours goes back.
__mish_g() {
  local __mish_ec=$?
  # Every element, for a string or an array, and nothing when unset (`${#x[@]}` of a string trips set -u).
  local -a __mish_all=("${PROMPT_COMMAND[@]+"${PROMPT_COMMAND[@]}"}")
  if [ "${#__mish_all[@]}" -ne 1 ] || [ "${__mish_all[0]}" != __mish_prompt ]; then
    local __mish_c __mish_kept=0
    local -a __mish_new=()
    for __mish_c in "${__mish_all[@]+"${__mish_all[@]}"}"; do
      case "$__mish_c" in
        __mish_prompt) __mish_kept=1 ;;
        *__mish_prompt*) __mish_kept=1; __mish_new+=("${__mish_c//__mish_prompt/:}") ;;
        *) __mish_new+=("$__mish_c") ;;
      esac
    done
    if [ "$__mish_kept" = 1 ]; then __mish_user_pc+=("${__mish_new[@]+"${__mish_new[@]}"}"); else __mish_user_pc=("${__mish_new[@]+"${__mish_new[@]}"}"); fi
    builtin unset PROMPT_COMMAND
    PROMPT_COMMAND='__mish_prompt'
  fi
  return "$__mish_ec"
}

__mish_debug() {
  case "${__mish_state-}" in
    armed) __mish_state=run ;;  # the `eval` that carries the user's command line
    run)
      case "${BASH_COMMAND-}" in
        __mish_*) ;;
        # At most 4096 characters: a 1 MB command must not become a 1 MB marker (mish reads the segment's name from its start).
        *) local __mish_dc="${BASH_COMMAND:0:4096}"
           builtin printf '\033]6474;C;%s;%s\007' "${__mish_n-}" "${__mish_dc//[$'\a\e\n']/ }" ;;
      esac ;;
  esac
  return 0
}

PROMPT_COMMAND='__mish_prompt'
builtin trap '__mish_debug' DEBUG
# Continuation prompts only add noise between the command's echo and its start marker.
PS2=''
# The CDPATH the user's rc left (D) comes before ready, as before every end marker.
if [ -n "${CDPATH-}" ]; then builtin printf '\033]6474;D;%s;%s\007' "$__mish_n" "$CDPATH"; fi
builtin printf '\033]6474;R;%s\007' "$__mish_n"
