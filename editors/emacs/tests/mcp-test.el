;;; mcp-test.el --- agentls's MCP servers' status in Emacs's eglot, no plugin  -*- lexical-binding: t -*-
;; Run: AGENTLS_BIN=… emacs -q --batch -l mcp-test.el   (editors/emacs/tests/run does it)
;; The initializationOptions name two MCP servers (docs/mcp.md): a running one
;; (testdata/mcp/tiny-server.mjs, on node) and one that fails at start with a message on stderr.
;; A turn starts them (the scripted model calls the read-only tool, then the writer, refused in
;; plan mode); then the commands agentls.status and agentls.checkModel, run through eglot, show
;; each server: the running one with its tools, the failed one as an error with its reason and
;; the tail of its stderr.
(require 'eglot)
(load (expand-file-name "../agentls-jsonrpc-fix.el" (file-name-directory (or load-file-name buffer-file-name))) nil t)
(require 'cl-lib)

(defvar mcp-shown nil "Every message shown, newest first.")
(advice-add 'message :around
            (lambda (orig fmt &rest args)
              (when fmt (push (apply #'format fmt args) mcp-shown))
              (apply orig fmt args)))
(defvar mcp-server nil "The eglot server.")
(defvar mcp-tiny (expand-file-name "../../../testdata/mcp/tiny-server.mjs"
                                   (file-name-directory (or load-file-name buffer-file-name))))

(defun mcp-fail (fmt &rest args)
  (princ (format "FAIL %s\n" (apply #'format fmt args)))
  (ignore-errors
    (with-current-buffer (eglot-events-buffer mcp-server)
      (princ (buffer-substring-no-properties (max (point-min) (- (point-max) 3000)) (point-max)))))
  (princ (format "messages:\n%s\n" (mapconcat #'identity (reverse mcp-shown) "\n")))
  (kill-emacs 1))

(defun mcp-wait (what pred secs)
  (let ((deadline (+ (float-time) secs)))
    (while (and (not (funcall pred)) (< (float-time) deadline))
      (accept-process-output nil 0.05))
    (unless (funcall pred) (mcp-fail "timed out waiting for %s" what))))

(defun mcp-count (re)
  (cl-count-if (lambda (m) (string-match-p re m)) mcp-shown))

(unless (executable-find "node")
  (princ "skip mcp-test: node is missing\n")
  (kill-emacs (if (getenv "CI") 1 0)))

(let* ((dir (file-name-as-directory (make-temp-file "agentls-eglot-mcp" t)))
       (script (expand-file-name "script.yaml" dir)))
  (with-temp-file (expand-file-name "hello.txt" dir) (insert "hello\n"))
  (with-temp-file script
    (insert "name: eglot mcp
steps:
  - expect:
      system_contains: [\"`mcp__tiny__lookup`\"]
    tool_calls:
      - {id: l, name: mcp__tiny__lookup, args: {word: plan}}
      - {id: w, name: mcp__tiny__write_note, args: {text: pwned}}
  - expect:
      tool_result_contains: {l: ['plan: a tiny word'], w: ['Plan Mode']}
    text: \"Looked it up; the writer was refused.\"
"))
  (find-file (expand-file-name "hello.txt" dir))
  (let* ((eglot-sync-connect t)
         (server (eglot '(text-mode) (cons 'transient dir) 'eglot-lsp-server
                        (list (or (getenv "AGENTLS_BIN") "agentls")
                              :initializationOptions
                              (list :model (list :provider "scripted" :script script)
                                    :mcp (list :servers
                                               (list :tiny (list :command "node" :args (vector mcp-tiny))
                                                     :broken (list :command "sh" :args ["-c" "echo 'broken: cannot open the database' >&2; exit 3"]))
                                               :read_only ["tiny/lookup"])))
                        "text")))
    (setq mcp-server server)
    (eglot-execute-command server "agentls.prompt" (vector (list :text "look it up")))
    (mcp-wait "the final message"
              (lambda () (> (mcp-count "Looked it up; the writer was refused\\.") 0))
              30)
    (when (file-exists-p (expand-file-name "note.txt" dir)) (mcp-fail "the refused writer ran"))
    ;; agentls.status: the sandbox, then each server.
    (eglot-execute-command server "agentls.status" (vector (list)))
    (mcp-wait "agentls.status's lines"
              (lambda () (and (> (mcp-count "agentls: MCP server tiny (node [^)]*tiny-server\\.mjs, from config): running, 2 tools") 0)
                              (> (mcp-count "agentls: MCP server broken (sh -c [^\n]*: failed: .*; its stderr ends with: broken: cannot open the database") 0)
                              (> (mcp-count "agentls: sandbox: ") 0)))
              10)
    ;; agentls.checkModel lists them too (after the model's line).
    (eglot-execute-command server "agentls.checkModel" (vector (list)))
    (mcp-wait "agentls.checkModel's lines"
              (lambda () (and (> (mcp-count "agentls: model .* answers") 0)
                              (= (mcp-count "agentls: MCP server tiny (node [^)]*tiny-server\\.mjs, from config): running, 2 tools") 2)
                              (= (mcp-count "agentls: MCP server broken (sh -c [^\n]*: failed: .*; its stderr ends with: broken: cannot open the database") 2)))
              10)
    (eglot-shutdown server)
    (princ "ok   eglot: agentls.status and agentls.checkModel show the running MCP server with its tools, the failed one with its reason and stderr tail; the writer refused in plan mode\n")
    (kill-emacs 0)))
