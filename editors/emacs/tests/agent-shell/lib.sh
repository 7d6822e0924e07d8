# shellcheck shell=bash
# The plumbing of editors/emacs/tests/agent-shell/run (sourced by it): checks the clients, makes
# the artifacts folder, and gives the steps their tools (the screen through tmux, keys, waits with
# deadlines, Emacs's buffers saved) and start_agent_shell. The caller is at the repository's root
# and has set `here`, `scenario` and `script_file` (its scripted model, beside run).
verdict() { echo "agent-shell: $*"; }
emacs=${AGENTLS_EMACS30:-}
clients=${AGENTLS_ACP_CLIENTS:-}
[ -n "$emacs" ] && [ -x "$emacs" ] || { verdict "FAIL AGENTLS_EMACS30 is not an Emacs 30 binary (scripts/install-clients emacs30 prints it)"; exit 1; }
for d in agent-shell acp.el shell-maker; do
  [ -f "$clients/$d/$d.el" ] || [ -f "$clients/$d/${d%.el}.el" ] || { verdict "FAIL no $d in AGENTLS_ACP_CLIENTS='$clients' (scripts/install-clients acp)"; exit 1; }
done
command -v tmux >/dev/null 2>&1 || { verdict "FAIL tmux not found (scripts/install-tmux installs it)"; exit 1; }

art=${AGENTLS_AGENT_SHELL_ARTIFACTS:-$(mktemp -d "${TMPDIR:-/tmp}/agentls-agent-shell.XXXXXX")}
[ "$scenario" = plan-build ] || [ -z "${AGENTLS_AGENT_SHELL_ARTIFACTS:-}" ] || art=$art/$scenario
mkdir -p "$art"
art=$(cd "$art" && pwd)
rm -rf "$art/ws" "$art/home" "$art/xdg" "$art/screens" "$art"/buffer-*.txt "$art/emacs.pid" "$art/saved"
mkdir -p "$art/ws" "$art/home" "$art/xdg/config/agentls" "$art/xdg/state" "$art/xdg/cache" "$art/xdg/data" "$art/screens"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/agentls-as.XXXXXX")   # the binary, tmux's and Emacs's sockets (short paths)
mkdir -m 700 "$tmp/srv"
emacsclient=$(dirname "$emacs")/../usr/bin/emacsclient.emacs   # beside scripts/install-clients' Emacs 30
[ -x "$emacsclient" ] || emacsclient=$(command -v emacsclient || echo emacsclient)
sock=$tmp/tmux.sock
ws=$art/ws
emacs_pid=""

# save_buffers: Emacs writes its buffers to the artifacts (init.el's agentls-test-save-buffers,
# called through emacsclient: test plumbing, not a step of the session); bounded by 10s.
save_buffers() {
  rm -f "$art/saved"
  timeout 10 "$emacsclient" -s "$tmp/srv/agentls-test" --eval '(agentls-test-save-buffers)' >/dev/null 2>&1 && [ -f "$art/saved" ]
}
stop_emacs() { # the buffers first (SIGTERM's kill-emacs-hook is the fallback); then tmux's server
  if [ -z "$emacs_pid" ] && [ -s "$art/emacs.pid" ]; then emacs_pid=$(cat "$art/emacs.pid"); fi
  if [ -n "$emacs_pid" ] && kill -0 "$emacs_pid" 2>/dev/null; then
    [ -f "$art/saved" ] || save_buffers || echo "Emacs did not save its buffers through emacsclient" >&2
    kill -TERM "$emacs_pid" 2>/dev/null
    local deadline=$((SECONDS + 10))
    while kill -0 "$emacs_pid" 2>/dev/null && [ $SECONDS -lt $deadline ]; do sleep 0.1; done
    kill -KILL "$emacs_pid" 2>/dev/null
  fi
  [ -S "$sock" ] && tmux -S "$sock" kill-server 2>/dev/null
  rm -rf "$tmp"
}
fail() {
  stop_emacs
  echo "artifacts (screens, workspace, Emacs's buffers): $art" >&2
  verdict "FAIL $*"
  exit 1
}
pass() {
  stop_emacs
  trap - EXIT
  echo "artifacts (screens, workspace, Emacs's buffers): $art" >&2
  verdict "PASS $*"
  exit 0
}
trap 'stop_emacs' EXIT
trap 'verdict "FAIL interrupted"; exit 130' INT TERM   # the EXIT trap then stops Emacs and tmux

screen() { tmux -S "$sock" capture-pane -p -t as 2>/dev/null; }
keys() { tmux -S "$sock" send-keys -t as "$@"; }
type_text() { tmux -S "$sock" send-keys -t as -l -- "$1"; }
# A person reads a question before answering it: agentls marks an answer within 300 ms as the
# client's own (auto-approve), and this test answers as a person.
think() { sleep 0.5; }

