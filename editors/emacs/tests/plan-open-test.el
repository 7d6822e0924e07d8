;;; plan-open-test.el --- the agent rewrites a plan open in an eglot buffer  -*- lexical-binding: t -*-
;; Run: AGENTLS_BIN=… emacs -q --batch -l plan-open-test.el   (editors/emacs/tests/run does it)
;; The first turn writes plans/greet.plan (not open: on disk); the user opens it (eglot manages
;; it); the second turn rewrites it (plan_write), edits a step right after (plan_edit, before eglot
;; reported the first edit back) and the approval stamps its status. Every change reaches the
;; buffer through workspace/applyEdit and none is written to the file behind it (docs/editors.md,
;; "A plan you have open"), so Emacs never asks "greet.plan changed on disk; really edit the
;; buffer?" — not while the agent edits, not when the user types, not when the user saves — and
;; the saved file is the buffer's plan.
(load (expand-file-name "eglot-harness.el" (file-name-directory (or load-file-name buffer-file-name))) nil t)

(defvar po-dir nil "The workspace.")
(defvar po-threats nil "Each file Emacs asked \"changed on disk; really edit the buffer?\" about.")
(defvar po-questions nil "Each yes-or-no-p question (\"… changed since visited or saved. Save anyway?\").")

;; Emacs's question, asked when a buffer is changed while its file changed on disk since it was
;; read: recorded (a user would have to answer it), answered "go on editing". (userlock is
;; loaded first: its autoload would replace the stub.)
(load "userlock" nil t)
(defalias 'ask-user-about-supersession-threat
  (lambda (fn) (push fn po-threats) nil))
(defalias 'yes-or-no-p (lambda (prompt) (push prompt po-questions) t))
(defalias 'y-or-n-p (lambda (&rest _) t))
(agentls-test-answer-with
 (lambda (titles) (or (cl-find "Accept & Build" titles :test #'equal) (car titles))))

(setq agentls-test-report-extra
      (lambda () (format "threats: %S\nquestions: %S\n" po-threats po-questions)))

(defun po-plan () (expand-file-name "plans/greet.plan" po-dir))
(defun po-disk () (with-temp-buffer (insert-file-contents (po-plan)) (buffer-string)))

(add-hook 'project-find-functions
          (lambda (d) (when (and po-dir (string-prefix-p po-dir (file-name-as-directory (expand-file-name d))))
                        (cons 'transient po-dir))))

(let* ((dir (file-name-as-directory (make-temp-file "agentls-eglot-planopen" t)))
       (script (expand-file-name "script.yaml" dir)))
  (setq po-dir dir)
  (with-temp-file (expand-file-name "hello.txt" dir) (insert "hello\n"))
  (with-temp-file script
    (insert "name: eglot plan open
steps:
  - tool_calls:
      - {id: w, name: plan_write, args: {title: Greeting, path: plans/greet.plan, content: \"# Goal\\nSay hello.\\n\\n## Steps\\n- [ ] Write hello.txt\\n\"}}
  - text: \"First draft.\"
  - tool_calls:
      - {id: w2, name: plan_write, args: {title: Greeting, path: plans/greet.plan, content: \"# Goal\\nSay hello twice.\\n\\n## Steps\\n- [ ] Write hello.txt\\n- [ ] Test it\\n\"}}
  - tool_calls:
      - {id: e2, name: plan_edit, args: {path: plans/greet.plan, old_string: \"- [ ] Test it\", new_string: \"- [ ] Test it with accents\"}}
  - tool_calls:
      - {id: x, name: exit_plan_mode, args: {plan_file_path: plans/greet.plan}}
  - expect:
      tool_result_contains: {x: ['\"approved\":true']}
    text: \"Second draft approved.\"
"))
  (find-file (expand-file-name "hello.txt" dir))
  (let* ((eglot-sync-connect t)
         (server (eglot '(text-mode) (cons 'transient dir) 'eglot-lsp-server
                        (list (or (getenv "AGENTLS_BIN") "agentls")
                              :initializationOptions
                              (list :model (list :provider "scripted" :script script)))
                        "text")))
    (setq agentls-test-server server)
    (eglot-execute-command server "agentls.prompt" (vector (list :text "plan a greeting")))
    (agentls-test-wait "the first draft" (lambda () (cl-some (lambda (m) (string-match-p "First draft\\." m)) agentls-test-shown)) 30)
    ;; the user opens the plan (eglot manages it: didOpen)
    (let ((buf (find-file-noselect (po-plan))))
      (with-current-buffer buf
        (text-mode)
        (agentls-test-wait "eglot to manage the plan" (lambda () (buffer-local-value 'eglot--managed-mode buf)) 10))
      (eglot-execute-command server "agentls.prompt" (vector (list :text "revise it")))
      (agentls-test-wait "the second draft approved" (lambda () (cl-some (lambda (m) (string-match-p "Second draft approved\\." m)) agentls-test-shown)) 60)
      (with-current-buffer buf
        ;; the buffer shows the new plan, approved; the file behind it was left alone
        (dolist (want '("Say hello twice\\." "- \\[ \\] Test it with accents" "status: approved"))
          (unless (string-match-p want (buffer-string)) (agentls-test-fail "the buffer does not show %s:\n%s" want (buffer-string))))
        (unless (buffer-modified-p) (agentls-test-fail "the edited plan's buffer is not marked modified"))
        (unless (verify-visited-file-modtime buf) (agentls-test-fail "the plan's file was written behind its buffer"))
        (when (string-match-p "twice" (po-disk)) (agentls-test-fail "the file has the new plan, written behind the buffer:\n%s" (po-disk)))
        (when po-threats (agentls-test-fail "Emacs asked whether to edit a plan changed on disk during the turn: %S" po-threats))
        ;; the user goes on editing, then saves: no question; the file is the buffer's plan
        (goto-char (point-max))
        (insert "- [ ] Say it in French\n")
        (save-buffer)
        (unless (equal (buffer-string) (po-disk)) (agentls-test-fail "the saved file is not the buffer:\n%s\n---\n%s" (buffer-string) (po-disk)))))
    (when po-threats (agentls-test-fail "Emacs asked whether to edit a buffer whose file changed on disk: %S" po-threats))
    (when po-questions (agentls-test-fail "Emacs asked: %S" po-questions))
    (agentls-test-shutdown server)
    (princ "ok   eglot: the agent rewrites, edits and approves an open plan through its buffer; no changed-on-disk question, editing and saving\n")
    (kill-emacs 0)))
