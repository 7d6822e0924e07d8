;;; runprogress-test.el --- what eglot shows while a BUILD command runs  -*- lexical-binding: t -*-
;; Run: AGENTLS_BIN=… emacs -q --batch -l runprogress-test.el   (editors/emacs/tests/run does it)
;; docs/protocol.md, `$/progress`: while a `run` command runs, its newest output line goes out as
;; the turn's work-done progress ("BUILD: run: <line>"). The plan is approved, the builder runs a
;; command that prints a coloured line, waits until this test creates go.flag (after it saw the
;; line), prints another line and ends.
;; Emacs 30's eglot (1.17+) declares window.workDoneProgress and, by default, shows the progress
;; in its mode-line indicator: "/?%" with the text as the indicator's help-echo (the tooltip), so
;; the line must be there, colour dropped, while the command waits, and gone once the turn ended.
;; Emacs 28's eglot (1.9) does not declare window.workDoneProgress: agentls sends no `$/progress`
;; and nothing shows the running command; the test asserts exactly that (docs/protocol.md, `$/progress`).
;; Both must show the turn's final message. The mode line and the messages, while the command
;; runs and after, are written to screen-running.txt and screen-after.txt in the test's folder.
(load (expand-file-name "eglot-harness.el" (file-name-directory (or load-file-name buffer-file-name))) nil t)

