# audit-acpscreen-lib.sh: the plumbing of the acpscreen audit scenarios (sourced by
# audit-acpscreen-*): agentls built from this tree in the real agent-shell on Emacs 30, in a
# terminal under tmux, configured as docs/acp.md shows, typed at with tmux send-keys; the same
# set-up as editors/emacs/tests/agent-shell/run. The scenario sets `scenario` (its name) and
# `script_file` (its scripted model) before sourcing this file, then calls start_agent_shell.
#
#   AGENTLS_EMACS30=<emacs30> AGENTLS_ACP_CLIENTS=<folder> editors/emacs/tests/agent-shell/audit-acpscreen-<name>
set -uo pipefail
cd "$(dirname "$0")/../../../.."
here=editors/emacs/tests/agent-shell

verdict() { echo "agent-shell audit $scenario: $*"; }
emacs=${AGENTLS_EMACS30:-}
clients=${AGENTLS_ACP_CLIENTS:-}
[ -n "$emacs" ] && [ -x "$emacs" ] || { verdict "FAIL AGENTLS_EMACS30 is not an Emacs 30 binary (scripts/install-clients emacs30 prints it)"; exit 1; }
for d in agent-shell acp.el shell-maker; do
  [ -f "$clients/$d/$d.el" ] || [ -f "$clients/$d/${d%.el}.el" ] || { verdict "FAIL no $d in AGENTLS_ACP_CLIENTS='$clients'"; exit 1; }
done
command -v tmux >/dev/null 2>&1 || { verdict "FAIL tmux not found (scripts/install-tmux installs it)"; exit 1; }

art=${AGENTLS_AGENT_SHELL_ARTIFACTS:-$(mktemp -d "${TMPDIR:-/tmp}/agentls-agent-shell-audit.XXXXXX")}
mkdir -p "$art"
art=$(cd "$art" && pwd)
rm -rf "$art/ws" "$art/home" "$art/xdg" "$art/screens" "$art"/buffer-*.txt "$art/emacs.pid" "$art/saved"
mkdir -p "$art/ws" "$art/home" "$art/xdg/config/agentls" "$art/xdg/state" "$art/xdg/cache" "$art/xdg/data" "$art/screens"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/agentls-asa.XXXXXX")
mkdir -m 700 "$tmp/srv"
emacsclient=$(dirname "$emacs")/../usr/bin/emacsclient.emacs
[ -x "$emacsclient" ] || emacsclient=$(command -v emacsclient || echo emacsclient)
sock=$tmp/tmux.sock
ws=$art/ws
emacs_pid=""

save_buffers() {
  rm -f "$art/saved"
  timeout 10 "$emacsclient" -s "$tmp/srv/agentls-test" --eval '(agentls-test-save-buffers)' >/dev/null 2>&1 && [ -f "$art/saved" ]
}
stop_emacs() {
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
trap 'verdict "FAIL interrupted"; exit 130' INT TERM

screen() { tmux -S "$sock" capture-pane -p -t as 2>/dev/null; }
keys() { tmux -S "$sock" send-keys -t as "$@"; }
type_text() { tmux -S "$sock" send-keys -t as -l -- "$1"; }
think() { sleep 0.5; } # a person reads a question before answering (agentls's 300 ms floor)

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

# start_agent_shell: Emacs 30 with agent-shell started (M-x agent-shell), the scripted model of
# $script_file selected in the user's config.yaml (plus $extra_config's lines; the header must
# show the mode $start_mode, default Plan).
start_agent_shell() {
  echo "Emacs: $("$emacs" --version | head -n 1); agent-shell from $clients" >&2
  go build -o "$tmp/agentls" ./cmd/agentls || fail "go build ./cmd/agentls failed"
  awk '/^### Emacs: agent-shell/{s=1} s&&/^```elisp/{b=1;next} b&&/^```/{exit} b{print}' docs/acp.md >"$art/agent-shell-config.el"
  grep -q "agent-shell-make-agent-config" "$art/agent-shell-config.el" || fail "no agent-shell configuration in docs/acp.md"
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
  until [ -s "$art/emacs.pid" ]; do [ $SECONDS -lt $deadline ] || fail "Emacs did not load init.el within 30s"; sleep 0.1; done
  emacs_pid=$(cat "$art/emacs.pid")
  wait_screen emacs 30 "*scratch*"
  keys M-x; type_text "agent-shell"; keys Enter
  wait_screen started 30 "agentls ➤ scripted ➤ ${start_mode:-Plan}" "Available /commands"
}
