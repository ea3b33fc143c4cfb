;;; tandem-eglot-ghost-test.el --- batch check of tandem's ghost text in eglot -*- lexical-binding: t; -*-

;; Run by editors/emacs_ghost_test.go:
;;   emacs --batch -Q -l editors/emacs/test/tandem-eglot-ghost-test.el
;; with TANDEM_BIN, FILE (inside a git workspace) and RESULT set, and
;; tandem's completion model pointing at a fake FIM server.  It types at
;; the end of FILE as keys (so the mode's post-command hook sees them),
;; waits for the ghost text overlay, accepts it with TAB, undoes it, and
;; writes what it saw to RESULT as JSON.

;;; Code:

(require 'package)
(add-to-list 'package-directory-list "/usr/share/emacs/site-lisp/elpa")
(package-initialize)
(add-to-list 'load-path (expand-file-name ".." (file-name-directory load-file-name)))
(require 'tandem-eglot)
(require 'tandem-eglot-ghost)
(require 'json)

(setq tandem-eglot-command (list (getenv "TANDEM_BIN") "lsp"))
(tandem-eglot-register '(text-mode))
(add-hook 'eglot-managed-mode-hook #'tandem-eglot-ghost-maybe)

(defun tandem-test-wait (what seconds pred)
  "Process output until PRED holds, or fail naming WHAT after SECONDS."
  (let ((deadline (+ (float-time) seconds)))
    (while (not (funcall pred))
      (when (> (float-time) deadline) (error "Timed out waiting for %s" what))
      (accept-process-output nil 0.05))))

(defun tandem-test-text ()
  (buffer-substring-no-properties (point-min) (point-max)))

(let (errors mode ghost shown accepted undone)
  (condition-case err
      (let (server)
        (find-file (getenv "FILE"))
        (text-mode)
        (apply #'eglot (eglot--guess-contact))
        (setq server (eglot-current-server))
        (tandem-test-wait "eglot" 15 (lambda () (bound-and-true-p tandem-eglot-ghost-mode)))
        (setq mode t)
        (goto-char (point-max))
        (undo-boundary)
        (execute-kbd-macro (kbd "c o m p l e t e SPC m e :"))
        (tandem-test-wait "the ghost text" 15 (lambda () tandem-eglot-ghost--overlay))
        (setq ghost tandem-eglot-ghost--text
              shown (overlay-get tandem-eglot-ghost--overlay 'after-string))
        (execute-kbd-macro (kbd "TAB"))
        (setq accepted (tandem-test-text))
        (undo-boundary)
        (let ((last-command nil)) (undo))
        (setq undone (tandem-test-text))
        (eglot-shutdown server))
    (error (push (error-message-string err) errors)))
  (with-temp-file (getenv "RESULT")
    (insert (json-encode
             `((errors . ,(vconcat errors))
               (mode . ,(if mode t :json-false))
               (ghost . ,(or ghost ""))
               (shown . ,(if shown (substring-no-properties shown) ""))
               (accepted . ,(or accepted ""))
               (undone . ,(or undone ""))))))
  (kill-emacs 0))

;;; tandem-eglot-ghost-test.el ends here
