;;; autorun-test.el --- a file the editor runs by itself is asked, through eglot  -*- lexical-binding: t -*-
;; Run: AGENTLS_BIN=… emacs -q --batch -l autorun-test.el   (editors/emacs/tests/run does it)
;; docs/review.md "Files your editor runs by itself: always asked": with review mode off, after
;; the plan's approval, the builder writes .vscode/tasks.json (a folderOpen task). eglot, a plain
;; editor, gets the question as window/showMessageRequest (eglot's completing-read): it names
;; the file and why. Turn 1 answers Reject: no file on disk, the model reads the decline.
;; Turn 2 answers Apply: the file is on disk as written.
(load (expand-file-name "eglot-harness.el" (file-name-directory (or load-file-name buffer-file-name))) nil t)

(defvar ar-answer "Reject" "The answer to the edit's question (the plan's approval is accepted).")
(defvar ar-asked nil "The prompts of the edit's questions, newest first.")

(agentls-test-answer-with
 (lambda (titles)
   (cond ((member "Accept & Build" titles) "Accept & Build")
         ((member ar-answer titles)
          (push (car agentls-test-choices) ar-asked)
          ar-answer)
         (t (agentls-test-fail "an unexpected question: %S" (car agentls-test-choices))))))
(defalias 'y-or-n-p (lambda (&rest _) t))

(let* ((dir (file-name-as-directory (make-temp-file "agentls-eglot-autorun" t)))
       (script (expand-file-name "script.yaml" dir))
       (tasks (expand-file-name ".vscode/tasks.json" dir))
       (content "{\"version\": \"2.0.0\", \"tasks\": [{\"label\": \"build\", \"type\": \"shell\", \"command\": \"touch pwned\", \"runOptions\": {\"runOn\": \"folderOpen\"}}]}\n")
       (why "your editor or shell runs what it names by itself, outside agentls's sandbox"))
  (with-temp-file (expand-file-name "hello.txt" dir) (insert "hello\n"))
  (with-temp-file script
    (insert "name: eglot autorun
steps:
  - tool_calls:
      - {id: p, name: plan_write, args: {title: Task, path: plans/task.plan, content: \"# Goal\\nA build task.\\n\\n## Steps\\n- [ ] Add a build task\\n\"}}
  - tool_calls:
      - {id: x, name: exit_plan_mode, args: {plan_file_path: plans/task.plan}}
  - expect:
      tool_result_contains: {x: ['\"approved\":true']}
    tool_calls:
      - {id: w1, name: write, args: {path: .vscode/tasks.json, content: " (json-encode content) "}}
  - expect:
      tool_result_contains: {w1: ['the user declined this change', 'runs by itself, so every change to it is asked']}
    text: \"Turn one: declined.\"
  - tool_calls:
      - {id: w2, name: write, args: {path: .vscode/tasks.json, content: " (json-encode content) "}}
  - expect:
      tool_result_contains: {w2: ['\"success\":true']}
    text: \"Turn two: written.\"
"))
  (find-file (expand-file-name "hello.txt" dir))
  (let ((server (agentls-test-connect dir script)))
    ;; Turn 1: Reject.
    (eglot-execute-command server "agentls.prompt" (vector (list :text "add a build task")))
    (agentls-test-wait "turn one's end" (lambda () (cl-some (lambda (m) (string-match-p "Turn one: declined\\." m)) agentls-test-shown)) 60)
    (unless (= (length ar-asked) 1) (agentls-test-fail "the write was asked %d times, not once: %S" (length ar-asked) ar-asked))
    (let ((q (car ar-asked)))
      (dolist (want (list "Apply this edit?" (concat "create `.vscode/tasks.json` — " why) "Reject" "Apply"))
        (unless (string-match-p (regexp-quote want) q) (agentls-test-fail "the question lacks %S: %s" want q))))
    (when (file-exists-p tasks) (agentls-test-fail "a rejected write is on disk"))
    (when (cl-some (lambda (m) (string-match-p "Turn two" m)) agentls-test-shown) (agentls-test-fail "turn two before its prompt"))
    ;; Turn 2: Apply.
    (setq ar-answer "Apply")
    (eglot-execute-command server "agentls.prompt" (vector (list :text "write it")))
    (agentls-test-wait "turn two's end" (lambda () (cl-some (lambda (m) (string-match-p "Turn two: written\\." m)) agentls-test-shown)) 60)
    (unless (= (length ar-asked) 2) (agentls-test-fail "the second write was not asked: %S" ar-asked))
    (unless (string-match-p (regexp-quote (concat "create `.vscode/tasks.json` — " why)) (car ar-asked))
      (agentls-test-fail "the second question lacks the file and why: %s" (car ar-asked)))
    (unless (file-exists-p tasks) (agentls-test-fail "an applied write is not on disk"))
    (let ((got (with-temp-buffer (insert-file-contents-literally tasks) (buffer-string))))
      (unless (equal got content) (agentls-test-fail "the file on disk is not what was written:\n%s" got)))
    (agentls-test-shutdown server)
    (princ "ok   eglot: a write of .vscode/tasks.json is asked (showMessageRequest names the file and why); Reject writes nothing, Apply writes it\n")
    (kill-emacs 0)))
