# mish: ZDOTDIR points here so zsh loads our .zshrc; the user's own files are loaded first.
__mish_zdotdir="$ZDOTDIR"
ZDOTDIR="${MISH_USER_ZDOTDIR:-$HOME}"
if [[ -z "${MISH_SKIP_USER_RC-}" && -f "$ZDOTDIR/.zshenv" ]]; then . "$ZDOTDIR/.zshenv"; fi
# Interactive shells read $ZDOTDIR/.zshrc next: make that ours again.
if [[ -o interactive ]]; then ZDOTDIR="$__mish_zdotdir"; fi