(agentls-test-answer-with
 (lambda (titles)
   (or (cl-find "Accept & Build" titles :test #'equal)
       (cl-find "Run" titles :test #'equal)
       (agentls-test-fail "an unexpected question: %S" (car agentls-test-choices)))))
(defalias 'y-or-n-p (lambda (&rest _) t))

(defun rp-progress-capable ()
  "Whether this eglot shows `$/progress' at all (1.9 has no reporters)."
  (fboundp 'eglot--progress-reporters))

(defun rp-parts (e)
  "The (TEXT . TOOLTIP) parts mode-line construct E shows: strings, `:propertize' and lists
\(what eglot's indicator is made of)."
  (cond ((stringp e) (list (cons e (get-text-property 0 'help-echo e))))
        ((and (consp e) (eq (car e) :propertize))
         (mapcar (lambda (p) (cons (car p) (or (plist-get (cddr e) 'help-echo) (cdr p))))
                 (rp-parts (cadr e))))
        ((consp e) (apply #'append (mapcar #'rp-parts e)))))

(defun rp-mode-line ()
  "Eglot's mode-line indicator of hello.txt as shown, then each part's tooltip (help-echo).
A batch Emacs's `format-mode-line' renders nothing (no real frame), so the indicator is taken
from eglot's own composer, `eglot--mode-line-format', the function its mode-line entry evaluates."
  (with-current-buffer (get-file-buffer rp-file)
    (let ((parts (and (fboundp 'eglot--mode-line-format) (rp-parts (eglot--mode-line-format)))))
      (concat "mode line: [" (string-replace "%%" "%" (mapconcat (lambda (p) (substring-no-properties (car p))) parts ""))
              "]\ntooltips:\n"
              (mapconcat (lambda (p) (format "%s: %s" (substring-no-properties (car p)) (cdr p)))
                         (cl-remove-if-not #'cdr parts) "\n")
              "\n"))))

(defun rp-capture (name)
  "Writes the mode line and the messages shown so far to NAME in the test's folder; returns them."
  (let ((text (concat (rp-mode-line) "messages:\n" (mapconcat #'identity (reverse agentls-test-shown) "\n") "\n")))
    (with-temp-file (expand-file-name name rp-dir) (insert text))
    text))

(defvar rp-dir (file-name-as-directory (make-temp-file "agentls-eglot-runprogress" t)))
(defvar rp-file (expand-file-name "hello.txt" rp-dir))
(setq agentls-test-report-extra
      (lambda ()
        (concat (rp-capture "screen-failed.txt") "events:\n"
                (with-current-buffer (jsonrpc-events-buffer agentls-test-server)
                  (buffer-substring-no-properties (max (point-min) (- (point-max) 6000)) (point-max))))))

(let* ((script (expand-file-name "script.yaml" rp-dir))
       (flag (expand-file-name "go.flag" rp-dir))
       (cmd "sh wait.sh")
       (shown (lambda (re) (cl-some (lambda (m) (string-match-p re m)) agentls-test-shown))))
  (with-temp-file rp-file (insert "hello\n"))
  ;; At most 60 s for go.flag, polled; the test creates it once it saw the first line.
  (with-temp-file (expand-file-name "wait.sh" rp-dir)
    (insert "printf '\\033[32mvetting ./pkg\\033[0m\\n'\n"
            "touch started\n"
            "i=0; while [ ! -e go.flag ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done\n"
            "echo vet finished\n"))
  (with-temp-file script
    (insert "name: eglot run progress
steps:
  - tool_calls:
      - {id: p, name: plan_write, args: {title: Vet, path: plans/vet.plan, content: \"# Goal\\nVet.\\n\\n## Steps\\n- [ ] Vet\\n\"}}
  - tool_calls:
      - {id: x, name: exit_plan_mode, args: {plan_file_path: plans/vet.plan, allowed_commands: [\"" cmd "\"]}}
  - expect:
      tool_result_contains: {x: ['\"approved\":true']}
    tool_calls:
      - {id: r, name: run, args: {command: \"" cmd "\"}}
  - expect:
      tool_result_contains: {r: ['\"exit_code\":0', 'vet finished']}
    text: \"Vet done.\"
"))
  (find-file rp-file)
  (let ((server (agentls-test-connect rp-dir script)))
    (eglot-execute-command server "agentls.prompt" (vector (list :text "vet it")))
    (if (rp-progress-capable)
        (progn
          ;; While the command waits: the line in the indicator's tooltip, colour dropped.
          (agentls-test-wait "the running command's line in the mode line"
                             (lambda () (string-match-p (regexp-quote "BUILD: run: vetting ./pkg") (rp-mode-line))) 60)
          (let ((running (rp-capture "screen-running.txt")))
            (when (string-match-p "\e\\|\\\\u001[bB]\\|\\[32m" running)
              (agentls-test-fail "the line shows its colour codes:\n%s" running))
            (unless (string-match-p "^mode line: \\[.*/\\?%\\]" running)
              (agentls-test-fail "the mode line shows no progress indicator:\n%s" running))))
      ;; eglot 1.9: nothing on the screen to wait for; the file the command makes once it printed
      ;; its line is the sign it runs. After the turn: no `$/progress' came at all (below).
      (agentls-test-wait "the command's start" (lambda () (file-exists-p (expand-file-name "started" rp-dir))) 60)
      (let ((running (rp-capture "screen-running.txt")))
        (when (string-match-p "vetting" running) (agentls-test-fail "eglot 1.9 showed progress it cannot show:\n%s" running))))
    (when (funcall shown "Vet done\\.") (agentls-test-fail "the turn ended before the command was let go on"))
    (with-temp-file flag (insert "go\n"))
    (agentls-test-wait "the final message" (lambda () (funcall shown "Vet done\\.")) 60)
    ;; After: the final message shown; the progress leaves the mode line (eglot drops an ended
    ;; reporter 2 s after its end).
    (when (rp-progress-capable)
      (agentls-test-wait "the progress to leave the mode line"
                         (lambda () (not (string-match-p "BUILD: run" (rp-mode-line)))) 10))
    (unless (rp-progress-capable)
      (with-current-buffer (jsonrpc-events-buffer server)
        (when (string-match-p "\\$/progress\\|workDoneProgress/create" (buffer-string))
          (agentls-test-fail "agentls sent work-done progress to an eglot that did not declare it"))))
    (let ((after (rp-capture "screen-after.txt")))
      (when (string-match-p "vetting" after) (agentls-test-fail "the command's line is still shown:\n%s" after)))
    (agentls-test-shutdown server)
    (princ (format "ok   eglot: %s; the final message after it (captures in %s)\n"
                   (if (rp-progress-capable) "a running command's line in the mode line's progress tooltip, colour dropped, gone after the turn"
                     "eglot 1.9 shows no progress while a command runs (no window.workDoneProgress)")
                   rp-dir))
    (kill-emacs 0)))
