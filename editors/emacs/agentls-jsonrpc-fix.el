;;; agentls-jsonrpc-fix.el --- don't strand messages after a synchronous eglot request  -*- lexical-binding: t -*-
;;
;; jsonrpc.el 1.0.14 (Emacs 28) reads the server's output in `jsonrpc--process-filter', which parses
;; every message of a chunk in a loop.  When a message is the reply to a synchronous
;; `jsonrpc-request' (e.g. `eglot-execute-command'), its continuation `throw's out of the filter:
;; the messages after it in the same chunk stay unparsed in the process buffer until the server
;; writes again.  agentls.prompt's reply is followed at once by the turn's messages; when they
;; arrive in the same chunk, the turn's first question (a window/showMessageRequest) is stranded
;; and agentls waits for its answer forever.
;;
;; This advice parses the rest on a timer (0 s) whenever the filter was left by such a `throw'.
;; Load it in your init file (load "…/agentls-jsonrpc-fix.el") or paste it after (require 'eglot).
;;
;; Only Emacs 28 and 29 need it: Emacs 30's jsonrpc.el (1.0.25) queues every message of a read
;; before it dispatches any, so nothing is stranded; on Emacs 30 and later this file does nothing
;; (editors/emacs/tests/run runs the eglot test on Emacs 30 with the server's output batched and
;; without the advice).
(require 'jsonrpc)

(defvar agentls-jsonrpc--in-filter nil
  "Non-nil while `jsonrpc--process-filter' runs (its loop parses what is left).")

(defun agentls-jsonrpc--finish-filter (orig proc string)
  "Run ORIG (`jsonrpc--process-filter') on PROC and STRING; if it exits non-locally,
parse the messages it left in PROC's buffer from a timer."
  (let ((returned nil))
    (unwind-protect
        (let ((agentls-jsonrpc--in-filter t))
          (prog1 (funcall orig proc string) (setq returned t)))
      (unless returned
        (run-at-time 0 nil (lambda ()
                             (when (and (process-live-p proc) (not agentls-jsonrpc--in-filter))
                               (jsonrpc--process-filter proc ""))))))))

(when (< emacs-major-version 30)
  (advice-add 'jsonrpc--process-filter :around #'agentls-jsonrpc--finish-filter))

(provide 'agentls-jsonrpc-fix)
;;; agentls-jsonrpc-fix.el ends here
