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
(require 'cl-lib)
(unless (executable-find "tmux") ; it reads a real terminal's screen (CI: scripts/install-tmux)
  (princ "skip approval-screen-test.el: no tmux\n") (kill-emacs 0))

(defvar as-dir (file-name-as-directory (make-temp-file "agentls-screen" t)) "The workspace.")
(defvar as-socket (format "agentls-as-%d" (emacs-pid)) "The tmux server's socket name (-L).")

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

(as-wait-screen "the approval question" "Choose an option" 60)
(let ((screen (as-screen)))
  (with-temp-file (expand-file-name "screen-approval.txt" as-dir) (insert screen))
  (unless (or (string-match-p "Greeting" screen) (string-match-p "Change hello\\.txt" screen))
    (as-fail "the approval question is on the screen but the plan is not: neither its title (Greeting) nor its steps (Change hello.txt) can be read")))
(as-tmux "kill-server")
(princ "ok   approval on a real 80x24 screen: the plan is readable while its question waits\n")
(kill-emacs 0)
