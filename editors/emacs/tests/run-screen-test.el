;;; run-screen-test.el --- a command's question on a real Emacs screen  -*- lexical-binding: t -*-
;; Run: AGENTLS_BIN=… emacs -q --batch -l run-screen-test.el
;; (editors/emacs/tests/run runs it; $AGENTLS_EMACS names the Emacs under test).
;; Guard III: every permission question shows what it grants. A real terminal Emacs (emacs -nw,
;; 80x24, its own tmux server) with eglot and no plugin: the plan is approved with the keys a person
;; types (Accept & Build), then the builder runs `touch ran.txt`, which agentls asks about with
;; window/showMessageRequest ("Run `touch ran.txt`?", its folder, network and sandbox). eglot shows
;; it as a completing-read prompt; the minibuffer is at most a quarter of the frame (6 rows) and
;; scrolled to the input. While the question waits, the screen must show the command asked about,
;; with its folder, network and sandbox: a person answering Run must be able to read what runs.
;; The Emacs under test: screen-harness.el (eglot connected to agentls with the scripted model `as-run-script',
;; the prompt sent a second later, nothing else: the question is eglot's own completing-read).
(load (expand-file-name "screen-harness.el" (file-name-directory (or load-file-name buffer-file-name))) nil t)
(as-start as-run-script)

(as-wait-screen "the approval question" "Choose an option: Keep Planning" 60)
;; A person reads the question first: an answer within 300 ms approves nothing (docs/guard.md).
(as-answer "Accept & Build")
(as-wait-screen "the command's question" "Choose an option: Reject" 60)
(let ((screen (as-screen)))
  (with-temp-file (expand-file-name "screen-run.txt" as-dir) (insert screen))
  (dolist (want '(("the command" . "touch ran\\.txt") ("its folder" . "Folder: ") ("its network" . "Network: ")
                  ("its sandbox" . "Sandbox: ")))
    (unless (string-match-p (cdr want) screen)
      (as-fail "the question to run a command is on the screen without %s" (car want)))))
(as-pass "a command's question on a real 80x24 screen shows the command, its folder, network and sandbox")
