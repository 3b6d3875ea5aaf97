# mish shell integration for zsh. Same OSC 6474 protocol as bash.sh.
ZDOTDIR="${MISH_USER_ZDOTDIR:-$HOME}"
builtin unset MISH_USER_ZDOTDIR
if [[ -z "${MISH_SKIP_USER_RC-}" && -f "$ZDOTDIR/.zshrc" ]]; then . "$ZDOTDIR/.zshrc"; fi
if [[ -n "${MISH_RCFILE-}" ]]; then command rm -rf -- "$MISH_RCFILE"; unset MISH_RCFILE; fi
typeset -g __mish_n="${MISH_NONCE-}"
builtin unset MISH_NONCE MISH_SKIP_USER_RC
typeset -g __mish_state=idle

__mish_precmd() {
  local __mish_ec=$?   # must stay first: the status of the user's command
  if [[ "${__mish_state-}" != idle ]]; then
    __mish_state=idle
    if [[ -n "${CDPATH-}" ]]; then builtin printf '\033]6474;D;%s;%s\007' "${__mish_n-}" "$CDPATH"; fi
    builtin printf '\033]6474;E;%s;%s;%s\007' "${__mish_n-}" "$__mish_ec" "${PWD-}"
  fi
  return 0
}
__mish_s() {
  __mish_state=armed
  builtin printf '\033]6474;S;%s\007' "${__mish_n-}"
}
# Runs right after the user's command line (status preserved): a command that emptied or
# replaced precmd_functions would silence the end marker and leave the session hanging.
__mish_g() {
  local __mish_ec=$?
  if (( ! ${+precmd_functions} )); then
    precmd_functions=(__mish_precmd)
  elif (( ! ${precmd_functions[(Ie)__mish_precmd]} )); then
    precmd_functions=(__mish_precmd "${precmd_functions[@]}")
  fi
  return $__mish_ec
}
TRAPDEBUG() {
  # Only the user's top-level commands (eval'd), not function bodies: funcstack holds
  # TRAPDEBUG itself plus "(eval)" frames at top level.
  local -a __mish_fs=(${funcstack:#\(eval\)})
  (( ${#__mish_fs} <= 1 )) || return 0
  if [[ "${__mish_state-}" == armed ]]; then __mish_state=run; return 0; fi
  if [[ "${__mish_state-}" == run ]]; then
    case "${ZSH_DEBUG_CMD-}" in
      __mish_*) ;;
      # At most 4096 characters: a 1 MB command must not become a 1 MB marker.
      *) local __mish_dc="${ZSH_DEBUG_CMD[1,4096]}"
         builtin printf '\033]6474;C;%s;%s\007' "${__mish_n-}" "${__mish_dc//[$'\a\e\n']/ }" ;;
    esac
  fi
  return 0
}
precmd_functions=(__mish_precmd ${precmd_functions[@]})
# No line editor: commands arrive as plain lines, the tty echoes them before the start marker.
unsetopt zle 2>/dev/null
# PROMPT_SP/PROMPT_CR print their partial-line marker before precmd runs, i.e. inside the
# command's output: turn them off (they only decorate an interactive display).
unsetopt prompt_sp prompt_cr 2>/dev/null
PS2=''
if [[ -n "${CDPATH-}" ]]; then builtin printf '\033]6474;D;%s;%s\007' "$__mish_n" "$CDPATH"; fi
builtin printf '\033]6474;R;%s\007' "$__mish_n"
