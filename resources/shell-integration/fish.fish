# mish shell integration for fish (3.x): nonce'd sentinels, no per-segment markers.
# Loaded with `fish -i -C 'source <this file>'`: --init-command runs after the user's
# config.fish (and conf.d), so their settings, functions and event handlers stay in force.
# Each command line is sent as
#    __mish_s; eval '<command>'; __mish_e $status
# with a leading space, which keeps it out of the user's fish history.
# Markers: see bash.sh (same OSC 6474 protocol). The nonce lives in an unexported global only.
# fish's own decorations (greeting, title, prompt, the "⏎" after output without a newline,
# bracketed paste) are printed outside the start/end markers, so they are left as the user has them.

if set -q MISH_RCFILE
    command rm -f -- $MISH_RCFILE
    set -e MISH_RCFILE
end
set -g __mish_n "$MISH_NONCE"
set -e MISH_NONCE
set -g __mish_state idle

# Keeps $status: the user's command may read the previous command's status.
function __mish_s
    set -l __mish_ec $status
    set -g __mish_state armed
    printf '\e]6474;S;%s\a' $__mish_n
    return $__mish_ec
end

function __mish_e
    set -g __mish_state idle
    # Ending the shell: its exit reports the status (and that it ended), not an end marker.
    set -q __mish_exiting; and return $argv[1]
    set -q CDPATH[1]; and printf '\e]6474;D;%s;%s\a' $__mish_n (string join : -- $CDPATH)
    printf '\e]6474;E;%s;%s;%s\a' $__mish_n $argv[1] $PWD
    return $argv[1]
end

# An interactive fish ends at `exit` only once the whole command line has run, __mish_e
# included: remember that it is ending, so no end marker says the command finished normally.
function exit --wraps exit --description 'exit the shell (mish: no end marker)'
    set -g __mish_exiting 1
    builtin exit $argv
end

# A ^C that ends a job also cancels the rest of its command line, __mish_e included: the end
# marker then comes from here (fish_postexec fires after every interactive command line).
function __mish_postexec --on-event fish_postexec
    set -l __mish_ec $status
    if test "$__mish_state" = armed
        __mish_e $__mish_ec
    end
    return $__mish_ec
end

set -q CDPATH[1]; and printf '\e]6474;D;%s;%s\a' $__mish_n (string join : -- $CDPATH)
printf '\e]6474;R;%s\a' $__mish_n
