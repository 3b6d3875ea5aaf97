# mish shell integration for POSIX shells without prompt hooks (dash, sh): nonce'd sentinels.
# Loaded through $ENV by an interactive shell. Each command line is sent as
#   __mish_s; command eval '<command>'; __mish_e "$?"   (`command`: a syntax error must not abort the line)
# Markers: see bash.sh (same OSC 6474 protocol, no per-segment markers).
#
# An interrupt (^C, or SIGINT to the foreground job) makes the interactive shell abandon the rest
# of the command line, __mish_e included. The end marker then comes from the prompt: dash (and
# bash as sh) expand parameters in PS1 every time they print it, so PS1 prints the marker with $?
# (130 after SIGINT) and the cwd while __mish_idle is unset, i.e. between __mish_s and a
# __mish_e that never ran, then sets __mish_idle itself (`${__mish_idle=}` expands to nothing).
# PS1 holds the *name* __mish_n, never the nonce, so exporting PS1 cannot leak it. A shell that
# does not expand PS1 prints the text unexpanded, which has no nonce and passes as prompt noise.
if [ -n "${MISH_USER_ENV-}" ] && [ -f "$MISH_USER_ENV" ]; then . "$MISH_USER_ENV"; fi
if [ -n "${MISH_RCFILE-}" ]; then rm -f -- "$MISH_RCFILE"; unset MISH_RCFILE; fi
__mish_n="${MISH_NONCE-}"
unset MISH_NONCE MISH_USER_ENV
__mish_idle=
# The CDPATH marker (D, see bash.sh) comes first, from the same expansion.
__mish_ps1=$(printf '${__mish_idle-${CDPATH:+\033]6474;D;${__mish_n-};${CDPATH}\007}\033]6474;E;${__mish_n-};$?;${PWD-}\007}${__mish_idle=}$ ')
__mish_s() { unset __mish_idle; printf '\033]6474;S;%s\007' "$__mish_n"; }
# Marker first, then idle: a ^C between the two costs a second end marker, which mish ignores
# (no command is running by then), never a missing one. A command that replaced PS1 would
# silence the interrupt marker: PS1 goes back (the prompt is never shown to anyone).
__mish_e() {
  if [ -n "${CDPATH-}" ]; then printf '\033]6474;D;%s;%s\007' "$__mish_n" "$CDPATH"; fi
  printf '\033]6474;E;%s;%s;%s\007' "$__mish_n" "${1-0}" "${PWD-}"
  __mish_idle=
  [ "${PS1-}" = "$__mish_ps1" ] || PS1=$__mish_ps1
  return "${1-0}"
}
PS1=$__mish_ps1
PS2=''
if [ -n "${CDPATH-}" ]; then printf '\033]6474;D;%s;%s\007' "$__mish_n" "$CDPATH"; fi
printf '\033]6474;R;%s\007' "$__mish_n"
