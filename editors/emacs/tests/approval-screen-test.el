;;; approval-screen-test.el --- the plan on a real Emacs screen at its approval  -*- lexical-binding: t -*-
;; Run: AGENTLS_BIN=… emacs -q --batch -l approval-screen-test.el
;; (editors/emacs/tests/run runs it; $AGENTLS_EMACS names the Emacs under test).
;; The product's promise: "a face is judged by what a person sees (… the plan on screen at approval)".
;; This test starts a real terminal Emacs (emacs -nw, 80x24, in its own tmux server) with eglot and
;; no plugin, sends agentls.prompt; the agent writes a plan and asks its approval
;; (window/showMessageRequest, eglot's completing-read). While the question waits, the screen must
;; show the plan: its title or its steps, in a window (window/showDocument, when eglot declares it)
;; or in the question. eglot 1.9 (Emacs 28) declares no window/showDocument, so agentls puts the
;; plan's steps in the question itself (server/questions.go approvalText); Emacs shows a minibuffer
;; at most max-mini-window-height (a quarter of the frame: 6 rows of 24) high, scrolled to the
;; input, so the question's first lines — the plan's name and its steps — are off the screen.
;; The Emacs under test: screen-harness.el (eglot connected to agentls with the scripted model below,
;; the prompt sent a second later, nothing else: the question is eglot's own completing-read).
(load (expand-file-name "screen-harness.el" (file-name-directory (or load-file-name buffer-file-name))) nil t)
(as-start "name: approval on screen
steps:
  - tool_calls:
      - {id: w, name: plan_write, args: {title: Greeting, path: plans/greet.plan, content: \"# Goal\\nSay hello.\\n\\n## Steps\\n- [ ] Change hello.txt\\n- [ ] Check the greeting\\n\"}}
  - tool_calls:
      - {id: x, name: exit_plan_mode, args: {plan_file_path: plans/greet.plan, allowed_commands: [\"go vet ./...\"]}}
  - text: \"Done.\"
")

(as-wait-screen "the approval question" "Choose an option" 60)
(let ((screen (as-screen)))
  (with-temp-file (expand-file-name "screen-approval.txt" as-dir) (insert screen))
  (unless (or (string-match-p "Greeting" screen) (string-match-p "Change hello\\.txt" screen))
    (as-fail "the approval question is on the screen but the plan is not: neither its title (Greeting) nor its steps (Change hello.txt) can be read")))
(as-pass "approval on a real 80x24 screen: the plan is readable while its question waits")
