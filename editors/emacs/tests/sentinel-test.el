;;; sentinel-test.el --- the run sentinel's question, through eglot  -*- lexical-binding: t -*-
;; Run: AGENTLS_BIN=… emacs -q --batch -l sentinel-test.el   (editors/emacs/tests/run does it)
;; docs/guard.md "After the command": after every `run` command agentls compares the workspace's
;; auto-run files with a snapshot taken before it. In BUILD (after the plan's approval) the
;; builder runs a command that creates .envrc (it did not exist, so no sandbox kept it). eglot, a
;; plain editor, gets the question as window/showMessageRequest (eglot's completing-read): it
;; names the command, the file and what happened to it, with Remove (restore) and Keep. Turn 1
;; answers Remove: .envrc is gone and the model reads that agentls undid it. Turn 2 answers Keep:
;; .envrc stays as the command wrote it.
(load (expand-file-name "eglot-harness.el" (file-name-directory (or load-file-name buffer-file-name))) nil t)

(defvar se-answer "Remove (restore)" "The answer to the sentinel's question.")
(defvar se-asked nil "The sentinel questions (prompt and choices), newest first.")

(agentls-test-answer-with
 (lambda (titles)
   (cond ((member "Accept & Build" titles) "Accept & Build")
         ((member "Run" titles) "Run")
         ((member se-answer titles)
          (push (car agentls-test-choices) se-asked)
          se-answer)
         (t (agentls-test-fail "an unexpected question: %S" (car agentls-test-choices))))))
(defalias 'y-or-n-p (lambda (&rest _) t))

(let* ((dir (file-name-as-directory (make-temp-file "agentls-eglot-sentinel" t)))
       (script (expand-file-name "script.yaml" dir))
       (envrc (expand-file-name ".envrc" dir))
       (cmd "printf 'export X=1\\n' > .envrc")
       (shown (lambda (re) (cl-some (lambda (m) (string-match-p re m)) agentls-test-shown))))
  (with-temp-file (expand-file-name "hello.txt" dir) (insert "hello\n"))
  (with-temp-file script
    (insert "name: eglot sentinel
steps:
  - tool_calls:
      - {id: p, name: plan_write, args: {title: Env, path: plans/env.plan, content: \"# Goal\\nAn envrc.\\n\\n## Steps\\n- [ ] Write .envrc\\n\"}}
  - tool_calls:
      - {id: x, name: exit_plan_mode, args: {plan_file_path: plans/env.plan}}
  - expect:
      tool_result_contains: {x: ['\"approved\":true']}
    tool_calls:
      - {id: r1, name: run, args: {command: " (json-encode cmd) "}}
  - expect:
      tool_result_contains: {r1: ['created .envrc', 'so agentls undid it']}
    text: \"Turn one: undone.\"
  - tool_calls:
      - {id: r2, name: run, args: {command: " (json-encode cmd) "}}
  - expect:
      tool_result_contains: {r2: ['created .envrc', 'the user was asked and kept them']}
    text: \"Turn two: kept.\"
"))
  (when (file-exists-p envrc) (agentls-test-fail ".envrc before the command"))
  (find-file (expand-file-name "hello.txt" dir))
  (let ((server (agentls-test-connect dir script)))
    ;; Turn 1: Remove.
    (eglot-execute-command server "agentls.prompt" (vector (list :text "write an envrc")))
    (agentls-test-wait "turn one's end" (lambda () (funcall shown "Turn one: undone\\.")) 60)
    (unless (= (length se-asked) 1) (agentls-test-fail "the sentinel asked %d times, not once: %S" (length se-asked) se-asked))
    (let ((q (car se-asked)))
      (dolist (want (list (concat "Keep what the command `" cmd "` did") "`.envrc`: created"
                          "outside agentls's sandbox" "\"Remove (restore)\"" "\"Keep\""))
        (unless (string-match-p (regexp-quote want) q) (agentls-test-fail "the question lacks %S: %s" want q)))
      (unless (< (string-match-p (regexp-quote "Remove (restore)") q) (string-match-p (regexp-quote "\"Keep\"") q))
        (agentls-test-fail "Remove is not the first choice: %s" q)))
    (when (file-exists-p envrc) (agentls-test-fail ".envrc is on disk after Remove"))
    ;; Turn 2: Keep.
    (setq se-answer "Keep")
    (eglot-execute-command server "agentls.prompt" (vector (list :text "again")))
    (agentls-test-wait "turn two's end" (lambda () (funcall shown "Turn two: kept\\.")) 60)
    (unless (= (length se-asked) 2) (agentls-test-fail "the second command was not asked about: %S" se-asked))
    (unless (string-match-p (regexp-quote "`.envrc`: created") (car se-asked))
      (agentls-test-fail "the second question lacks the file: %s" (car se-asked)))
    (let ((got (and (file-exists-p envrc)
                    (with-temp-buffer (insert-file-contents-literally envrc) (buffer-string)))))
      (unless (equal got "export X=1\n") (agentls-test-fail ".envrc after Keep: %S" got)))
    (agentls-test-shutdown server)
    (princ (format "ok   eglot: the sentinel's showMessageRequest names the command and .envrc; Remove undid it, Keep kept it (asked: %s)\n"
                   (car (last se-asked))))
    (kill-emacs 0)))
