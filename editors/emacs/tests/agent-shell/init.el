;;; init.el --- Emacs 30 init of the agent-shell test  -*- lexical-binding: t -*-
;; editors/emacs/tests/agent-shell/run starts `emacs30 -nw -Q -l init.el' under tmux with:
;;   AGENTLS_ACP_CLIENTS  the folder holding agent-shell/, acp.el/, shell-maker/ (scripts/install-clients acp)
;;   AGENTLS_AS_SNIPPET   the agent-shell configuration, cut out of docs/acp.md by the run script
;;   AGENTLS_AS_ARTIFACTS where Emacs's pid and, at the end, its buffers are written
;;   AGENTLS_AS_SERVER_DIR the folder of this Emacs's server socket (for emacsclient)
;; Everything a user's init would hold comes from the docs' snippet; what is below only makes the
;; run quiet and reproducible (nothing fetched, no welcome banner, a new session, no picker).

(let ((clients (getenv "AGENTLS_ACP_CLIENTS")))
  (dolist (d '("shell-maker" "acp.el" "agent-shell"))
    (add-to-list 'load-path (expand-file-name d clients))))

;; The configuration exactly as docs/acp.md shows it.
(load (getenv "AGENTLS_AS_SNIPPET") nil t)

(setq agent-shell-preferred-agent-config 'agentls ; no agent picker
      agent-shell-session-strategy 'new            ; no session picker
      agent-shell-show-welcome-message nil
      agent-shell-show-config-icons nil            ; no icon downloads
      agent-shell-inhibit-system-sleep nil
      acp-logging-enabled t                        ; the traffic, kept as an artifact
      make-backup-files nil
      create-lockfiles nil)

(defvar agentls-test-artifacts (file-name-as-directory (getenv "AGENTLS_AS_ARTIFACTS")))

(defun agentls-test-save-buffers ()
  "Write the agent's shell, its ACP traffic and logs and agentls's stderr to the artifacts.
Last, the file `saved' says they are written."
  (interactive)
  (dolist (b (buffer-list))
    (let ((name (buffer-name b)))
      (when (string-match-p "\\`\\(\\*acp-\\|acp-client-stderr\\|agentls\\|\\*Messages\\*\\)" name)
        (with-current-buffer b
          (let ((coding-system-for-write 'utf-8-unix))
            (write-region nil nil
                          (concat agentls-test-artifacts "buffer-"
                                  (replace-regexp-in-string "[^A-Za-z0-9._-]+" "_" name) ".txt")
                          nil 'silent))))))
  (with-temp-file (concat agentls-test-artifacts "saved") (insert "saved\n")))

;; The run script calls agentls-test-save-buffers through emacsclient (this Emacs's server, its
;; socket in AGENTLS_AS_SERVER_DIR) before it ends Emacs with SIGTERM, which also runs
;; `kill-emacs-hook' (the fallback). The server is the test's plumbing: every step of the session
;; itself is typed.
(require 'server)
(setq server-socket-dir (getenv "AGENTLS_AS_SERVER_DIR") server-name "agentls-test")
(server-start)
(add-hook 'kill-emacs-hook (lambda () (ignore-errors (agentls-test-save-buffers))))

(with-temp-file (concat agentls-test-artifacts "emacs.pid")
  (insert (number-to-string (emacs-pid))))
