;;; autorun-document-test.el --- the run sentinel's long question, through eglot  -*- lexical-binding: t -*-
;; Run: AGENTLS_BIN=… emacs -q --batch -l autorun-document-test.el   (editors/emacs/tests/run does it)
;; docs/guard.md "After the command": after the plan's approval the builder runs a command that
;; makes a new repository with 30 hooks, too many for the question to list itself
;; (permission.DocLines). eglot gets the question as window/showMessageRequest (eglot's
;; completing-read). An eglot that declares window/showDocument (Emacs 30's) is sent the generated
;; document questions/autorun-<hash>.md: while the question is asked its buffer is shown in a
;; window and holds every change, and the question says where the list is. One that does not
;; (eglot 1.9 on Emacs 28) gets every change in the question itself. Either way the user sees all
;; 30. Turn 1 answers Remove: the hooks are gone. Turn 2 (a second repository) answers Keep.
(load (expand-file-name "eglot-harness.el" (file-name-directory (or load-file-name buffer-file-name))) nil t)

(defvar ad-answer "Remove (restore)" "The answer to the sentinel's question.")
(defvar ad-asked nil "The sentinel questions, newest first: (PROMPT DOCUMENT DOC-SHOWN DOC-TEXT).")
(defvar ad-hooks 30 "How many hooks the command makes.")

(defun ad-document-window (doc)
  "The window showing the buffer of file DOC, or nil."
  (let ((b (and doc (get-file-buffer doc))))
    (and b (get-buffer-window b t))))

(agentls-test-answer-with
 (lambda (titles)
   (cond ((member "Accept & Build" titles) "Accept & Build")
         ((member "Run" titles) "Run")
         ((member ad-answer titles)
          ;; As a person answering once they have read what is shown: when the question names a
          ;; document, wait (at most 10 s) for a window showing it; eglot shows it on a timer,
          ;; which a waiting minibuffer runs.
          (let* ((prompt (car agentls-test-choices))
                 (doc (and (string-match "in full in \\([^ ]+\\.md\\) (opened beside this question)" prompt)
                           (match-string 1 prompt)))
                 (deadline (+ (float-time) 10)))
            (while (and doc (not (ad-document-window doc)) (< (float-time) deadline))
              (accept-process-output nil 0.05))
            (push (list prompt doc (and (ad-document-window doc) t)
                        (and doc (get-file-buffer doc)
                             (with-current-buffer (get-file-buffer doc) (buffer-substring-no-properties (point-min) (point-max)))))
                  ad-asked))
          ad-answer)
         (t (agentls-test-fail "an unexpected question: %S" (car agentls-test-choices))))))
(defalias 'y-or-n-p (lambda (&rest _) t))

(defun ad-command (repo)
  "The command that makes REPO with `ad-hooks' hooks."
  (format "git init -q %s && for i in $(seq %d); do echo x > %s/.git/hooks/h$i; done" repo ad-hooks repo))

(defun ad-on-disk (dir repo)
  "How many of the hooks are in REPO of DIR."
  (cl-count-if (lambda (i) (file-exists-p (expand-file-name (format "%s/.git/hooks/h%d" repo i) dir)))
               (number-sequence 1 ad-hooks)))

(let* ((dir (file-name-as-directory (make-temp-file "agentls-eglot-autorun-document" t)))
       (state (make-temp-file "agentls-eglot-state" t))
       (script (expand-file-name "script.yaml" dir))
       (shown (lambda (re) (cl-some (lambda (m) (string-match-p re m)) agentls-test-shown))))
  (setenv "XDG_STATE_HOME" state) ; the server's state folder: the test's own
  (with-temp-file (expand-file-name "hello.txt" dir) (insert "hello\n"))
  (with-temp-file script
    (insert "name: eglot autorun document
steps:
  - tool_calls:
      - {id: p, name: plan_write, args: {title: Hooks, path: plans/hooks.plan, content: \"# Goal\\nHooks.\\n\\n## Steps\\n- [ ] Add hooks\\n\"}}
  - tool_calls:
      - {id: x, name: exit_plan_mode, args: {plan_file_path: plans/hooks.plan}}
  - expect:
      tool_result_contains: {x: ['\"approved\":true']}
    tool_calls:
      - {id: r1, name: run, args: {command: " (json-encode (ad-command "sub")) "}}
  - expect:
      tool_result_contains: {r1: ['created sub/.git/hooks/h1', 'so agentls undid it']}
    text: \"Turn one: undone.\"
  - tool_calls:
      - {id: r2, name: run, args: {command: " (json-encode (ad-command "sub2")) "}}
  - expect:
      tool_result_contains: {r2: ['created sub2/.git/hooks/h1', 'the user was asked and kept them']}
    text: \"Turn two: kept.\"
"))
  (find-file (expand-file-name "hello.txt" dir))
  (let* ((hello (current-buffer))
         (server (agentls-test-connect dir script))
         (show-doc (plist-get (plist-get (eglot-client-capabilities server) :window) :showDocument)))
    (dolist (turn '(("sub" "add hooks" "Turn one: undone\\." "Remove (restore)") ("sub2" "again" "Turn two: kept\\." "Keep")))
      (let ((repo (nth 0 turn)))
        (setq ad-answer (nth 3 turn))
        ;; From the text file eglot manages (eglot 1.17's requests fail from a buffer it does not,
        ;; such as the document's window left selected).
        (with-current-buffer hello
          (eglot-execute-command server "agentls.prompt" (vector (list :text (nth 1 turn)))))
        (agentls-test-wait (nth 2 turn) (lambda () (funcall shown (nth 2 turn))) 60)
        (let* ((q (car ad-asked)) (prompt (nth 0 q)) (doc (nth 1 q)) (text (nth 3 q))
               (line (lambda (i) (format "`%s/.git/hooks/h%d`: created" repo i))))
          (unless (string-match-p (regexp-quote (concat "Keep what the command `" (ad-command repo) "` did")) prompt)
            (agentls-test-fail "the question does not name the command: %s" prompt))
          (unless (< (string-match-p "Remove (restore)" prompt) (string-match-p "\"Keep\"" prompt))
            (agentls-test-fail "Remove is not the first choice: %s" prompt))
          (if show-doc
              (progn
                (unless doc (agentls-test-fail "eglot declares showDocument; the question names no document: %s" prompt))
                (unless (equal (file-name-directory doc) (file-name-as-directory (expand-file-name "agentls/questions" state)))
                  (agentls-test-fail "the document %s is not in the state folder %s" doc state))
                (unless (nth 2 q) (agentls-test-fail "no window showed %s while the question was asked" doc))
                (when (string-match-p (regexp-quote (funcall line 17)) prompt)
                  (agentls-test-fail "the question lists the hooks itself: %s" prompt))
                (dotimes (i ad-hooks)
                  (unless (string-match-p (regexp-quote (concat "- " (funcall line (1+ i)))) (or text ""))
                    (agentls-test-fail "the document's buffer lacks h%d:\n%s" (1+ i) text)))
                (delete-window (ad-document-window doc))) ; the next question must show its own
            (when (or doc (string-match-p "in full in" prompt))
              (agentls-test-fail "eglot does not declare showDocument; the question refers to a document: %s" prompt))
            (dotimes (i ad-hooks)
              (unless (string-match-p (regexp-quote (funcall line (1+ i))) prompt)
                (agentls-test-fail "the question lacks h%d: %s" (1+ i) prompt)))))))
    (unless (= (length ad-asked) 2) (agentls-test-fail "asked %d times, not twice: %S" (length ad-asked) ad-asked))
    (unless (= (ad-on-disk dir "sub") 0) (agentls-test-fail "%d hooks left after Remove" (ad-on-disk dir "sub")))
    (unless (= (ad-on-disk dir "sub2") ad-hooks) (agentls-test-fail "%d hooks after Keep" (ad-on-disk dir "sub2")))
    (with-current-buffer hello (agentls-test-shutdown server))
    (princ (format "ok   eglot (%s): the sentinel's question about 30 hooks shows every one (%s); Remove undid them, Keep kept them\n"
                   (if show-doc "showDocument" "no showDocument")
                   (if show-doc "in the document's buffer, shown while asked" "in the question itself")))
    (kill-emacs 0)))
