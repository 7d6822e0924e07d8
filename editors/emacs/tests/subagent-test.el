;;; subagent-test.el --- a sub-agent's tool calls in eglot, no plugin, in batch mode  -*- lexical-binding: t -*-
;; Run: AGENTLS_BIN=… emacs -q --batch -l subagent-test.el   (editors/emacs/tests/run does it)
;; Issue 23 (docs/subagents.md, "Plain editors"): eglot connected to the real agentls binary with
;; the scripted model sends agentls.prompt in plan mode; the parent starts an `explore` sub-agent
;; that reads hello.txt and tries to write it (refused: an explorer is not given `write`). A plain
;; editor sees the sub-agent's tool calls as window/logMessage lines prefixed with the sub-agent's
;; short id (the last 8 hex digits of its session id, read from its session file), which eglot
;; shows in its events buffer (M-x eglot-events-buffer; jsonrpc-events-buffer here: eglot leaves
;; window/logMessage there); the parent's own `task` line has no such prefix; the final answer is
;; a message.
(load (expand-file-name "eglot-harness.el" (file-name-directory (or load-file-name buffer-file-name))) nil t)


(defun sub-events ()
  "The text of eglot's events buffer for the server."
  (with-current-buffer (jsonrpc-events-buffer agentls-test-server)
    (buffer-substring-no-properties (point-min) (point-max))))

(setq agentls-test-report-extra
      (lambda () (let ((s (sub-events))) (substring s (max 0 (- (length s) 6000))))))

(defun sub-child-id (dir)
  "The id of the one sub-agent session stored in DIR's .agentls/chats (its file has a parent_id)."
  (let (found)
    (dolist (f (directory-files (expand-file-name ".agentls/chats" dir) t "\\.chat\\'"))
      (with-temp-buffer
        (insert-file-contents f)
        (when (re-search-forward "^parent_id: " nil t)
          (push (file-name-base f) found))))
    (unless (= (length found) 1) (agentls-test-fail "want one sub-agent session file, found %S" found))
    (car found)))

(defun sub-event-line-p (events prefix rest)
  "Whether EVENTS holds a window/logMessage message starting with PREFIX and holding REST after it."
  (string-match-p (concat (regexp-quote prefix) "[^\"\n]*" (regexp-quote rest)) events))

(let* ((dir (file-name-as-directory (make-temp-file "agentls-eglot-sub" t)))
       (script (expand-file-name "script.yaml" dir)))
  (with-temp-file (expand-file-name "hello.txt" dir) (insert "hello\n"))
  (with-temp-file script
    (insert "name: eglot sub-agent
steps:
  - tool_calls:
      - {id: t1, name: task, args: {kind: explore, prompt: \"what does hello.txt say?\"}}
  - expect:
      tool_result_contains: {t1: ['\"status\":\"completed\"', \"hello.txt says hello\"]}
    text: \"The explorer says hello.\"
children:
  explore-1:
    - tool_calls:
        - {id: r, name: read, args: {path: hello.txt}}
        - {id: w, name: write, args: {path: hello.txt, content: bye}}
    - expect:
        tool_result_contains: {r: [hello], w: ['\"success\":false', not given this tool]}
      text: hello.txt says hello
"))
  (find-file (expand-file-name "hello.txt" dir))
  (let* ((eglot-sync-connect t)
         (server (eglot '(text-mode) (cons 'transient dir) 'eglot-lsp-server
                        (list (or (getenv "AGENTLS_BIN") "agentls")
                              :initializationOptions
                              (list :model (list :provider "scripted" :script script)))
                        "text")))
    (setq agentls-test-server server)
    (eglot-execute-command server "agentls.prompt" (vector (list :text "ask an explorer")))
    (agentls-test-wait "the final message"
              (lambda () (cl-some (lambda (m) (string-match-p "The explorer says hello\\." m)) agentls-test-shown))
              30)
    (let* ((child (replace-regexp-in-string "-" "" (sub-child-id dir)))
           (short (concat "[" (substring child -8) "] "))
           events)
      ;; The sub-agent's lines may trail the final message by a read: wait for its refusal's line.
      (agentls-test-wait (format "the sub-agent's lines prefixed %s in eglot's events buffer" short)
                (lambda () (setq events (sub-events))
                  (sub-event-line-p events short "refused write `hello.txt`"))
                10)
      (unless (sub-event-line-p events "[PLAN " (concat "] " short))
        (agentls-test-fail "the sub-agent's lines do not follow the session's [PLAN …] prefix"))
      (unless (sub-event-line-p events short "read `hello.txt`")
        (agentls-test-fail "no line %sread `hello.txt`" short))
      (unless (sub-event-line-p events short "refused write `hello.txt`: not given to this sub-agent")
        (agentls-test-fail "no line %s… refused write `hello.txt`: not given to this sub-agent" short))
      (unless (string-match-p "\\[PLAN [0-9a-f]+\\] [^\"\n[]*task explore" events)
        (agentls-test-fail "the parent's own task line (no sub-agent prefix) is missing"))
      (when (sub-event-line-p events short "task explore")
        (agentls-test-fail "the parent's task line carries the sub-agent's prefix")))
    (with-temp-buffer
      (insert-file-contents (expand-file-name "hello.txt" dir))
      (unless (equal (buffer-string) "hello\n") (agentls-test-fail "hello.txt changed: %S" (buffer-string))))
    (agentls-test-shutdown server)
    (princ "ok   eglot: a sub-agent's tool calls as log lines prefixed with its short id, its refused write, the parent's task line\n")
    (kill-emacs 0)))
