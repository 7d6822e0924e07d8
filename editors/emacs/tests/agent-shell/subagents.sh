# shellcheck shell=bash
# `editors/emacs/tests/agent-shell/run subagents` (sourced by run; play runs once agent-shell is up): two
# plan-mode explorers (script-subagents.yaml, issue 23). Their tool calls come as tool calls of the
# parent session (with _meta["agentls/parentToolCallId"]); agent-shell must show them on the
# screen: summed up in the activity run's label, then, opened, the two task calls, the first
# explorer's grep and its refused write, the second's read; then the parent's answer. Nothing is
# written.

play() {
  # S1. The prompt; the answer after one activity run that agent-shell sums up: the task calls
  #     (kind think: "Thought") and the sub-agents' grep, write and read. Without the sub-agents'
  #     calls in the parent session it would read "Thought" alone.
  type_text "where is alpha?"; keys Enter
  #     (The phrases follow the calls' order, which the parallel explorers do not fix.)
  wait_screen explorers 60 "Explorers agree: alpha is in app.txt." "re:Thought, .*ran a search" \
    "re:Thought, .*edited a file" "re:Thought, .*read a file"
  # S2. The person opens that run (RET on its label, found with C-r): each call with its status
  #     glyph, the explorer's refused write failed (✗).
  keys C-r; type_text "ran a search"; keys Enter
  keys Enter
  wait_screen expanded 15 "✓ Think task explore" "✓ Find grep alpha" "✗ Edit write sneaky.txt" "✓ Read app.txt"
  [ "$(grep -cF "✓ Think task explore" "$(ls "$art"/screens/*-expanded.txt)")" = 2 ] || fail "expanded: not two task rows"
  [ ! -e "$ws/sneaky.txt" ] || fail "the explorer's refused write landed ($ws/sneaky.txt)"

  # The ACP traffic: the sub-agents' calls carried their parent task call in _meta.
  save_buffers || fail "Emacs did not save its buffers (emacsclient --eval '(agentls-test-save-buffers)') within 10s"
  log=$(ls "$art"/buffer-_acp-*_log_.txt 2>/dev/null | head -n 1)
  [ -n "$log" ] || fail "Emacs saved no ACP log buffer in $art"
  grep -qF 'agentls/parentToolCallId' "$log" || fail "no agentls/parentToolCallId in the ACP traffic ($log)"
  stderr=$(ls "$art"/buffer-acp-client-stderr*.txt 2>/dev/null | head -n 1)
  if [ -n "$stderr" ] && grep -qE "level=ERROR" "$stderr"; then
    fail "agentls logged: $(grep -E "level=ERROR" "$stderr" | head -n 1)"
  fi
  pass "(Emacs 30, agent-shell: two plan-mode explorers' tool calls on the screen, the refused write included)"
}
