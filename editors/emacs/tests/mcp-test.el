;;; mcp-test.el --- agentls's MCP servers' status in Emacs's eglot, no plugin  -*- lexical-binding: t -*-
;; Run: AGENTLS_BIN=… emacs -q --batch -l mcp-test.el   (editors/emacs/tests/run does it)
;; The initializationOptions name two MCP servers (docs/mcp.md): a running one
;; (testdata/mcp/tiny-server.mjs, on node) and one that fails at start with a message on stderr.
;; A turn starts them (the scripted model calls the read-only tool, then the writer, refused in
;; plan mode); then the commands agentls.status and agentls.checkModel, run through eglot, show
;; each server: the running one with its tools, the failed one as an error with its reason and
;; the tail of its stderr.
(load (expand-file-name "eglot-harness.el" (file-name-directory (or load-file-name buffer-file-name))) nil t)

(defvar mcp-tiny (expand-file-name "../../../testdata/mcp/tiny-server.mjs"
                                   (file-name-directory (or load-file-name buffer-file-name))))

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
                                               ;; tiny needs no network: without it its read-only
                                               ;; lookup runs in plan mode (reach process).
                                               (list :tiny (list :command "node" :args (vector mcp-tiny) :network :json-false)
                                                     :broken (list :command "sh" :args ["-c" "echo 'broken: cannot open the database' >&2; exit 3"]))
                                               :read_only ["tiny/lookup"])))
                        "text")))
    (setq agentls-test-server server)
    (eglot-execute-command server "agentls.prompt" (vector (list :text "look it up")))
    (agentls-test-wait "the final message"
              (lambda () (> (agentls-test-count "Looked it up; the writer was refused\\.") 0))
              30)
    (when (file-exists-p (expand-file-name "note.txt" dir)) (agentls-test-fail "the refused writer ran"))
    ;; agentls.status: the sandbox, then each server.
    (eglot-execute-command server "agentls.status" (vector (list)))
    (agentls-test-wait "agentls.status's lines"
              (lambda () (and (> (agentls-test-count "agentls: MCP server tiny (node [^)]*tiny-server\\.mjs, from config): running, 2 tools") 0)
                              (> (agentls-test-count "agentls: MCP server broken (sh -c [^\n]*: failed: .*; its stderr ends with: broken: cannot open the database") 0)
                              (> (agentls-test-count "agentls: sandbox: ") 0)))
              10)
    ;; agentls.checkModel lists them too (after the model's line).
    (eglot-execute-command server "agentls.checkModel" (vector (list)))
    (agentls-test-wait "agentls.checkModel's lines"
              (lambda () (and (> (agentls-test-count "agentls: model .* answers") 0)
                              (= (agentls-test-count "agentls: MCP server tiny (node [^)]*tiny-server\\.mjs, from config): running, 2 tools") 2)
                              (= (agentls-test-count "agentls: MCP server broken (sh -c [^\n]*: failed: .*; its stderr ends with: broken: cannot open the database") 2)))
              10)
    (agentls-test-shutdown server)
    (princ "ok   eglot: agentls.status and agentls.checkModel show the running MCP server with its tools, the failed one with its reason and stderr tail; the writer refused in plan mode\n")
    (kill-emacs 0)))