# first_missing TEXT PATTERN...: the first pattern TEXT does not hold (fixed strings; "re:" = ERE).
first_missing() {
  local text=$1 p; shift
  for p in "$@"; do
    case $p in
    re:*) grep -qE -- "${p#re:}" <<<"$text" || { printf '%s' "$p"; return 0; } ;;
    *) grep -qF -- "$p" <<<"$text" || { printf '%s' "$p"; return 0; } ;;
    esac
  done
  return 1
}
shot=0
# wait_screen NAME SECONDS PATTERN...: waits until the screen holds every pattern; keeps it as
# screens/NN-NAME.txt.
wait_screen() {
  local name=$1 secs=$2 s miss; shift 2
  local deadline=$((SECONDS + secs))
  shot=$((shot + 1))
  while :; do
    s=$(screen)
    if ! miss=$(first_missing "$s" "$@"); then
      printf '%s\n' "$s" >"$art/screens/$(printf %02d $shot)-$name.txt"
      return 0
    fi
    if [ $SECONDS -ge $deadline ]; then
      printf '%s\n' "$s" >"$art/screens/$(printf %02d $shot)-$name-TIMEOUT.txt"
      fail "$name: no '$miss' on the screen after ${secs}s (screens/$(printf %02d $shot)-$name-TIMEOUT.txt)"
    fi
    sleep 0.2
  done
}
# screen_file NAME: the screen last kept under NAME.
screen_file() { ls "$art/screens/"*"-$1.txt" | tail -n 1; }
# screen_lacks NAME TEXT: the screen last kept must not hold TEXT.
screen_lacks() {
  local f
  f=$(ls "$art/screens/"*"-$1.txt")
  if grep -qF -- "$2" "$f"; then fail "$1: the screen shows '$2' ($f)"; fi
}
# wait_file WHAT SECONDS FILE TEXT: waits until FILE exists and holds TEXT.
wait_file() {
  local deadline=$((SECONDS + $2))
  until [ -f "$3" ] && grep -qF -- "$4" "$3"; do
    [ $SECONDS -lt $deadline ] || fail "$1: $3 does not hold '$4' after $2s"
    sleep 0.2
  done
}
expect_file() { # WHAT FILE CONTENT: FILE's content is exactly CONTENT (a trailing newline added)
  local got
  got=$(cat "$2" 2>/dev/null) || fail "$1: $2 is missing"
  [ "$got" = "$3" ] || fail "$1: $2 holds '$got', not '$3'"
}
# descendants PID: every process below PID (the command agentls runs sits under Emacs → agentls).
descendants() {
  local c
  for c in $(ps -o pid= --ppid "$1" 2>/dev/null); do
    echo "$c"
    descendants "$c"
  done
}
running_under_emacs() { # PATTERN: a process below Emacs whose command line matches
  local p
  for p in $(descendants "$emacs_pid"); do
    tr '\0' ' ' 2>/dev/null <"/proc/$p/cmdline" | grep -qE -- "$1" && return 0
  done
  return 1
}

# start_agent_shell: agentls built from this tree; Emacs 30 in a terminal under tmux with the
# configuration docs/acp.md shows (its "### Emacs: agent-shell" elisp block, loaded as is); the
# scripted model of $script_file selected in the user's config.yaml (plus $extra_config's lines);
# then M-x agent-shell, as a person would: the header must name agentls, the model and the mode
# $start_mode (default Plan).
start_agent_shell() {
  echo "Emacs: $("$emacs" --version | head -n 1); agent-shell from $clients" >&2
  go build -o "$tmp/agentls" ./cmd/agentls || fail "go build ./cmd/agentls failed"
  awk '/^### Emacs: agent-shell/{s=1} s&&/^```elisp/{b=1;next} b&&/^```/{exit} b{print}' docs/acp.md >"$art/agent-shell-config.el"
  grep -q "agent-shell-make-agent-config" "$art/agent-shell-config.el" || fail "no agent-shell configuration (an elisp block under '### Emacs: agent-shell') in docs/acp.md"
  cp "$here/$script_file" "$art/script.yaml"
  printf 'model:\n  provider: scripted\n  script: %s\n%s' "$art/script.yaml" "${extra_config:-}" >"$art/xdg/config/agentls/config.yaml"
  printf 'alpha\n' >"$ws/app.txt"
  local term=screen-256color
  infocmp tmux-256color >/dev/null 2>&1 && term=tmux-256color
  local run_emacs
  run_emacs=$(printf '%q ' env -i "PATH=$tmp:/usr/local/bin:/usr/bin:/bin" "HOME=$art/home" LANG=C.UTF-8 "TERM=$term" \
    "XDG_CONFIG_HOME=$art/xdg/config" "XDG_STATE_HOME=$art/xdg/state" "XDG_CACHE_HOME=$art/xdg/cache" "XDG_DATA_HOME=$art/xdg/data" \
    "AGENTLS_ACP_CLIENTS=$clients" "AGENTLS_AS_SNIPPET=$art/agent-shell-config.el" "AGENTLS_AS_ARTIFACTS=$art" "AGENTLS_AS_SERVER_DIR=$tmp/srv" \
    "$emacs" -nw -Q -l "$PWD/$here/init.el")
  tmux -S "$sock" -f /dev/null new-session -d -s as -x 200 -y 70 -c "$ws" "$run_emacs" || fail "tmux could not start Emacs"
  local deadline=$((SECONDS + 30))
  until [ -s "$art/emacs.pid" ]; do [ $SECONDS -lt $deadline ] || fail "Emacs did not load init.el within 30s: $(screen)"; sleep 0.1; done
  emacs_pid=$(cat "$art/emacs.pid")
  wait_screen emacs 30 "*scratch*"
  keys M-x; type_text "agent-shell"; keys Enter
  wait_screen started 30 "agentls ➤ scripted ➤ ${start_mode:-Plan}" "Available /commands"
}
