;;; tandem-eglot-ghost.el --- tandem's ghost text in eglot buffers -*- lexical-binding: t; -*-

;;; Commentary:

;; eglot has no client for LSP 3.18's textDocument/inlineCompletion, so
;; this minor mode asks tandem for it and draws the suggestion as an
;; overlay after point (in the `shadow' face) a short pause after you
;; type.  TAB inserts it (as typed text: `undo' takes it back) when one is
;; shown and keeps its own meaning otherwise; M-] asks again; C-g or any
;; other command dismisses it.
;;
;; Setup, in a buffer eglot manages with tandem (see tandem-eglot.el):
;;   (add-hook 'eglot-managed-mode-hook #'tandem-eglot-ghost-maybe)

;;; Code:

(require 'eglot)
(require 'jsonrpc)

(defcustom tandem-eglot-ghost-delay 0.1
  "Seconds after a keystroke before tandem is asked for ghost text."
  :type 'number
  :group 'tandem-eglot)

(defvar-local tandem-eglot-ghost--overlay nil
  "The overlay showing the suggestion, or nil.")
(defvar-local tandem-eglot-ghost--text nil
  "The suggestion the overlay shows.")
(defvar-local tandem-eglot-ghost--timer nil
  "The timer of the next request.")

(defun tandem-eglot-ghost--shown-p (_cmd)
  "Non-nil when a suggestion is shown (the TAB binding's filter)."
  (and tandem-eglot-ghost--overlay _cmd))

(defvar tandem-eglot-ghost-mode-map
  (let ((map (make-sparse-keymap)))
    ;; TAB accepts only while a suggestion is shown; otherwise the
    ;; binding is absent and TAB indents as usual.
    (define-key map (kbd "TAB") '(menu-item "" tandem-eglot-ghost-accept :filter tandem-eglot-ghost--shown-p))
    (define-key map (kbd "<tab>") '(menu-item "" tandem-eglot-ghost-accept :filter tandem-eglot-ghost--shown-p))
    (define-key map (kbd "M-]") #'tandem-eglot-ghost-request)
    map)
  "Keys of `tandem-eglot-ghost-mode'.")

(define-minor-mode tandem-eglot-ghost-mode
  "Show tandem's inline completions as ghost text."
  :lighter " ghost"
  :keymap tandem-eglot-ghost-mode-map
  (if tandem-eglot-ghost-mode
      (add-hook 'post-command-hook #'tandem-eglot-ghost--after-command nil t)
    (remove-hook 'post-command-hook #'tandem-eglot-ghost--after-command t)
    (tandem-eglot-ghost-dismiss)))

(defun tandem-eglot-ghost-maybe ()
  "Turn on `tandem-eglot-ghost-mode' when this buffer's server offers completions."
  (let ((server (eglot-current-server)))
    (when (and server (if (fboundp 'eglot-server-capable)
                          (eglot-server-capable :inlineCompletionProvider)
                        (eglot--server-capable :inlineCompletionProvider)))
      (tandem-eglot-ghost-mode 1))))

(defun tandem-eglot-ghost-dismiss ()
  "Remove the suggestion."
  (interactive)
  (when tandem-eglot-ghost--overlay (delete-overlay tandem-eglot-ghost--overlay))
  (setq tandem-eglot-ghost--overlay nil tandem-eglot-ghost--text nil))

(defun tandem-eglot-ghost--after-command ()
  "Dismiss the suggestion, and after typing ask for the next one.
A command loop that starts (a keyboard macro's) runs the hook with no
command: that leaves the suggestion alone."
  (unless (memq this-command '(nil tandem-eglot-ghost-accept))
    (tandem-eglot-ghost-dismiss)
    (when tandem-eglot-ghost--timer (cancel-timer tandem-eglot-ghost--timer))
    (when (memq this-command '(self-insert-command org-self-insert-command))
      (let ((buf (current-buffer)))
        (setq tandem-eglot-ghost--timer
              (run-with-timer tandem-eglot-ghost-delay nil
                              (lambda () (when (buffer-live-p buf)
                                           (with-current-buffer buf (tandem-eglot-ghost-request t))))))))))

(defun tandem-eglot-ghost-request (&optional automatic)
  "Ask tandem for ghost text at point; AUTOMATIC when not asked by the user.
An answer that comes after the buffer or point changed is dropped."
  (interactive)
  (let ((server (eglot-current-server))
        (buf (current-buffer))
        (tick (buffer-chars-modified-tick))
        (pt (point)))
    (when server
      (eglot--signal-textDocument/didChange)
      (jsonrpc-async-request
       server :textDocument/inlineCompletion
       (append (eglot--TextDocumentPositionParams) `(:context (:triggerKind ,(if automatic 2 1))))
       :success-fn
       (lambda (res)
         (when (buffer-live-p buf)
           (with-current-buffer buf
             (when (and (= tick (buffer-chars-modified-tick)) (= pt (point)))
               (let* ((items (if (vectorp res) res (plist-get res :items)))
                      (item (and (> (length items) 0) (aref items 0)))
                      (text (and item (plist-get item :insertText))))
                 (when (listp text) (setq text (plist-get text :value)))
                 (when (and (stringp text) (> (length text) 0))
                   (tandem-eglot-ghost--show text)))))))
       :error-fn #'ignore
       :timeout 30))))

(defun tandem-eglot-ghost--show (text)
  "Show TEXT after point as ghost text."
  (tandem-eglot-ghost-dismiss)
  (let ((ov (make-overlay (point) (point) nil t nil))
        (shown (propertize text 'face 'shadow)))
    ;; The cursor stays before the suggestion, not after it.
    (put-text-property 0 1 'cursor t shown)
    (overlay-put ov 'after-string shown)
    (overlay-put ov 'tandem-eglot-ghost t)
    (setq tandem-eglot-ghost--overlay ov tandem-eglot-ghost--text text)))

(defun tandem-eglot-ghost-accept ()
  "Insert the shown suggestion at point."
  (interactive)
  (let ((text tandem-eglot-ghost--text)
        (pos (and tandem-eglot-ghost--overlay (overlay-start tandem-eglot-ghost--overlay))))
    (tandem-eglot-ghost-dismiss)
    (when (and text pos)
      (goto-char pos)
      (insert text))))

(provide 'tandem-eglot-ghost)
;;; tandem-eglot-ghost.el ends here
