#!/usr/bin/env bash
# End-to-end check of the full-screen program in a real terminal (tmux, 80x24):
# start a Tic-tac-toe game, play against the engine, open and close help, shrink and grow
# the window, save, quit, load the save back, quit with the unsaved-game question, and check
# that the shell is left usable (raw mode off, alternate screen left).
#
# Usage: tests/tui_e2e.sh 'COMMAND THAT OPENS A TIC-TAC-TOE GAME' 'COMMAND PREFIX TO LOAD A FILE'
#   e.g. tests/tui_e2e.sh 'gametree play tictactoe' 'gametree play --load'
# Exits 0 with "SKIP" when tmux is not installed.
set -euo pipefail

play_cmd=${1:?usage: tui_e2e.sh PLAY_COMMAND LOAD_COMMAND}
load_cmd=${2:?usage: tui_e2e.sh PLAY_COMMAND LOAD_COMMAND}

if ! command -v tmux >/dev/null 2>&1; then
    echo "SKIP: tmux is not installed; the terminal end-to-end test did not run"
    exit 0
fi

socket="gametree-e2e-$$"
work=$(mktemp -d)
tm() { tmux -L "$socket" -f /dev/null "$@"; }
cleanup() {
    tm kill-server >/dev/null 2>&1 || true
    # The killed shell may still be writing its history into $work: retry, never fail here.
    rm -rf "$work" 2>/dev/null || { sleep 0.2; rm -rf "$work" 2>/dev/null || true; }
}
trap cleanup EXIT

tm new-session -d -s e2e -x 80 -y 24 -c "$work" "env -i PATH=$PATH HOME=$work TERM=xterm-256color bash --norc --noprofile"
tm set-option -t e2e window-size manual >/dev/null 2>&1 || true

screen() { tm capture-pane -p -t e2e; }
send() { tm send-keys -t e2e "$@"; }
step() { echo "e2e: $*"; }

# Waits up to 15 s for TEXT on screen (or, with `gone`, for it to disappear).
wait_for() {
    local text=$1 mode=${2:-shown} i
    for i in $(seq 1 150); do
        if screen | grep -qF -- "$text"; then
            [ "$mode" = shown ] && return 0
        else
            [ "$mode" = gone ] && return 0
        fi
        sleep 0.1
    done
    echo "FAIL: '$text' was not $mode; the screen was:"
    screen
    exit 1
}

step "start a game"
send "$play_cmd; echo EXIT=\$?" Enter
wait_for "X to move (you)"
wait_for "Moves 0/0"

step "play b2 (the cursor starts there); the engine answers"
send Enter
wait_for "Moves 2/2"
wait_for "X to move (you)"

step "help overlay opens and closes"
send '?'
wait_for "Help · ? or Esc closes"
send '?'
wait_for "Help · ? or Esc closes" gone

step "a tiny window asks to be enlarged; growing it back restores the layout"
tm resize-window -t e2e -x 40 -y 12
wait_for "Enlarge the terminal"
tm resize-window -t e2e -x 80 -y 24
wait_for "Moves 2/2"
wait_for "Enlarge the terminal" gone

step "save, then quit without a question"
send s
wait_for "Saved to gametree-tictactoe-"
saved=$(cd "$work" && ls gametree-tictactoe-*.json | head -n 1)
send q
wait_for "EXIT=0"

step "the shell is usable: cooked mode, commands run"
send 'clear; stty -a | grep -q -- "-icanon" && echo RAW-MODE-LEFT-ON || echo TTY-IS-COOKED' Enter
wait_for "TTY-IS-COOKED"

step "load the save back: the same two moves"
send "clear; $load_cmd $saved; echo EXIT=\$?" Enter
wait_for "Moves 2/2"

step "play on, then q asks because the game is not saved; n keeps playing, y quits"
send Left Enter
wait_for "Moves 4/4"
send q
wait_for "Quit anyway?"
send n
wait_for "Quit anyway?" gone
send q
wait_for "Quit anyway?"
send y
wait_for "EXIT=0"

step "o opens the setup screen with the game kept; a missing file is refused there; Esc goes back"
send "clear; $load_cmd $saved; echo EXIT=\$?" Enter
wait_for "Moves 2/2"
send Left Enter
wait_for "Moves 4/4"
send o
wait_for "Esc: back to the game"
send End
send Up
send -l "missing.json"
send Enter
wait_for "not saved. Load missing.json"
send y
wait_for "missing.json: cannot be read"
send Escape
wait_for "Back to the game"
wait_for "Moves 4/4"
send q
wait_for "Quit anyway?"
send y
wait_for "EXIT=0"

step "a damaged file is refused with a message, the terminal untouched"
send "clear; echo '{ not json' > bad.json; $load_cmd bad.json; echo EXIT=\$?" Enter
wait_for "not a gametree save file"
wait_for "EXIT=1"

step "Ctrl-C quits at once"
send "clear; $play_cmd; echo EXIT=\$?" Enter
wait_for "X to move (you)"
send Enter
wait_for "Moves 2/2"
send C-c
wait_for "EXIT=0"
send 'clear; stty -a | grep -q -- "-icanon" && echo RAW-MODE-LEFT-ON || echo TTY-IS-COOKED' Enter
wait_for "TTY-IS-COOKED"

echo "PASS: terminal end-to-end"
