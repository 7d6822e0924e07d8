;;; put-aside-screen-test.el --- C-g on a command's question in eglot, then agentls.answer  -*- lexical-binding: t -*-
;; Run: AGENTLS_BIN=… emacs -q --batch -l put-aside-screen-test.el
;; (editors/emacs/tests/run runs it; $AGENTLS_EMACS names the Emacs under test).
;; A real terminal Emacs (emacs -nw, 80x24, its own tmux server) with eglot and no plugin. The plan
;; is approved with the keys a person types; the builder runs `touch ran.txt` and agentls asks
;; (window/showMessageRequest, eglot's completing-read). The person presses C-g, as one does to put
;; a question aside. eglot answers nothing then: `quit' is no `error', so jsonrpc's handler sends
;; no reply ("error in process filter: Quit"), and agentls would wait for it until
;; plan_mode.approval_timeout_secs (a day by default). docs/editors.md tells plain editors to
;; answer questions "with the next prompt, or agentls.answer": the person answers with
;; agentls.answer {"answers": {"decision": "allow_once"}} (C-c a below), after reading it. The
;; question is still pending while its turn waits (agent/answers.go): the command runs.
(load (expand-file-name "screen-harness.el" (file-name-directory (or load-file-name buffer-file-name))) nil t)
(as-start as-run-script
          ;; C-c a: agentls.answer as a person would run it; its result or error in answer.txt.
          "(global-set-key (kbd \"C-c a\") (lambda () (interactive)
  (let ((msg (condition-case e (format \"agentls.answer: %S\" (eglot-execute-command as-server \"agentls.answer\" (vector (list :answers (list :decision \"allow_once\")))))
               (error (format \"agentls.answer failed: %s\" (error-message-string e))))))
    (message \"%s\" msg)
    (with-temp-file (expand-file-name \"answer.txt\" as-dir) (insert msg)))))
")

(as-wait-screen "the approval question" "Choose an option: Keep Planning" 60)
(as-answer "Accept & Build")
(as-wait-screen "the command's question" "Choose an option: Reject" 60)
;; The person puts the question aside, reads it again, then answers it with agentls.answer.
(as-tmux "send-keys" "C-g")
(as-wait-screen "the question to go" "Quit" 20)
(sleep-for as-person-reads)
(as-tmux "send-keys" "C-c" "a")
(let ((answer (as-wait-file "agentls.answer to return" "answer.txt" "." 30))
      (ran (expand-file-name "ran.txt" as-dir))
      (deadline (+ (float-time) 20)))
  (while (and (not (file-exists-p ran)) (< (float-time) deadline)) (sleep-for 0.2))
  (unless (file-exists-p ran)
    (as-fail "after C-g the command's question can no longer be answered: %s; the turn waits for a reply eglot will never send (ran.txt not made)" answer))
  ;; The turn goes on and ends as with an answer in the minibuffer.
  (as-wait-file "the turn to end" "messages.txt" "\\] Done\\." 30))
(as-pass "a command's question put aside with C-g is answered with agentls.answer: the command runs")
