;;; withdrawn-audit-emacsscreen-test.el --- a command's question withdrawn while eglot shows it  -*- lexical-binding: t -*-
;; Run: AGENTLS_BIN=… emacs -q --batch -l withdrawn-audit-emacsscreen-test.el
;; (editors/emacs/tests/run-audit-emacsscreen runs it; $AGENTLS_EMACS names the Emacs under test).
;; A real terminal Emacs (emacs -nw, 80x24, its own tmux server) with eglot and no plugin, and
;; plan_mode.approval_timeout_secs: 3 in the user's config (this test's own XDG_CONFIG_HOME). The plan
;; is approved with the keys a person types; the builder runs `touch ran.txt` and agentls asks
;; (window/showMessageRequest). Nobody answers for 3 s: agentls withdraws it ($/cancelRequest, which
;; eglot ignores), the run fails "the user did not answer", and the turn ends ("Done."). The
;; person then comes back to the screen: it must not still ask "Choose an option: Reject" about a
;; question nobody waits for — or, if Emacs cannot take it away, something on the screen must say
;; it was withdrawn — because answering Run there now does nothing.
(require 'cl-lib)

(defvar as-dir (file-name-as-directory (make-temp-file "agentls-screen" t)) "The workspace.")
(defvar as-socket (format "agentls-wd-%d" (emacs-pid)) "The tmux server's socket name (-L).")

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
  (insert "name: run on screen
steps:
  - tool_calls:
      - {id: w, name: plan_write, args: {title: Greeting, path: plans/greet.plan, content: \"# Goal\\nSay hello.\\n\\n## Steps\\n- [ ] Change hello.txt\\n\"}}
  - tool_calls:
      - {id: x, name: exit_plan_mode, args: {plan_file_path: plans/greet.plan}}
  - tool_calls:
      - {id: r, name: run, args: {command: \"touch ran.txt\"}}
  - text: \"Done.\"
"))
;; The Emacs under test: eglot connected to agentls with the scripted model, the prompt sent a
;; second later, nothing else (no stub: the question is eglot's own completing-read).
(with-temp-file (expand-file-name "inner.el" as-dir)
  (insert ";;; -*- lexical-binding: t -*-
(require 'eglot)
(setq warning-minimum-level :error inhibit-startup-screen t)
;; C-c m: back to the question's minibuffer (Emacs 30 selects the plan's window beside it).
(defvar qu-server nil)
(global-set-key (kbd \"C-c a\") (lambda () (interactive)
  (let ((msg (condition-case e (format \"agentls.answer: %S\" (eglot-execute-command qu-server \"agentls.answer\" (vector (list :answers (list :decision \"allow_once\")))))
               (error (format \"agentls.answer failed: %s\" (error-message-string e))))))
    (message \"%s\" msg)
    (with-temp-file (expand-file-name \"answer.txt\" (getenv \"QU_DIR\")) (insert msg)))))
(global-set-key (kbd \"C-c m\") (lambda () (interactive) (when (active-minibuffer-window) (select-window (active-minibuffer-window)))))
(load " (prin1-to-string (expand-file-name "../agentls-jsonrpc-fix.el" (file-name-directory load-file-name))) " nil t)
(let* ((dir " (prin1-to-string as-dir) ") (eglot-sync-connect t) server)
  (find-file (expand-file-name \"hello.txt\" dir))
  (setq qu-server (setq server (eglot '(text-mode) (cons 'transient dir) 'eglot-lsp-server
                      (list (getenv \"AGENTLS_BIN\") :initializationOptions
                            (list :model (list :provider \"scripted\" :script (expand-file-name \"script.yaml\" dir))))
                      \"text\")))
  (run-at-time 0.3 0.3 (lambda () (with-current-buffer \"*Messages*\" (write-region (point-min) (point-max) (expand-file-name \"messages.txt\" dir) nil 'silent))))
  (run-at-time 1 nil (lambda () (eglot-execute-command server \"agentls.prompt\" (vector (list :text \"greet\"))))))
"))

(setenv "QU_DIR" as-dir)
(make-directory (expand-file-name "xdg/agentls" as-dir) t)
(with-temp-file (expand-file-name "xdg/agentls/config.yaml" as-dir)
  (insert "plan_mode:\n  approval_timeout_secs: 3\n"))
(setenv "XDG_CONFIG_HOME" (expand-file-name "xdg" as-dir))
(let ((env (cl-loop for v in '("AGENTLS_BIN" "AGENTLS_REAL_BIN" "TMPDIR" "XDG_CONFIG_HOME" "XDG_STATE_HOME" "XDG_CACHE_HOME" "XDG_DATA_HOME" "QU_DIR")
                    when (getenv v) append (list "-e" (concat v "=" (getenv v))))))
  (apply #'as-tmux "-f" "/dev/null" "new-session" "-d" "-x" "80" "-y" "24"
         (append env (list (format "%s -nw -q -l %s" (shell-quote-argument (or (getenv "AGENTLS_EMACS") "emacs"))
                                   (shell-quote-argument (expand-file-name "inner.el" as-dir)))))))

(as-wait-screen "the approval question" "Choose an option: Keep Planning" 60)
;; A person's answer: clear the input eglot 1.9 pre-fills (the first action), type the choice.
(as-tmux "send-keys" "C-c" "m")
(as-tmux "send-keys" "C-a" "C-k")
(as-tmux "send-keys" "-l" "Accept & Build")
(as-tmux "send-keys" "Enter")
(as-wait-screen "the command's question" "Choose an option: Reject" 60)
;; Nobody answers: the question is withdrawn after 3 s and the turn ends with "Done.".
(let ((messages (expand-file-name "messages.txt" as-dir))
      (deadline (+ (float-time) 40)))
  (while (and (not (and (file-exists-p messages)
                        (string-match-p "\\] Done\\." (with-temp-buffer (insert-file-contents messages) (buffer-string)))))
              (< (float-time) deadline))
    (sleep-for 0.2))
  (unless (< (float-time) deadline) (as-fail "the turn did not end after the question timed out"))
  ;; The person comes back: a key (C-l, harmless in the minibuffer) clears a message shown over it.
  (as-tmux "send-keys" "C-l")
  (let ((until (+ (float-time) 3)))
    (while (and (not (string-match-p "Choose an option" (as-screen))) (< (float-time) until)) (sleep-for 0.1)))
  (let ((screen (as-screen)))
    (with-temp-file (expand-file-name "screen-withdrawn.txt" as-dir) (insert screen))
    (when (and (string-match-p "Choose an option: Reject" screen) (not (string-match-p "withdrawn" screen)))
      (as-fail "the turn has ended (the question was withdrawn after 3 s) but the screen still asks it, without a word that it was withdrawn; *Messages*:\n%s"
               (with-temp-buffer (insert-file-contents messages) (buffer-string))))))
(as-tmux "kill-server")
(princ "ok   a withdrawn command's question is not left asking on the screen\n")
(kill-emacs 0)
