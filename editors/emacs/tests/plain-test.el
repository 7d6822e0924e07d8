;;; plain-test.el --- agentls with Emacs's eglot, no plugin, in batch mode  -*- lexical-binding: t -*-
;; Run: AGENTLS_BIN=… emacs -q --batch -l plain-test.el   (editors/emacs/tests/run does it)
;; Connects eglot to the real agentls binary with the scripted model, sends agentls.prompt (it
;; must return within eglot's executeCommand timeout), answers a button question, the plan
;; approval and a command's question through stubbed completing-read, and waits for the final
;; message. The approval must show the command the plan grants, the command's question its
;; folder, network and sandbox (Guard III: every question shows what it grants).
;; editors/emacs/tests/run also runs it with the server output batched (coalesce.py).
;; It loads ../agentls-jsonrpc-fix.el, the workaround the README gives eglot users: without it
;; jsonrpc.el 1.0.14 (Emacs 28) strands the turn's first question whenever it arrives in the same
;; read as agentls.prompt's reply (every batched run here), and the turn waits for an answer
;; forever. On Emacs 30 the file does nothing, so the Emacs 30 run proves jsonrpc 1.0.25 needs no fix.
(load (expand-file-name "eglot-harness.el" (file-name-directory (or load-file-name buffer-file-name))) nil t)

(agentls-test-answer-with
 (lambda (titles)
   (or (cl-find "prod" titles :test #'equal)
       (cl-find "Accept & Build" titles :test #'equal)
       (cl-find "Run" titles :test #'equal)
       (car titles))))
(defalias 'y-or-n-p (lambda (&rest _) t))

(let* ((dir (file-name-as-directory (make-temp-file "agentls-eglot" t)))
       (script (expand-file-name "script.yaml" dir)))
  (with-temp-file (expand-file-name "hello.txt" dir) (insert "hello\n"))
  (with-temp-file script
    (insert "name: eglot plain
steps:
  - tool_calls:
      - {id: q, name: ask_user, args: {questions: [{name: env, question: \"Which environment?\", schema: {type: string, enum: [dev, prod]}}]}}
  - tool_calls:
      - {id: w, name: plan_write, args: {title: Greeting, path: plans/greet.plan, content: \"# Goal\\nSay hello.\\n\\n## Steps\\n- [ ] Change hello.txt\\n- [ ] Greet \\u202Eolleh\\n\"}}
  - expect:
      tool_result_contains: {q: ['\"env\":\"prod\"']}
    tool_calls:
      - {id: x, name: exit_plan_mode, args: {plan_file_path: plans/greet.plan, allowed_commands: [\"go vet ./...\"]}}
  - expect:
      tool_result_contains: {x: ['\"approved\":true']}
    tool_calls:
      - {id: r, name: run, args: {command: \"touch ran.txt\"}}
  - expect:
      tool_result_contains: {r: ['\"exit_code\":0']}
    text: \"Approved and ready to build.\"
"))
  (find-file (expand-file-name "hello.txt" dir))
  (let* ((eglot-sync-connect t)
         (server (eglot '(text-mode) (cons 'transient dir) 'eglot-lsp-server
                        (list (or (getenv "AGENTLS_BIN") "agentls")
                              :initializationOptions
                              (list :model (list :provider "scripted" :script script)))
                        "text"))
         (start (float-time))
         (res (eglot-execute-command server "agentls.prompt" (vector (list :text "greet")))))
    (ignore res)
    (setq agentls-test-server server)
    (when (> (- (float-time) start) 10) (agentls-test-fail "agentls.prompt took %.1fs" (- (float-time) start)))
    (agentls-test-wait "the final message"
                (lambda () (cl-some (lambda (m) (string-match-p "Approved and ready to build\\." m)) agentls-test-shown))
                30)
    (unless (cl-some (lambda (c) (string-match-p "Which environment" c)) agentls-test-choices)
      (agentls-test-fail "the question was not asked"))
    (unless (cl-some (lambda (c) (string-match-p "1\\. \\[ \\] Change hello.txt" c)) agentls-test-choices)
      (agentls-test-fail "the approval did not show the steps"))
    ;; Guard III: the approval lists the command it grants; the command's question names the
    ;; command, its folder, the network and the sandbox.
    (unless (cl-some (lambda (c) (and (string-match-p "1\\. \\[ \\] Change hello.txt" c)
                                      (string-match-p (regexp-quote "Approving also allows these commands for this session:\n- `go vet ./...`") c)))
                     agentls-test-choices)
      (agentls-test-fail "the approval did not show the command it grants (go vet ./...)"))
    ;; A bidi override in the plan reaches the approval escaped, never raw.
    (unless (cl-some (lambda (c) (string-match-p (regexp-quote "Greet \\u202Eolleh") c)) agentls-test-choices)
      (agentls-test-fail "the approval did not show the plan's bidi override escaped (\\u202E)"))
    (when (cl-some (lambda (c) (string-match-p "\u202E" c)) agentls-test-choices)
      (agentls-test-fail "a question showed a raw U+202E"))
    (unless (cl-some (lambda (c) (and (string-match-p (regexp-quote "touch ran.txt") c)
                                      (string-match-p (regexp-quote (concat "Folder: " (directory-file-name dir))) c)
                                      (string-match-p "Network: \\(yes\\|no\\|not isolated\\)" c)
                                      (string-match-p "Sandbox: \\(on (\\|off\\)" c)))
                     agentls-test-choices)
      (agentls-test-fail "the command's question did not name its folder, network and sandbox"))
    (unless (file-exists-p (expand-file-name "ran.txt" dir)) (agentls-test-fail "the allowed command did not run"))
    (with-temp-buffer
      (insert-file-contents (expand-file-name "plans/greet.plan" dir))
      (unless (string-match-p "status: approved" (buffer-string)) (agentls-test-fail "the plan is not approved")))
    (agentls-test-shutdown server)
    (princ "ok   eglot: prompt, question, approval with its grant, command question with folder/network/sandbox, final message\n")
    (kill-emacs 0)))
