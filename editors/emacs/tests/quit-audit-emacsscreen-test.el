;;; quit-audit-emacsscreen-test.el --- C-g on a command's question in eglot  -*- lexical-binding: t -*-
;; Run: AGENTLS_BIN=… emacs -q --batch -l quit-audit-emacsscreen-test.el
;; (editors/emacs/tests/run-audit-emacsscreen runs it; $AGENTLS_EMACS names the Emacs under test).
;; A real terminal Emacs (emacs -nw, 80x24, its own tmux server) with eglot and no plugin. The plan
;; is approved with the keys a person types; the builder runs `touch ran.txt` and agentls asks
;; (window/showMessageRequest, eglot's completing-read). The person presses C-g, as one does to put
;; a question aside. eglot answers nothing then: `quit' is no `error', so jsonrpc's handler sends
;; no reply ("error in process filter: Quit"), and agentls keeps waiting for the reply
;; (plan_mode.approval_timeout_secs: a day by default). docs/editors.md tells plain editors to
;; answer questions "with the next prompt, or agentls.answer": the person answers with
;; agentls.answer {"answers": {"decision": "allow_once"}} (C-c a below). The question must still be
;; answerable: the command runs.
(require 'cl-lib)

(defvar as-dir (file-name-as-directory (make-temp-file "agentls-screen" t)) "The workspace.")
(defvar as-socket (format "agentls-qu-%d" (emacs-pid)) "The tmux server's socket name (-L).")

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
  (run-at-time 1 nil (lambda () (eglot-execute-command server \"agentls.prompt\" (vector (list :text \"greet\"))))))
"))

(setenv "QU_DIR" as-dir)
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
;; The person puts the question aside, then answers it with agentls.answer.
(as-tmux "send-keys" "C-g")
(as-wait-screen "the question to go" "Quit" 20)
(as-tmux "send-keys" "C-c" "a")
(let ((answer-file (expand-file-name "answer.txt" as-dir))
      (ran (expand-file-name "ran.txt" as-dir))
      (deadline (+ (float-time) 30)))
  (while (and (not (file-exists-p answer-file)) (< (float-time) deadline)) (sleep-for 0.2))
  (unless (file-exists-p answer-file) (as-fail "agentls.answer did not return"))
  (let ((answer (with-temp-buffer (insert-file-contents answer-file) (buffer-string))))
    (setq deadline (+ (float-time) 20))
    (while (and (not (file-exists-p ran)) (< (float-time) deadline)) (sleep-for 0.2))
    (unless (file-exists-p ran)
      (as-fail "after C-g the command's question can no longer be answered: %s; the turn waits for a reply eglot will never send (ran.txt not made)" answer))))
(as-tmux "kill-server")
(princ "ok   a command's question put aside with C-g is answered with agentls.answer\n")
(kill-emacs 0)
