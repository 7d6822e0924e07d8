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
(require 'cl-lib)
(unless (executable-find "tmux") ; it reads a real terminal's screen (CI: scripts/install-tmux)
  (princ "skip run-screen-test.el: no tmux\n") (kill-emacs 0))

(defvar as-dir (file-name-as-directory (make-temp-file "agentls-screen" t)) "The workspace.")
(defvar as-socket (format "agentls-rs-%d" (emacs-pid)) "The tmux server's socket name (-L).")

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
(global-set-key (kbd \"C-c m\") (lambda () (interactive) (when (active-minibuffer-window) (select-window (active-minibuffer-window)))))
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
;; A person's answer: clear the input eglot 1.9 pre-fills (the first action), type the choice.
;; A person reads the question first: an answer within 300 ms approves nothing (docs/guard.md).
(sleep-for 0.4)
(as-tmux "send-keys" "C-c" "m")
(as-tmux "send-keys" "C-a" "C-k")
(as-tmux "send-keys" "-l" "Accept & Build")
(as-tmux "send-keys" "Enter")
(as-wait-screen "the command's question" "Choose an option: Reject" 60)
(let ((screen (as-screen)))
  (with-temp-file (expand-file-name "screen-run.txt" as-dir) (insert screen))
  (dolist (want '(("the command" . "touch ran\\.txt") ("its folder" . "Folder: ") ("its network" . "Network: ")
                  ("its sandbox" . "Sandbox: ")))
    (unless (string-match-p (cdr want) screen)
      (as-fail "the question to run a command is on the screen without %s" (car want)))))
(as-tmux "kill-server")
(princ "ok   a command's question on a real 80x24 screen shows the command, its folder, network and sandbox\n")
(kill-emacs 0)
