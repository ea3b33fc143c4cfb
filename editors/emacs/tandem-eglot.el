;;; tandem-eglot.el --- tandem over eglot: chat, permissions, edits -*- lexical-binding: t; -*-

;; Works with eglot 1.9 (Debian 12's elpa-eglot on Emacs 28) and the eglot
;; built into Emacs 29 and later.

;;; Commentary:

;; `tandem lsp' serves a coding agent over LSP.  This file makes eglot
;; its client: a server class that declares tandem's permission
;; capability, handlers for the tandem/update and tandem/requestPermission
;; messages, a chat buffer, and commands to ask, cancel and switch mode.
;; The agent's edits arrive as workspace/applyEdit, which eglot applies to
;; your buffers, so `undo' takes them back.
;;
;; Setup:
;;   (require 'tandem-eglot)
;;   (tandem-eglot-register '(text-mode markdown-mode))   ; modes to run tandem for
;;   M-x eglot in such a buffer, then M-x tandem-eglot-ask.

;;; Code:

(require 'cl-lib)
(require 'eglot)
(require 'jsonrpc)
(require 'project)

(defgroup tandem-eglot nil
  "The tandem coding agent through eglot."
  :group 'eglot)

(defcustom tandem-eglot-command '("tandem" "lsp")
  "Command line that starts tandem's LSP server."
  :type '(repeat string))

(defcustom tandem-eglot-mode nil
  "Mode of new sessions, or nil for tandem's default.
One of \"ask\", \"code\", \"auto-edit\" and \"full-auto\"."
  :type '(choice (const nil) string))

(defcustom tandem-eglot-permission-function #'tandem-eglot-read-permission
  "Function asking the user about a tool call.
Called with the tool call and the list of options (plists with
:optionId, :name and :kind); returns the chosen option's id, or nil."
  :type 'function)

(defclass tandem-eglot-server (eglot-lsp-server)
  ((session :initform nil :accessor tandem-eglot--session
            :documentation "The id of this server's tandem session.")
   (chat :initform nil :accessor tandem-eglot--chat
         :documentation "The chat buffer of the session.")
   (tools :initform nil :accessor tandem-eglot--tools
          :documentation "Alist of tool call id to the marker of its line.")
   (last :initform nil :accessor tandem-eglot--last
         :documentation "What the chat shows last: agent, thought, tool or note.")
   (busy :initform nil :accessor tandem-eglot--busy
         :documentation "Non-nil while a prompt runs; the stop reason after."))
  :documentation "An eglot server that is tandem.")

;;;###autoload
(defun tandem-eglot-register (modes)
  "Make eglot start tandem for buffers in MODES (a list of major modes).
eglot runs one server per major mode and project, so pick modes that
have no other language server, or use agent-shell next to it."
  (add-to-list 'eglot-server-programs
               (cons modes (cons 'tandem-eglot-server tandem-eglot-command))))

(cl-defmethod eglot-client-capabilities :around ((_server tandem-eglot-server))
  "Declare experimental.tandem.permissions so tandem asks with its own request."
  (let ((caps (cl-call-next-method)))
    (plist-put caps :experimental '(:tandem (:permissions t)))))

;;; Chat buffer

(defun tandem-eglot--chat-buffer (server)
  "Return SERVER's chat buffer, creating it."
  (let ((buf (tandem-eglot--chat server)))
    (unless (buffer-live-p buf)
      (setq buf (get-buffer-create (format "*tandem %s*" (eglot-project-nickname server))))
      (with-current-buffer buf
        (special-mode)
        (setq-local truncate-lines nil))
      (setf (tandem-eglot--chat server) buf))
    buf))

(defun tandem-eglot--insert (server kind text &optional header)
  "Append TEXT to SERVER's chat; start a section with HEADER when KIND changes."
  (with-current-buffer (tandem-eglot--chat-buffer server)
    (let ((inhibit-read-only t))
      (save-excursion
        (goto-char (point-max))
        (unless (eq (tandem-eglot--last server) kind)
          (insert (if (bobp) "" "\n\n") (or header ""))
          (setf (tandem-eglot--last server) kind))
        (insert text)))))

(defun tandem-eglot--tool-line (tool)
  "The chat line for TOOL, a plist of tool call fields."
  (let ((status (or (plist-get tool :status) "pending")))
    (format "- [%s] %s" status (or (plist-get tool :title) (plist-get tool :kind) "tool"))))

(defun tandem-eglot--tool (server update)
  "Show or refresh the tool call of UPDATE in SERVER's chat."
  (let* ((id (plist-get update :toolCallId))
         (known (assoc id (tandem-eglot--tools server))))
    (if (not known)
        (progn
          (tandem-eglot--insert server 'tool "" "")
          (with-current-buffer (tandem-eglot--chat-buffer server)
            (let ((inhibit-read-only t))
              (goto-char (point-max))
              (unless (bolp) (insert "\n"))
              (let ((start (copy-marker (point))))
                (insert (tandem-eglot--tool-line update))
                (push (list id start update) (tandem-eglot--tools server))))))
      ;; A tool_call_update carries only what changed.
      (let ((fields (nth 2 known)))
        (cl-loop for (k v) on update by #'cddr
                 when v do (setq fields (plist-put fields k v)))
        (setf (nth 2 known) fields)
        (with-current-buffer (tandem-eglot--chat-buffer server)
          (let ((inhibit-read-only t))
            (save-excursion
              (goto-char (nth 1 known))
              (delete-region (point) (line-end-position))
              (insert (tandem-eglot--tool-line fields)))))))))

(defun tandem-eglot--render (server update)
  "Show one ACP session/update object UPDATE in SERVER's chat."
  (let ((kind (plist-get update :sessionUpdate))
        (text (plist-get (plist-get update :content) :text)))
    (pcase kind
      ;; A subagent's own reply would interleave with this one; its report
      ;; comes back as the task call's result.
      ((and (pred (string-suffix-p "_chunk"))
            (guard (plist-get (plist-get (plist-get update :_meta) :tandem) :parentToolCallId)))
       nil)
      ("agent_message_chunk" (when text (tandem-eglot--insert server 'agent text "tandem: ")))
      ("agent_thought_chunk" (when text (tandem-eglot--insert server 'thought text "(thinking) ")))
      ((or "tool_call" "tool_call_update") (tandem-eglot--tool server update))
      ("plan"
       (tandem-eglot--insert
        server 'plan
        (mapconcat (lambda (e) (format "\n  [%s] %s" (plist-get e :status) (plist-get e :content)))
                   (plist-get update :entries) "")
        "Plan:")
       (setf (tandem-eglot--last server) 'plan-done))
      ("current_mode_update"
       (tandem-eglot--note server (format "mode: %s" (plist-get update :currentModeId)))))))

(defun tandem-eglot--note (server text)
  "Add the one-line remark TEXT to SERVER's chat."
  (tandem-eglot--insert server 'note text "")
  (setf (tandem-eglot--last server) 'note-done))

(cl-defmethod eglot-handle-notification
  ((server tandem-eglot-server) (_method (eql tandem/update)) &key sessionId update &allow-other-keys)
  "Render a tandem/update notification for SERVER's session."
  (when (equal sessionId (tandem-eglot--session server))
    (tandem-eglot--render server update)))

;;; Permissions

(defun tandem-eglot-read-permission (tool options)
  "Ask with `completing-read' whether TOOL may run.
Return the id of one of OPTIONS."
  (let* ((names (mapcar (lambda (o) (cons (plist-get o :name) (plist-get o :optionId))) options))
         (files (delete-dups (mapcar (lambda (l) (plist-get l :path)) (plist-get tool :locations))))
         (prompt (format "tandem wants to: %s%s? "
                         (or (plist-get tool :title) (plist-get tool :kind))
                         (if files (concat " (" (mapconcat #'identity files ", ") ")") ""))))
    (cdr (assoc (completing-read prompt names nil t) names))))

(cl-defmethod eglot-handle-request
  ((server tandem-eglot-server) (_method (eql tandem/requestPermission)) &key toolCall options &allow-other-keys)
  "Answer tandem/requestPermission by asking the user; quitting rejects."
  (let* ((options (append options nil))
         (id (condition-case nil
                 (funcall tandem-eglot-permission-function toolCall options)
               (quit nil)))
         (reject (cl-find "reject_once" options :key (lambda (o) (plist-get o :kind)) :test #'equal)))
    (unless (cl-find id options :key (lambda (o) (plist-get o :optionId)) :test #'equal)
      (setq id (and reject (plist-get reject :optionId))))
    (tandem-eglot--note server (format "permission for %s: %s" (plist-get toolCall :title) (or id "cancelled")))
    (if id
        `(:outcome (:outcome "selected" :optionId ,id))
      '(:outcome (:outcome "cancelled")))))

;;; Commands

(defun tandem-eglot--server ()
  "The tandem server managing this buffer."
  (let ((server (eglot-current-server)))
    (unless (cl-typep server 'tandem-eglot-server)
      (user-error "This buffer is not managed by tandem; see `tandem-eglot-register' and M-x eglot"))
    server))

(defun tandem-eglot--cwd (server)
  "The workspace directory of SERVER."
  (expand-file-name (project-root (eglot--project server))))

(defun tandem-eglot-new-session (&optional mode)
  "Start a new tandem session in this project, in MODE (nil: `tandem-eglot-mode')."
  (interactive (list (completing-read "Mode: " '("ask" "code" "auto-edit" "full-auto") nil t)))
  (let* ((server (tandem-eglot--server))
         (res (jsonrpc-request server :tandem/newSession
                               `(:cwd ,(directory-file-name (tandem-eglot--cwd server))
                                      ,@(when (or mode tandem-eglot-mode) `(:mode ,(or mode tandem-eglot-mode)))))))
    (setf (tandem-eglot--session server) (plist-get res :sessionId)
          (tandem-eglot--tools server) nil)
    (tandem-eglot--note server (format "session %s (%s)" (plist-get res :sessionId)
                                       (plist-get (plist-get res :modes) :currentModeId)))
    (plist-get res :sessionId)))

(defun tandem-eglot--uri (file)
  "The file:// URI of FILE, as eglot spells it."
  (if (fboundp 'eglot-path-to-uri) (eglot-path-to-uri file) (eglot--path-to-uri file)))

(defun tandem-eglot-ask (text &optional beg end)
  "Ask tandem TEXT; with an active region (BEG..END) send it as context."
  (interactive (list (read-string "Ask tandem: ")
                     (and (use-region-p) (region-beginning))
                     (and (use-region-p) (region-end))))
  (let* ((server (tandem-eglot--server))
         (session (or (tandem-eglot--session server) (tandem-eglot-new-session)))
         (context (when (and beg end buffer-file-name)
                    `[(:uri ,(tandem-eglot--uri buffer-file-name)
                            :range (:start ,(eglot--pos-to-lsp-position beg)
                                           :end ,(eglot--pos-to-lsp-position end)))])))
    ;; The agent reads this buffer: send pending changes first.
    (eglot--signal-textDocument/didChange)
    (tandem-eglot--insert server 'user text "> ")
    (setf (tandem-eglot--busy server) t)
    (display-buffer (tandem-eglot--chat-buffer server))
    (jsonrpc-async-request
     server :tandem/prompt
     `(:sessionId ,session :prompt [(:type "text" :text ,text)] ,@(when context `(:context ,context)))
     :success-fn (lambda (res)
                   (setf (tandem-eglot--busy server) (plist-get res :stopReason))
                   (tandem-eglot--note server (format "done (%s)" (plist-get res :stopReason))))
     :error-fn (lambda (err)
                 (setf (tandem-eglot--busy server) 'error)
                 (tandem-eglot--note server (format "error: %s" (plist-get err :message))))
     ;; A turn may take minutes; jsonrpc's default timeout is 10 seconds.
     :timeout 3600)))

(defun tandem-eglot-cancel ()
  "Cancel the running tandem prompt."
  (interactive)
  (let ((server (tandem-eglot--server)))
    (when (tandem-eglot--session server)
      (jsonrpc-notify server :tandem/cancel `(:sessionId ,(tandem-eglot--session server))))))

(defun tandem-eglot-set-mode (mode)
  "Switch the tandem session to MODE."
  (interactive (list (completing-read "Mode: " '("ask" "code" "auto-edit" "full-auto") nil t)))
  (let* ((server (tandem-eglot--server))
         (session (or (tandem-eglot--session server) (tandem-eglot-new-session))))
    (jsonrpc-request server :tandem/setMode `(:sessionId ,session :modeId ,mode))))

(provide 'tandem-eglot)
;;; tandem-eglot.el ends here
