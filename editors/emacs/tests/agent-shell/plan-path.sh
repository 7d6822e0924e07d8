# shellcheck shell=bash
# `editors/emacs/tests/agent-shell/run plan-path` (sourced by run; play runs once agent-shell is
# up): a plan approval for a plan whose file name holds Markdown link syntax: the model (it names
# its plans) writes plans/[fix](x).plan (script-plan-path.yaml). The question must name the file
# that is approved, as it is: agent-shell renders the request's title as Markdown, and a title
# with the name bare showed the link's text only, "plans/fix.plan" (another plan's name, or none).

play() {
  type_text "plan the fix"; keys Enter
  wait_screen approval 30 "Tool Permission" "Fix app.txt." "Accept & Build (y)"
  [ -f "$ws/plans/[fix](x).plan" ] || fail "the plan is not at plans/[fix](x).plan"
  local s
  s=$(cat "$(screen_file approval)")
  if ! grep -qF 'Approve the plan plans/[fix](x).plan' <<<"$s"; then
    fail "the approval never names the plan's file plans/[fix](x).plan ($(screen_file approval)); it reads: $(grep -F 'Approve the plan' <<<"$s" | head -n 1 | sed 's/^ *//')"
  fi
  if grep -qF 'plans/fix.plan' <<<"$s"; then
    fail "a line of the approval names plans/fix.plan, the link's text ($(screen_file approval)): $(grep -F 'plans/fix.plan' <<<"$s" | head -n 1 | sed 's/^ *//')"
  fi
  think; keys C-c C-c
  wait_screen kept-planning 30 "Cancelled"
  pass "(Emacs 30, agent-shell: the approval and its tool call named plans/[fix](x).plan)"
}
