;;; approval-focus-screen-test.el --- the keys typed to answer an approval  -*- lexical-binding: t -*-
;; Run: AGENTLS_BIN=… emacs -q --batch -l approval-focus-screen-test.el
;; (editors/emacs/tests/run runs it; $AGENTLS_EMACS names the Emacs under test).
;; A real terminal Emacs (emacs -nw, 80x24, its own tmux server) with eglot and no plugin. The
;; agent writes a plan and asks its approval: window/showMessageRequest (eglot's completing-read,
;; pre-filled with the first action, "Keep Planning") and, beside it, window/showDocument for the
;; plan with takeFocus (agent/approval_dialog.go showBeside, server/notify.go ShowDocument).
;; Emacs 30's eglot declares showDocument and opens the plan from a timer, with pop-to-buffer:
;; while the question's minibuffer waits, the plan's window becomes the selected one. A person
;; then types the answer as the question shows it (C-a C-k to clear the pre-filled action,
;; "Accept & Build", RET): the keys must answer the question, not edit the plan being approved.
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

(as-wait-screen "the approval question" "Choose an option: Keep Planning" 60)
;; Emacs 30 opens the plan beside the question (a window on greet.plan); Emacs 28 does not.
(let ((deadline (+ (float-time) 5)))
  (while (and (not (string-match-p "greet\\.plan" (as-screen))) (< (float-time) deadline)) (sleep-for 0.2)))
;; A person reads the question first: an answer within 300 ms approves nothing (docs/guard.md).
(sleep-for as-person-reads)
(as-tmux "send-keys" "C-a" "C-k")
(as-tmux "send-keys" "-l" "Accept & Build")
(as-wait-screen "the typed answer" "Accept & Build$" 20)
(let ((screen (as-screen)))
  (with-temp-file (expand-file-name "screen-typed.txt" as-dir) (insert screen))
  (unless (string-match-p "Choose an option: Accept & Build" screen)
    (as-fail "the keys typed to answer the approval did not reach its question (still \"Choose an option: Keep Planning\"): they went to the window showing the plan"))
  (with-temp-buffer
    (insert-file-contents (expand-file-name "plans/greet.plan" as-dir))
    (let ((plan (buffer-string)))
      (when (string-match-p "Accept & Build" plan)
        (as-fail "the answer was written into the plan")))))
(as-pass "the keys typed to answer the approval reach its question")
