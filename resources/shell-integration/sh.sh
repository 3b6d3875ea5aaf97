# mish shell integration for POSIX shells without prompt hooks (dash, sh): nonce'd sentinels.
# Loaded through $ENV by an interactive shell. Each command line is sent as
#   __mish_s; command eval '<command>'; __mish_e "$?"   (`command`: a syntax error must not abort the line)
# Markers: see bash.sh (same OSC 6474 protocol, no per-segment markers).
if [ -n "${MISH_USER_ENV-}" ] && [ -f "$MISH_USER_ENV" ]; then . "$MISH_USER_ENV"; fi
if [ -n "${MISH_RCFILE-}" ]; then rm -f -- "$MISH_RCFILE"; unset MISH_RCFILE; fi
__mish_n="${MISH_NONCE-}"
unset MISH_NONCE MISH_USER_ENV
__mish_s() { printf '\033]6474;S;%s\007' "$__mish_n"; }
__mish_e() { printf '\033]6474;E;%s;%s;%s\007' "$__mish_n" "${1-0}" "${PWD-}"; return "${1-0}"; }
PS1='$ '
PS2=''
printf '\033]6474;R;%s\007' "$__mish_n"
