;;; screen-harness.el --- what the *-screen-test.el share: a real terminal Emacs in tmux  -*- lexical-binding: t -*-
;; Loaded first by each editors/emacs/tests/*-screen-test.el (its name does not end in -test.el, so
;; editors/emacs/tests/run does not run it alone). The test's own Emacs (batch) starts the Emacs
;; under test — `emacs -nw', 80x24, in a private tmux server — with eglot and no plugin, connected
;; to agentls ($AGENTLS_BIN) with the scripted model; it then types keys as a person does and reads
;; the screen. Skips the test (exit 0) when there is no tmux (CI: scripts/install-tmux).
(require 'cl-lib)
(require 'seq)

(defvar as-test-name (file-name-nondirectory (car (last command-line-args)))
  "The test's file name (emacs -q --batch -l the-test.el), for the skip line.")
(defvar as-tests-dir (file-name-directory (or load-file-name buffer-file-name))
  "editors/emacs/tests.")

(unless (executable-find "tmux") ; it reads a real terminal's screen
  (princ (format "skip %s: no tmux\n" as-test-name)) (kill-emacs 0))

(defvar as-dir (file-name-as-directory (make-temp-file "agentls-screen" t))
  "The workspace: hello.txt, the script, the inner Emacs's init and what the tests write down.")
(defvar as-socket (format "agentls-screen-%d" (emacs-pid)) "The tmux server's socket name (-L).")

(defconst as-person-reads 0.4
  "Seconds a person reads a question before typing its answer: agentls takes an allowing answer
given within 300 ms of its question (permission.HumanFloor) as the client's own, not a person's
(`agentls-test-person-reads' in eglot-harness.el; a little more here, as the question is on the
screen a moment after it was sent).")

(defun as-tmux (&rest args)
  "Runs tmux on the test's own server with ARGS; returns its output."
  (with-temp-buffer
    (apply #'call-process "tmux" nil t nil "-L" as-socket args)
    (buffer-string)))

(defun as-screen () "The terminal's text." (as-tmux "capture-pane" "-p"))

(defun as-fail (fmt &rest args)
  "Prints FAIL with FMT and ARGS and the screen, and exits 1."
  (princ (format "FAIL %s\nscreen (80x24):\n%s\n" (apply #'format fmt args) (as-screen)))
  (as-tmux "kill-server")
  (kill-emacs 1))

(defun as-pass (line)
  "Stops the Emacs under test and exits 0 after printing ok LINE."
  (as-tmux "kill-server")
  (princ (format "ok   %s\n" line))
  (kill-emacs 0))

(defun as-wait-screen (what re secs)
  "Waits at most SECS for the screen to match RE; fails naming WHAT."
  (let ((deadline (+ (float-time) secs)))
    (while (and (not (string-match-p re (as-screen))) (< (float-time) deadline))
      (sleep-for 0.2))
    (unless (string-match-p re (as-screen)) (as-fail "timed out waiting for %s" what))))

(defun as-file (name)
  "The text of NAME in the workspace, nil when there is no such file."
  (let ((f (expand-file-name name as-dir)))
    (when (file-exists-p f)
      (with-temp-buffer (insert-file-contents f) (buffer-string)))))

(defun as-wait-file (what name re secs)
  "Waits at most SECS for the workspace's file NAME to exist and match RE; returns its text, or
fails naming WHAT."
  (let ((deadline (+ (float-time) secs)))
    (while (and (not (string-match-p re (or (as-file name) ""))) (< (float-time) deadline))
      (sleep-for 0.2))
    (let ((text (as-file name)))
      (unless (and text (string-match-p re text)) (as-fail "timed out waiting for %s" what))
      text)))

(defun as-messages ()
  "The *Messages* buffer of the Emacs under test, as it last wrote it down (messages.txt)."
  (or (as-file "messages.txt") ""))

(defun as-answer (choice)
  "Answers the question on the screen with CHOICE as a person does, after reading it: back to the
question's minibuffer (C-c m: Emacs 30 selects the plan's window beside it), clear the input eglot
1.9 pre-fills (the first action), type the choice, Enter."
  (sleep-for as-person-reads)
  (as-tmux "send-keys" "C-c" "m")
  (as-tmux "send-keys" "C-a" "C-k")
  (as-tmux "send-keys" "-l" choice)
  (as-tmux "send-keys" "Enter"))

(defconst as-run-script "name: run on screen
steps:
  - tool_calls:
      - {id: w, name: plan_write, args: {title: Greeting, path: plans/greet.plan, content: \"# Goal\\nSay hello.\\n\\n## Steps\\n- [ ] Change hello.txt\\n\"}}
  - tool_calls:
      - {id: x, name: exit_plan_mode, args: {plan_file_path: plans/greet.plan}}
  - tool_calls:
      - {id: r, name: run, args: {command: \"touch ran.txt\"}}
  - text: \"Done.\"
"
  "The scripted model of the command-question screen tests: a plan, its approval, then the command
`touch ran.txt' (its question) and \"Done.\".")

(defun as-start (script &optional inner config)
  "Starts the Emacs under test in the workspace: hello.txt, the scripted model's SCRIPT (YAML
text), and an init that connects eglot to agentls and sends the prompt \"greet\" a second later,
nothing else (no stub: a question is eglot's own completing-read). INNER is more Lisp text for that
init, read before it connects (it may use `as-server', `as-dir' and the key bindings below). CONFIG,
when given, is agentls's config.yaml for the run (its own XDG_CONFIG_HOME).
The init binds C-c m to the question's minibuffer and writes *Messages* down to messages.txt
every 0.3 s (`as-messages')."
  (with-temp-file (expand-file-name "hello.txt" as-dir) (insert "hello\n"))
  (with-temp-file (expand-file-name "script.yaml" as-dir) (insert script))
  (when config
    (make-directory (expand-file-name "xdg/agentls" as-dir) t)
    (with-temp-file (expand-file-name "xdg/agentls/config.yaml" as-dir) (insert config))
    (setenv "XDG_CONFIG_HOME" (expand-file-name "xdg" as-dir)))
  (with-temp-file (expand-file-name "inner.el" as-dir)
    (insert ";;; -*- lexical-binding: t -*-
(require 'eglot)
(setq warning-minimum-level :error inhibit-startup-screen t)
(defvar as-dir " (prin1-to-string as-dir) ")
(defvar as-server nil \"The eglot server.\")
;; C-c m: back to the question's minibuffer (Emacs 30 selects the plan's window beside it).
(global-set-key (kbd \"C-c m\") (lambda () (interactive) (when (active-minibuffer-window) (select-window (active-minibuffer-window)))))
(load " (prin1-to-string (expand-file-name "../agentls-jsonrpc-fix.el" as-tests-dir)) " nil t)
" (or inner "") "
(let ((eglot-sync-connect t))
  (find-file (expand-file-name \"hello.txt\" as-dir))
  (setq as-server (eglot '(text-mode) (cons 'transient as-dir) 'eglot-lsp-server
                         (list (getenv \"AGENTLS_BIN\") :initializationOptions
                               (list :model (list :provider \"scripted\" :script (expand-file-name \"script.yaml\" as-dir))))
                         \"text\"))
  (run-at-time 0.3 0.3 (lambda () (with-current-buffer \"*Messages*\" (write-region (point-min) (point-max) (expand-file-name \"messages.txt\" as-dir) nil 'silent))))
  (run-at-time 1 nil (lambda () (eglot-execute-command as-server \"agentls.prompt\" (vector (list :text \"greet\"))))))
"))
  (let ((env (cl-loop for v in '("AGENTLS_BIN" "AGENTLS_REAL_BIN" "TMPDIR" "XDG_CONFIG_HOME" "XDG_STATE_HOME" "XDG_CACHE_HOME" "XDG_DATA_HOME")
                      when (getenv v) append (list "-e" (concat v "=" (getenv v))))))
    (apply #'as-tmux "-f" "/dev/null" "new-session" "-d" "-x" "80" "-y" "24"
           (append env (list (format "%s -nw -q -l %s" (shell-quote-argument (or (getenv "AGENTLS_EMACS") "emacs"))
                                     (shell-quote-argument (expand-file-name "inner.el" as-dir))))))))

(provide 'screen-harness)
;;; screen-harness.el ends here
