# shellcheck shell=bash
# `editors/emacs/tests/agent-shell/run run-command` (sourced by run; play runs once agent-shell is
# up): a run question for a command holding a right-to-left override (U+202E),
# `echo <U+202E>olleh > greeting.txt` (script-run-command.yaml). agentls escapes it (\u202E) in the
# request's title and content, and in the tool call's rawInput: agent-shell puts rawInput.command
# at the top of the question, in a fence of its own, whenever the title does not hold it. The
# person must never see the command reordered: Emacs displays a raw override right to left, and
# the screen would read "echo txt.gniteerg < hello", a command that is not the one that runs
# ("hello" on the screen is the override at work; the command's text holds only "olleh").
extra_config=$'plan_mode: {default_active: false}\n'
start_mode=Build

play() {
  type_text "greet"; keys Enter
  wait_screen run-question 30 "Tool Permission" "Folder: $ws" "Run (y)" 'echo \u202Eolleh'
  if grep -qF "hello" "$(screen_file run-question)"; then
    fail "the run question shows the command reordered by a raw U+202E ($(screen_file run-question)): $(grep -nF 'hello' "$(screen_file run-question)" | head -n 1 | sed 's/^ *//')"
  fi
  think; keys C-c C-c
  wait_screen rejected 30 "Cancelled"
  [ ! -e "$ws/greeting.txt" ] || fail "the rejected command ran"
  # The cancelled call's text names the command as the question did (escaped), never reordered.
  keys C-r; type_text "echo \\u202Eolleh"; keys Enter
  keys Enter
  wait_screen rejected-call 15 "did not run"
  if grep -lF "hello" "$art"/screens/*.txt >/dev/null 2>&1; then
    fail "a screen shows the command reordered by a raw U+202E: $(grep -lF "hello" "$art"/screens/*.txt | head -n 1)"
  fi
  pass "(Emacs 30, agent-shell: the run question and the cancelled call showed the command escaped only)"
}
