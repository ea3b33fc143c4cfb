-- Wraps Neovim's workspace/applyEdit handler so each agent edit is its own
-- undo step: `u` takes back exactly what the agent did, not the text the
-- user typed just before, and later typing does not merge into it.
local M = {}

-- break_undo closes the current undo block of every buffer an edit
-- touches. Re-assigning 'undolevels' is Vim's documented way to do so
-- from a script (:help undo-break).
local function break_undo(edit)
  local uris = {}
  for uri in pairs(edit.changes or {}) do uris[uri] = true end
  for _, change in ipairs(edit.documentChanges or {}) do
    if change.textDocument and change.textDocument.uri then uris[change.textDocument.uri] = true end
  end
  for uri in pairs(uris) do
    local buf = vim.uri_to_bufnr(uri)
    if vim.api.nvim_buf_is_loaded(buf) then
      vim.api.nvim_buf_call(buf, function()
        vim.cmd('let &g:undolevels = &g:undolevels')
        -- -123456 means "no local value"; only a real one needs re-setting.
        if vim.api.nvim_buf_get_option(buf, 'undolevels') ~= -123456 then
          vim.cmd('let &l:undolevels = &l:undolevels')
        end
      end)
    end
  end
end

-- handler is installed for workspace/applyEdit on tandem's client only.
function M.handler(err, params, ctx, config)
  local builtin = vim.lsp.handlers['workspace/applyEdit']
  if params and params.edit then pcall(break_undo, params.edit) end
  local result, rerr = builtin(err, params, ctx, config)
  if params and params.edit then pcall(break_undo, params.edit) end
  return result, rerr
end

return M
