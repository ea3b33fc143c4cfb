;;; tandem-agent-shell.el --- tandem as an agent-shell agent over ACP -*- lexical-binding: t; -*-

;;; Commentary:

;; agent-shell (https://github.com/xenodium/agent-shell) hosts ACP agents
;; in a comint-style buffer with diffs and permission buttons.  This file
;; adds tandem to its agents: `tandem acp' is started with the keys from
;; `tandem-agent-shell-environment'.
;;
;;   (require 'tandem-agent-shell)
;;   M-x tandem-agent-shell

;;; Code:

(require 'agent-shell)

(defcustom tandem-agent-shell-command '("tandem" "acp")
  "Command line that starts tandem's ACP server."
  :type '(repeat string)
  :group 'agent-shell)

(defcustom tandem-agent-shell-environment nil
  "Extra environment for tandem, as \"NAME=value\" strings.
Build it with `agent-shell-make-environment-variables', e.g.
  (agent-shell-make-environment-variables
   \"ANTHROPIC_API_KEY\" (getenv \"ANTHROPIC_API_KEY\")
   \"TANDEM_MODEL\" \"claude-sonnet-4-5\")
Variables already in Emacs's environment are inherited."
  :type '(repeat string)
  :group 'agent-shell)

(defcustom tandem-agent-shell-default-mode nil
  "Mode new tandem sessions start in: \"ask\", \"code\", \"auto-edit\" or \"full-auto\"."
  :type '(choice (const nil) string)
  :group 'agent-shell)

(defun tandem-agent-shell-make-config ()
  "The agent-shell configuration for tandem."
  (agent-shell-make-agent-config
   :identifier 'tandem
   :mode-line-name "tandem"
   :buffer-name "tandem"
   :shell-prompt "tandem> "
   :shell-prompt-regexp "tandem> "
   :default-session-mode-id (lambda () tandem-agent-shell-default-mode)
   :client-maker (lambda (buffer)
                   ;; agent-shell's own agents build their clients this way.
                   (agent-shell--make-acp-client :command (car tandem-agent-shell-command)
                                                 :command-params (cdr tandem-agent-shell-command)
                                                 :environment-variables tandem-agent-shell-environment
                                                 :context-buffer buffer))
   :install-instructions "Build tandem: go build -o ~/.local/bin/tandem ./cmd/tandem (see editors/emacs/README.md)."))

(add-to-list 'agent-shell-agent-configs (tandem-agent-shell-make-config) t)

;;;###autoload
(defun tandem-agent-shell ()
  "Start a tandem agent-shell."
  (interactive)
  (agent-shell--dwim :config (tandem-agent-shell-make-config) :new-shell t))

(provide 'tandem-agent-shell)
;;; tandem-agent-shell.el ends here
