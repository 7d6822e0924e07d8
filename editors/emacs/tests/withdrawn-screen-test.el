;;; withdrawn-screen-test.el --- a command's question withdrawn while eglot shows it  -*- lexical-binding: t -*-
;; Run: AGENTLS_BIN=… emacs -q --batch -l withdrawn-screen-test.el
;; (editors/emacs/tests/run runs it; $AGENTLS_EMACS names the Emacs under test).
;; A real terminal Emacs (emacs -nw, 80x24, its own tmux server) with eglot and no plugin, and
;; plan_mode.approval_timeout_secs: 3 in the run's config. The plan is approved with the keys a
;; person types; the builder runs `touch ran.txt` and agentls asks (window/showMessageRequest).
;; Nobody answers for 3 s: agentls withdraws it ($/cancelRequest), the run fails "the user did not
;; answer", and the turn ends ("Done."). eglot ignores $/cancelRequest: its completing-read stays
;; in the minibuffer, and agentls cannot close it. What agentls can do, it must: say that the
;; question was withdrawn and the command did not run (window/showMessage, in *Messages*), and
;; when the person answers Run there anyway, say again that it did not run — the screen must not
;; leave them believing it did.
(load (expand-file-name "screen-harness.el" (file-name-directory (or load-file-name buffer-file-name))) nil t)
(as-start as-run-script
          nil "plan_mode:\n  approval_timeout_secs: 3\n")

(as-wait-screen "the approval question" "Choose an option: Keep Planning" 60)
(as-answer "Accept & Build")
(as-wait-screen "the command's question" "Choose an option: Reject" 60)
;; Nobody answers: the question is withdrawn after 3 s and the turn ends with "Done.".
(let ((messages (as-wait-file "the turn to end after the question timed out" "messages.txt" "\\] Done\\." 40)))
  (unless (string-match-p "touch ran\\.txt.*withdrawn.*after 3 s.*did not run" messages)
    (as-fail "the turn has ended (the question was withdrawn after 3 s) but nothing the person can read says so: *Messages* has no line naming `touch ran.txt`, withdrawn after 3 s, did not run:\n%s" messages)))
;; The person comes back and answers Run in the minibuffer that still asks.
(as-answer "Run")
(let* ((messages (as-wait-file "a word about the late answer" "messages.txt" "answer \"Run\" came after" 20))
       (line (seq-find (lambda (l) (string-match-p "answer \"Run\" came after" l)) (split-string messages "\n"))))
  (unless (and (string-match-p "touch ran\\.txt" line) (string-match-p "withdrawn" line) (string-match-p "did not run" line))
    (as-fail "the late answer's message does not say that `touch ran.txt` was withdrawn and did not run:\n%s" messages)))
(when (file-exists-p (expand-file-name "ran.txt" as-dir))
  (as-fail "the command ran after its question was withdrawn"))
(let ((screen (replace-regexp-in-string "\\\\\n" "" (as-screen)))) ; a line Emacs wrapped, joined
  (with-temp-file (expand-file-name "screen-late-answer.txt" as-dir) (insert screen))
  (unless (string-match-p "did not run" screen)
    (as-fail "after the late answer the echo area does not say the command did not run")))
(as-pass "a withdrawn command's question says so, and a late answer to it is told the command did not run")
