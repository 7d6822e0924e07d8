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
(require 'cl-lib)
(unless (executable-find "tmux") ; it reads a real terminal's screen (CI: scripts/install-tmux)
  (princ "skip approval-focus-screen-test.el: no tmux\n") (kill-emacs 0))

(defvar as-dir (file-name-as-directory (make-temp-file "agentls-screen" t)) "The workspace.")
(defvar as-socket (format "agentls-af-%d" (emacs-pid)) "The tmux server's socket name (-L).")

(defun as-tmux (&rest args)
  "Runs tmux on the test's own server with ARGS; returns its output."
  (with-temp-buffer
    (apply #'call-process "tmux" nil t nil "-L" as-socket args)
    (buffer-string)))

(defun as-screen () "The terminal's text." (as-tmux "capture-pane" "-p"))

(defun as-fail (fmt &rest args)
  "Prints FAIL with the screen and exits 1."
  (princ (format "FAIL %s\nscreen (80x24):\n%s\n" (apply #'format fmt args) (as-screen)))
  (as-tmux "kill-server")
  (kill-emacs 1))

(defun as-wait-screen (what re secs)
  "Waits at most SECS for the screen to match RE; fails naming WHAT."
  (let ((deadline (+ (float-time) secs)))
    (while (and (not (string-match-p re (as-screen))) (< (float-time) deadline))
      (sleep-for 0.2))
    (unless (string-match-p re (as-screen)) (as-fail "timed out waiting for %s" what))))

(with-temp-file (expand-file-name "hello.txt" as-dir) (insert "hello\n"))
(with-temp-file (expand-file-name "script.yaml" as-dir)
  (insert "name: approval on screen
steps:
  - tool_calls:
      - {id: w, name: plan_write, args: {title: Greeting, path: plans/greet.plan, content: \"# Goal\\nSay hello.\\n\\n## Steps\\n- [ ] Change hello.txt\\n- [ ] Check the greeting\\n\"}}
  - tool_calls:
      - {id: x, name: exit_plan_mode, args: {plan_file_path: plans/greet.plan, allowed_commands: [\"go vet ./...\"]}}
  - text: \"Done.\"
"))
;; The Emacs under test: eglot connected to agentls with the scripted model, the prompt sent a
;; second later, nothing else (no stub: the question is eglot's own completing-read).
(with-temp-file (expand-file-name "inner.el" as-dir)
  (insert ";;; -*- lexical-binding: t -*-
(require 'eglot)
(setq warning-minimum-level :error inhibit-startup-screen t)
(load " (prin1-to-string (expand-file-name "../agentls-jsonrpc-fix.el" (file-name-directory load-file-name))) " nil t)
(let* ((dir " (prin1-to-string as-dir) ") (eglot-sync-connect t) server)
  (find-file (expand-file-name \"hello.txt\" dir))
  (setq server (eglot '(text-mode) (cons 'transient dir) 'eglot-lsp-server
                      (list (getenv \"AGENTLS_BIN\") :initializationOptions
                            (list :model (list :provider \"scripted\" :script (expand-file-name \"script.yaml\" dir))))
                      \"text\"))
  (run-at-time 1 nil (lambda () (eglot-execute-command server \"agentls.prompt\" (vector (list :text \"greet\"))))))
"))

(let ((env (cl-loop for v in '("AGENTLS_BIN" "AGENTLS_REAL_BIN" "TMPDIR" "XDG_CONFIG_HOME" "XDG_STATE_HOME" "XDG_CACHE_HOME" "XDG_DATA_HOME")
                    when (getenv v) append (list "-e" (concat v "=" (getenv v))))))
  (apply #'as-tmux "-f" "/dev/null" "new-session" "-d" "-x" "80" "-y" "24"
         (append env (list (format "%s -nw -q -l %s" (shell-quote-argument (or (getenv "AGENTLS_EMACS") "emacs"))
                                   (shell-quote-argument (expand-file-name "inner.el" as-dir)))))))

(as-wait-screen "the approval question" "Choose an option: Keep Planning" 60)
;; Emacs 30 opens the plan beside the question (a window on greet.plan); Emacs 28 does not.
(let ((deadline (+ (float-time) 5)))
  (while (and (not (string-match-p "greet\\.plan" (as-screen))) (< (float-time) deadline)) (sleep-for 0.2)))
;; A person reads the question first: an answer within 300 ms approves nothing (docs/guard.md).
(sleep-for 0.4)
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
(as-tmux "kill-server")
(princ "ok   the keys typed to answer the approval reach its question\n")
(kill-emacs 0)
