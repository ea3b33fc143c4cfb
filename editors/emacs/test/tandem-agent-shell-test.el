;;; tandem-agent-shell-test.el --- batch end-to-end check of tandem in agent-shell -*- lexical-binding: t; -*-

;; Run by editors/emacs_agentshell_test.go:
;;   emacs --batch -Q -l editors/emacs/test/tandem-agent-shell-test.el
;; with TANDEM_BIN, DEPS (agent-shell, acp.el and shell-maker directories,
;; colon-separated), TRANSCRIPT and RESULT set, the working directory a git
;; workspace holding sub/hello.txt, and the model environment pointing at the
;; fake model.  It starts tandem through `tandem-agent-shell-make-config',
;; sends a prompt whose edit asks for permission and presses agent-shell's
;; "Allow" button, then a prompt whose edit fails at once, then one whose
;; approved edit fails because the file changed meanwhile, and writes what
;; the shell buffer showed to RESULT as JSON.  Last it reopens the session
;; in a new shell and prompts there.

;;; Code:

(dolist (dir (split-string (getenv "DEPS") ":" t))
  (add-to-list 'load-path dir))
(add-to-list 'load-path (expand-file-name ".." (file-name-directory load-file-name)))
(require 'tandem-agent-shell)
(require 'json)

(setq tandem-agent-shell-command (list (getenv "TANDEM_BIN") "acp"))
(setq agent-shell-transcript-file-path-function (lambda () (getenv "TRANSCRIPT")))
;; The buttons are what is tested, not a responder function.
(setq agent-shell-permission-responder-function nil)

(defvar tandem-test-events nil "Events agent-shell emitted, newest first.")

(defun tandem-test-wait (what seconds pred)
  "Process output until PRED holds, or fail naming WHAT after SECONDS."
  (let ((deadline (+ (float-time) seconds)))
    (while (not (funcall pred))
      (when (> (float-time) deadline) (error "Timed out waiting for %s" what))
      (accept-process-output nil 0.05))))

(defun tandem-test-turns ()
  "The stop reasons of the finished turns, oldest first."
  (let (reasons)
    (dolist (e tandem-test-events)
      (when (eq (map-elt e :event) 'turn-complete)
        (push (map-nested-elt e '(:data :stop-reason)) reasons)))
    reasons))

(defun tandem-test-prompt (shell text)
  "Submit TEXT in SHELL and wait for its turn to end."
  (let ((before (length (tandem-test-turns))))
    (agent-shell-insert :text text :submit t :shell-buffer shell :no-focus t)
    (tandem-test-wait (format "the turn of %S" text) 60
                      (lambda () (> (length (tandem-test-turns)) before)))))

(defun tandem-test-press (shell label)
  "Press the permission button labelled LABEL in SHELL, as RET on it would."
  (with-current-buffer shell
    (goto-char (point-min))
    (unless (and (search-forward label nil t)
                 ;; agent-shell marks the key letter of each button.
                 (text-property-any (match-beginning 0) (match-end 0)
                                    'agent-shell-permission-button t))
      (error "No %S permission button in:\n%s" label (buffer-string)))
    (goto-char (match-beginning 0))
    (call-interactively (key-binding (kbd "RET")))))

(let (errors shell first disk second session resumed reopened)
  (condition-case err
      (progn
        (setq shell (agent-shell-start :config (tandem-agent-shell-make-config)))
        (agent-shell-subscribe-to :shell-buffer shell
                                  :on-event (lambda (e) (push e tandem-test-events)))
        ;; First prompt: the edit asks; approve it with the button.
        (let ((before (length (tandem-test-turns))))
          (agent-shell-insert :text "change the greeting" :submit t :shell-buffer shell :no-focus t)
          (tandem-test-wait "the permission request" 60
                            (lambda () (with-current-buffer shell
                                         (text-property-any (point-min) (point-max)
                                                            'agent-shell-permission-button t))))
          (tandem-test-press shell "Allow (y)")
          (tandem-test-wait "the first turn" 60 (lambda () (> (length (tandem-test-turns)) before))))
        (setq first (with-current-buffer shell (buffer-substring-no-properties (point-min) (point-max))))
        (setq disk (with-temp-buffer (insert-file-contents "sub/hello.txt") (buffer-string)))
        ;; Second prompt: an edit whose old text is not in the file fails.
        (tandem-test-prompt shell "make an edit that cannot apply")
        ;; Third prompt: the edit asks, the file changes on disk before the
        ;; answer, so the approved edit fails.
        (let ((before (length (tandem-test-turns))))
          (agent-shell-insert :text "edit it again" :submit t :shell-buffer shell :no-focus t)
          (tandem-test-wait "the second permission request" 60
                            (lambda () (= (seq-count (lambda (e) (eq (map-elt e :event) 'permission-request))
                                                     tandem-test-events)
                                          2)))
          ;; Saved from a buffer, as a user would: agent-shell writes
          ;; through the file's buffer and must not find it stale.
          (with-current-buffer (find-file-noselect (expand-file-name "sub/hello.txt"))
            (erase-buffer)
            (insert "package main\nchanged meanwhile\nlast line\n")
            (save-buffer))
          (tandem-test-press shell "Allow (y)")
          (tandem-test-wait "the third turn" 60 (lambda () (> (length (tandem-test-turns)) before))))
        (setq second (with-current-buffer shell
                       (buffer-substring-no-properties (point-min) (point-max))))
        ;; Reopen: a new shell with the `prompt' session strategy lists
        ;; tandem's sessions (batch agent-shell takes the latest) and
        ;; continues the first one.
        (setq session (map-nested-elt (buffer-local-value 'agent-shell--state shell) '(:session :id)))
        (let ((kill-buffer-query-functions nil))
          (kill-buffer shell))
        (setq agent-shell-session-strategy 'prompt)
        (setq shell (agent-shell-start :config (tandem-agent-shell-make-config)))
        (agent-shell-subscribe-to :shell-buffer shell
                                  :on-event (lambda (e) (push e tandem-test-events)))
        (tandem-test-wait "the reopened session" 60
                          (lambda () (map-nested-elt (buffer-local-value 'agent-shell--state shell)
                                                     '(:session :id))))
        (setq resumed (map-nested-elt (buffer-local-value 'agent-shell--state shell) '(:session :id)))
        (tandem-test-prompt shell "what did we change?")
        (setq reopened (with-current-buffer shell
                         (buffer-substring-no-properties (point-min) (point-max)))))
    (error (push (error-message-string err) errors)))
  (with-temp-file (getenv "RESULT")
    (insert (json-encode
             `((errors . ,(vconcat errors))
               (stopReasons . ,(vconcat (tandem-test-turns)))
               (permissions . ,(seq-count (lambda (e) (eq (map-elt e :event) 'permission-request))
                                          tandem-test-events))
               (first . ,(or first ""))
               (diskAfterFirst . ,(or disk ""))
               (final . ,(or second ""))
               (session . ,(or session ""))
               (resumed . ,(or resumed ""))
               (reopened . ,(or reopened ""))))))
  (when (buffer-live-p shell)
    (let ((kill-buffer-query-functions nil))
      (kill-buffer shell))))

;;; tandem-agent-shell-test.el ends here
