;;; plan-comments-test.el --- plan review comments with eglot, no plugin  -*- lexical-binding: t -*-
;; Run: AGENTLS_BIN=… emacs -q --batch -l plan-comments-test.el   (editors/emacs/tests/run does it)
;; Issue 20's plan comments in a plain editor (docs/review.md): while the plan's approval question
;; is up, the user writes two `> review:` comments in the plan's buffer (managed by eglot) and saves
;; it; the linter reports both; approving (agentls.approvePlan, as the plan's lens runs it) is
;; refused with the reason; the lens "Request changes (2 comments)" sends them; the planner's
;; revision resolves both, and the new approval question says "2 review comments were resolved."
(load (expand-file-name "eglot-harness.el" (file-name-directory (or load-file-name buffer-file-name))) nil t)

(defvar pc-dir nil "The workspace.")
(defvar pc-refusal nil "The error of agentls.approvePlan while the comments were open.")
(defvar pc-diagnostics nil "The plan's open-comment diagnostics, as published.")

(cl-defmethod eglot-handle-notification :before (_server (_method (eql textDocument/publishDiagnostics)) &key uri diagnostics &allow-other-keys)
  "Notes the open review comments the server reports for the plan."
  (when (string-suffix-p "plans/greet.plan" uri)
    (setq pc-diagnostics
          (cl-remove-if-not (lambda (d) (string-match-p "review comment" (plist-get d :message)))
                            (append diagnostics nil)))))

(defun pc-plan () (expand-file-name "plans/greet.plan" pc-dir))

;; The workspace is the project of every file under it (no VCS here), so that eglot manages the plan.
(add-hook 'project-find-functions
          (lambda (d) (when (and pc-dir (string-prefix-p pc-dir (file-name-as-directory (expand-file-name d))))
                        (cons 'transient pc-dir))))

(defun pc-lens (title-re)
  "The plan's code lens whose title matches TITLE-RE, as the server lists it."
  (let ((lenses (jsonrpc-request agentls-test-server :textDocument/codeLens
                                 (list :textDocument (list :uri (eglot--path-to-uri (pc-plan)))))))
    (cl-find-if (lambda (l) (string-match-p title-re (plist-get (plist-get l :command) :title))) lenses)))

(defun pc-run-lens (lens)
  (let ((cmd (plist-get lens :command)))
    (eglot-execute-command agentls-test-server (plist-get cmd :command) (plist-get cmd :arguments))))

(defun pc-review ()
  "The user's part while the first approval is up: two comments, saved; approve refused; request changes."
  (with-current-buffer (find-file-noselect (pc-plan))
    (text-mode) ; the server's mode: eglot manages the buffer (didOpen, didChange, didSave)
    (let ((buf (current-buffer)))
      (agentls-test-wait "eglot to manage the plan" (lambda () (buffer-local-value 'eglot--managed-mode buf)) 10))
    (goto-char (point-min))
    (re-search-forward "^- \\[ \\] Write hello.txt$")
    (insert "\n> review: name it greeting.txt")
    (re-search-forward "^- \\[ \\] Test it$")
    (insert "\n> review: test the accent")
    (save-buffer))
  ;; the linter's diagnostics of the two open comments (the last publishDiagnostics of the plan)
  (agentls-test-wait "the two comments' diagnostics" (lambda () (= (length pc-diagnostics) 2)) 15)
  ;; the plan's lenses; then the user closes the plan, so that the planner's revision is written
  ;; on disk, where this test reads it (an open plan changes only in its buffer: plan-open-test.el)
  (let ((approve (pc-lens "^Approve & Build"))
        (request (pc-lens "^Request changes (2 comments)$")))
    (unless approve (agentls-test-fail "no Approve & Build lens"))
    (unless request (agentls-test-fail "no Request changes (2 comments) lens"))
    (kill-buffer (find-file-noselect (pc-plan)))
    ;; approving while they are open is refused, with the reason
    (condition-case err (progn (pc-run-lens approve) (agentls-test-fail "approval accepted with two open comments"))
      (jsonrpc-error (setq pc-refusal (format "%S" err))))
    (pc-run-lens request)))

(agentls-test-answer-with
 (lambda (titles)
   (cond
    ;; the first approval: dismissed (it stays pending); the user reviews the plan first
    ((and (member "Accept & Build" titles) (= 1 (cl-count-if (lambda (c) (string-match-p "Accept & Build" c)) agentls-test-choices)))
     nil)
    ((member "Accept & Build" titles) "Accept & Build")
    (t (car titles)))))
(defalias 'y-or-n-p (lambda (&rest _) t))
;; A dismissed question is a null reply. eglot answers :null when completing-read gives nil (a
;; person's completing-read never does: this test's does), and jsonrpc.el cannot encode :null on
;; Emacs 28 nor 30 (json-serialize with :null-object nil: wrong-type-argument json-value-p, the
;; handler's reply is lost). Here it is encoded as nil, which is null. jsonrpc--reply's arguments
;; are (CONN ID &key result error) on Emacs 28 and (CONN ID METHOD &key result error) on 30.
(advice-add 'jsonrpc--reply :filter-args
            (lambda (args)
              (let ((result (memq :result args)))
                (if (eq (cadr result) :null)
                    (append (butlast args (length result)) (list :result nil) (cddr result))
                  args))))

(let* ((dir (file-name-as-directory (make-temp-file "agentls-eglot-comments" t)))
       (script (expand-file-name "script.yaml" dir)))
  (setq pc-dir dir)
  (with-temp-file (expand-file-name "hello.txt" dir) (insert "hello\n"))
  (with-temp-file script
    (insert "name: eglot plan comments
steps:
  - tool_calls:
      - {id: w, name: plan_write, args: {title: Greeting, path: plans/greet.plan, content: \"# Goal\\nSay hello.\\n\\n## Steps\\n- [ ] Write hello.txt\\n- [ ] Test it\\n\"}}
  - tool_calls:
      - {id: x, name: exit_plan_mode, args: {plan_file_path: plans/greet.plan}}
  - expect:
      tool_result_contains:
        x: [\"the user requests changes: 2 open review comment(s)\", \"name it greeting.txt\", \"test the accent\"]
    tool_calls:
      - {id: w3, name: plan_write, args: {title: Greeting, path: plans/greet.plan, content: \"# Goal\\nSay hello.\\n\\n## Steps\\n- [ ] Write greeting.txt\\n> resolved: named greeting.txt\\n- [ ] Test it with accents\\n> resolved: the test says accents\\n\"}}
  - tool_calls:
      - {id: x3, name: exit_plan_mode, args: {plan_file_path: plans/greet.plan}}
  - expect:
      tool_result_contains:
        x3: ['\"approved\":true']
    text: \"Approved: building.\"
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
    (agentls-test-wait "the first approval question"
             (lambda () (cl-some (lambda (c) (string-match-p "Accept & Build" c)) agentls-test-choices))
             60)
    (pc-review)
    (agentls-test-wait "the final message"
             (lambda () (cl-some (lambda (m) (string-match-p "Approved: building\\." m)) agentls-test-shown))
             60)
    (unless (and pc-refusal (string-match-p "open review comment" pc-refusal) (string-match-p "name it greeting.txt" pc-refusal))
      (agentls-test-fail "approval with open comments was not refused with the reason: %s" pc-refusal))
    (let ((approvals (cl-remove-if-not (lambda (c) (string-match-p "Accept & Build" c)) (reverse agentls-test-choices))))
      (unless (= (length approvals) 2) (agentls-test-fail "%d approval questions, want 2" (length approvals)))
      (when (string-match-p "resolved" (car approvals)) (agentls-test-fail "the first approval counts resolved comments"))
      (unless (string-match-p "2 review comments were resolved\\." (cadr approvals))
        (agentls-test-fail "the revision's approval does not say both comments were resolved")))
    (with-temp-buffer
      (insert-file-contents (pc-plan))
      (unless (string-match-p "status: approved" (buffer-string)) (agentls-test-fail "the revised plan is not approved:\n%s\nbuffer:\n%s" (buffer-string) (with-current-buffer (find-file-noselect (pc-plan)) (buffer-string))))
      (when (string-match-p "> review:" (buffer-string)) (agentls-test-fail "a comment is still open")))
    (agentls-test-shutdown server)
    (princ "ok   eglot: two plan comments, approval refused with the reason, Request changes lens, revision resolves both, approved\n")
    (kill-emacs 0)))
