;;; multiselect-test.el --- a several-choice question through eglot  -*- lexical-binding: t -*-
;; Run: AGENTLS_BIN=… emacs -q --batch -l multiselect-test.el
;; (editors/emacs/tests/run runs it). docs/editors.md: a form question that is no
;; single choice reaches a plain editor as a message holding only it, answered by the next
;; agentls.prompt. The agent asks ask_user "Which languages?" with a JSON-Schema list of choices
;; (type array, items enum go/rust/c). eglot shows: "The agent asks Which languages? (a list,
;; items from: go, rust, c, at least 1 items)". A person answers as the question reads: `go, rust`.
;; Either that answer is taken (the agent gets ["go","rust"]), or what the person sees — the
;; question or the error of their answer — shows how to write a list the server takes
;; (`["go", "rust"]`): "bad input gets a clear error".
(load (expand-file-name "eglot-harness.el" (file-name-directory (or load-file-name buffer-file-name))) nil t)

(agentls-test-answer-with (lambda (titles) (car titles)))

(defvar ms-error nil "The error of the answer `go, rust', or nil when it was taken.")

(let* ((dir (file-name-as-directory (make-temp-file "agentls-eglot-ms" t)))
       (script (expand-file-name "script.yaml" dir)))
  (with-temp-file (expand-file-name "hello.txt" dir) (insert "hello\n"))
  (with-temp-file script
    (insert "name: multi-select
steps:
  - tool_calls:
      - {id: q, name: ask_user, args: {questions: [{name: langs, question: \"Which languages?\", schema: {type: array, items: {type: string, enum: [go, rust, c]}, minItems: 1}}]}}
  - expect:
      last_message_contains: ['{\"langs\":[\"go\",\"rust\"]}']
    text: \"Both then.\"
"))
  (find-file (expand-file-name "hello.txt" dir))
  (agentls-test-connect dir script)
  (eglot-execute-command agentls-test-server "agentls.prompt" (vector (list :text "ask me")))
  (agentls-test-wait "the question" (lambda () (> (agentls-test-count "Which languages") 0)) 30)
  (condition-case e
      (eglot-execute-command agentls-test-server "agentls.prompt" (vector (list :text "go, rust")))
    (error (setq ms-error (error-message-string e))))
  (if (null ms-error)
      (agentls-test-wait "the agent's answer to the list" (lambda () (> (agentls-test-count "Both then\\.") 0)) 30)
    (let ((question (cl-find-if (lambda (m) (string-match-p "Which languages" m)) agentls-test-shown)))
      (unless (or (string-match-p "\\[\"?go" question) (string-match-p "\\[\\\\?\"?go" ms-error))
        (agentls-test-fail "the answer `go, rust' to a list question was refused, and neither the question nor the error shows how to write a list:\nquestion: %s\nerror: %s"
                           question ms-error))))
  (agentls-test-shutdown agentls-test-server)
  (princ "ok   a list question answered `go, rust' is taken, or its error shows how to write the list\n")
  (kill-emacs 0))
