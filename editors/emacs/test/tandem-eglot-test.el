;;; tandem-eglot-test.el --- batch end-to-end check of tandem-eglot -*- lexical-binding: t; -*-

;; Run by editors/emacs_test.go:
;;   emacs --batch -Q -l editors/emacs/test/tandem-eglot-test.el
;; with TANDEM_BIN, FILE (inside a git workspace) and RESULT set and the
;; model environment pointing at the fake model.  It opens FILE, makes an
;; unsaved change, starts eglot through `tandem-eglot-register', asks about
;; the first two lines, answers the permission prompt, undoes the agent's
;; edit and switches mode, then writes what it saw to RESULT as JSON.

;;; Code:

(require 'package)
;; On Emacs 28 Debian's elpa-eglot lives here (-Q leaves it out of the
;; default list); Emacs 29+ has eglot built in.
(add-to-list 'package-directory-list "/usr/share/emacs/site-lisp/elpa")
(package-initialize)
(add-to-list 'load-path (expand-file-name ".." (file-name-directory load-file-name)))
(require 'tandem-eglot)
(require 'json)

(setq eglot-confirm-server-initiated-edits nil) ; tandem asks itself
(setq tandem-eglot-command (list (getenv "TANDEM_BIN") "lsp"))
(setq tandem-eglot-mode "code")
(tandem-eglot-register '(text-mode))

(defvar tandem-test-asked nil)
(setq tandem-eglot-permission-function
      (lambda (tool options)
        (push (list (plist-get tool :title) (mapcar (lambda (o) (plist-get o :optionId)) options))
              tandem-test-asked)
        "allow_once"))

(defun tandem-test-wait (what seconds pred)
  "Process output until PRED holds, or fail naming WHAT after SECONDS."
  (let ((deadline (+ (float-time) seconds)))
    (while (not (funcall pred))
      (when (> (float-time) deadline) (error "Timed out waiting for %s" what))
      (accept-process-output nil 0.05))))

(defun tandem-test-lines ()
  (vconcat (split-string (buffer-substring-no-properties (point-min) (point-max)) "\n")))

(let (errors before lines modified undone chat stop mode)
  (condition-case err
      (let (server)
        (find-file (getenv "FILE"))
        (text-mode)
        (goto-char (point-min))
        (forward-line 1)
        (delete-region (point) (+ (point) 5))
        (insert "greetings")
        (undo-boundary)
        (setq before (tandem-test-lines))
        ;; The same lookup M-x eglot does, so the registration is what is tested.
        (apply #'eglot (eglot--guess-contact))
        (setq server (eglot-current-server))
        (unless (cl-typep server 'tandem-eglot-server)
          (error "eglot started %S, not tandem" server))
        (tandem-eglot-ask "change the greeting" (point-min) (save-excursion (goto-char (point-min)) (forward-line 2) (point)))
        (tandem-test-wait "the prompt" 30 (lambda () (not (eq (tandem-eglot--busy server) t))))
        (setq stop (tandem-eglot--busy server))
        (setq lines (tandem-test-lines) modified (buffer-modified-p))
        (undo-boundary)
        (let ((last-command nil)) (undo))
        (setq undone (tandem-test-lines))
        (tandem-eglot-set-mode "ask")
        (tandem-test-wait "the mode update" 10
                          (lambda () (with-current-buffer (tandem-eglot--chat-buffer server)
                                       (string-match-p "mode: ask" (buffer-string)))))
        (setq mode "ask")
        (setq chat (with-current-buffer (tandem-eglot--chat-buffer server) (buffer-string)))
        (eglot-shutdown server))
    (error (push (error-message-string err) errors)))
  (with-temp-file (getenv "RESULT")
    (insert (json-encode
             `((errors . ,(vconcat errors))
               (before . ,before) (lines . ,lines) (undone . ,undone)
               (modified . ,(if modified t :json-false))
               (stopReason . ,(format "%s" stop))
               (chat . ,(or chat ""))
               (mode . ,(or mode ""))
               (asked . ,(vconcat (mapcar (lambda (a) `((title . ,(car a)) (options . ,(vconcat (cadr a)))))
                                          tandem-test-asked))))))))
  (kill-emacs 0))

;;; tandem-eglot-test.el ends here
