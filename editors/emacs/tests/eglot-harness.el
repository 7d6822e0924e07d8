;;; eglot-harness.el --- what every eglot test here shares  -*- lexical-binding: t -*-
;; Loaded first by each editors/emacs/tests/*-test.el (its name does not end in -test.el, so
;; editors/emacs/tests/run does not run it alone). Loads eglot and agentls-jsonrpc-fix.el, records
;; every message shown, and gives the tests one way to wait (bounded, on events, never a sleep)
;; and one way to fail (the reason, the tail of the server's events and the messages shown).
(require 'eglot)
(require 'cl-lib)
(load (expand-file-name "../agentls-jsonrpc-fix.el" (file-name-directory (or load-file-name buffer-file-name))) nil t)

(defvar agentls-test-shown nil "Every message shown, newest first.")
(defvar agentls-test-server nil "The eglot server of the test.")
(defvar agentls-test-choices nil "The prompts completing-read was called with, newest first.")
(defvar agentls-test-report-extra nil
  "A function returning more text to print when the test fails (nil: nothing more).")

(advice-add 'message :around
            (lambda (orig fmt &rest args)
              (when fmt (push (apply #'format fmt args) agentls-test-shown))
              (apply orig fmt args)))

(defun agentls-test-fail (fmt &rest args)
  "Prints FAIL with FMT and ARGS, what the server and Emacs showed, and exits 1."
  (princ (format "FAIL %s\n" (apply #'format fmt args)))
  (ignore-errors
    (with-current-buffer (eglot-events-buffer agentls-test-server)
      (princ (buffer-substring-no-properties (max (point-min) (- (point-max) 4000)) (point-max)))))
  (princ (format "\nmessages:\n%s\nchoices:\n%s\n" (mapconcat #'identity (reverse agentls-test-shown) "\n")
                 (mapconcat #'identity (reverse agentls-test-choices) "\n")))
  (when agentls-test-report-extra (ignore-errors (princ (funcall agentls-test-report-extra))))
  (kill-emacs 1))

(defun agentls-test-idle ()
  "Does what eglot's idle timer does when the user stops typing: reports each managed buffer's
pending changes (didChange). A batch Emacs waiting in `accept-process-output' is never idle, so
its idle timers never run."
  (dolist (b (buffer-list))
    (with-current-buffer b
      (when (bound-and-true-p eglot--managed-mode)
        (eglot--signal-textDocument/didChange)))))

(defun agentls-test-wait (what pred secs)
  "Waits at most SECS seconds for PRED, reading the server's output and reporting the buffers'
changes as an idle user's Emacs does; fails naming WHAT."
  (let ((deadline (+ (float-time) secs)))
    (while (and (not (funcall pred)) (< (float-time) deadline))
      (accept-process-output nil 0.05)
      (agentls-test-idle))
    (unless (funcall pred) (agentls-test-fail "timed out waiting for %s" what))))

(defun agentls-test-shutdown (server)
  "Shuts SERVER down as `eglot-shutdown' does, allowing 10 seconds for the answer instead of
eglot's 1.5: on a loaded machine (two cores, editors running beside) a server that answers in
time can still miss 1.5 seconds, and the test has already passed by then."
  (eglot-shutdown server nil 10))

(defun agentls-test-count (re)
  "How many messages shown match RE."
  (cl-count-if (lambda (m) (string-match-p re m)) agentls-test-shown))

(defconst agentls-test-person-reads 0.35
  "Seconds the tests' person takes over a question before answering it: agentls takes an
allowing answer given within 300 ms of its question (permission.HumanFloor) as the client's
own, not a person's, and a plan approved so stays awaiting approval (docs/guard.md).")

(defun agentls-test-answer-with (choose)
  "Answers every completing-read with (CHOOSE TITLES), recording the prompt and its choices,
after reading it as a person does (`agentls-test-person-reads')."
  (defalias 'completing-read
    (lambda (prompt collection &rest _)
      (push (format "%s %S" prompt collection) agentls-test-choices)
      (sleep-for agentls-test-person-reads)
      (funcall choose (mapcar (lambda (c) (if (consp c) (car c) c)) collection)))))

(defun agentls-test-connect (dir script)
  "Connects eglot, from the current buffer (a text file of DIR), to the agentls binary
($AGENTLS_BIN) with the scripted model SCRIPT; the server becomes `agentls-test-server'."
  (let ((eglot-sync-connect t))
    (setq agentls-test-server
          (eglot '(text-mode) (cons 'transient dir) 'eglot-lsp-server
                 (list (or (getenv "AGENTLS_BIN") "agentls")
                       :initializationOptions
                       (list :model (list :provider "scripted" :script script)))
                 "text"))))

(provide 'eglot-harness)
;;; eglot-harness.el ends here
