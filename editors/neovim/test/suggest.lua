-- End-to-end check of ghost text and next edit, run by
-- editors/neovim_suggest_test.go with TANDEM_BIN, FILE (calc.go in a git
-- workspace, calc_test.go beside it) and RESULT set, tandem's completion
-- model pointing at a fake FIM server and its chat model at the fake
-- model. It types in insert mode (feedkeys with '!' stays in insert mode
-- while timers run), waits for the ghost text, accepts it with <Tab>,
-- undoes it; then renames a function and accepts the suggested next edit
-- in the test file, and undoes that too.
local result = { errors = {} }

local function finish()
  local f = assert(io.open(os.getenv('RESULT'), 'w'))
  f:write(vim.fn.json_encode(result))
  f:close()
  vim.cmd('qa!')
end

local function wait(what, ms, cond)
  if not vim.wait(ms, cond, 20) then error('timed out waiting for ' .. what) end
end

local ok, err = pcall(function()
  local tandem = require('tandem')
  local suggest = require('tandem.suggest')
  tandem.setup({ cmd = { os.getenv('TANDEM_BIN'), 'lsp' } })
  result.builtin = vim.lsp.inline_completion ~= nil

  vim.cmd('edit ' .. vim.fn.fnameescape(os.getenv('FILE')))
  local buf = vim.api.nvim_get_current_buf()
  local st = tandem.state()
  if not st then error('setup did not start tandem') end
  local client = vim.lsp.get_client_by_id(st.id)
  wait('initialize', 15000, function() return client.initialized end)
  local caps = client.server_capabilities or client.resolved_capabilities
  result.advertised = caps.inlineCompletionProvider == true

  -- Type a new function's start; a timer (run while insert mode waits
  -- for keys) records the ghost text once it shows and presses <Tab>.
  vim.api.nvim_win_set_cursor(0, { vim.api.nvim_buf_line_count(buf), 0 })
  local deadline = vim.loop.now() + 15000
  local function poll()
    local ghost = suggest.ghost(buf)
    if ghost then
      result.ghost = ghost
      result.marks = #vim.api.nvim_buf_get_extmarks(buf, vim.api.nvim_create_namespace('tandem_suggest'), 0, -1, {})
      vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes('<Tab>', true, false, true), 'm', false)
      vim.defer_fn(function() vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes('<Esc>', true, false, true), 'n', false) end, 200)
    elseif vim.loop.now() > deadline then
      result.errors[#result.errors + 1] = 'no ghost text within 15 s'
      vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes('<Esc>', true, false, true), 'n', false)
    else
      vim.defer_fn(poll, 20)
    end
  end
  vim.defer_fn(poll, 20)
  vim.fn.feedkeys('ofunc Mul(', 'tx!')
  result.accepted = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
  vim.cmd('normal! u')
  result.undone = vim.api.nvim_buf_get_lines(buf, 0, -1, false)

  -- Rename Add to Sum, then ask for the next edit: the test's call.
  vim.api.nvim_win_set_cursor(0, { 3, 5 })
  vim.cmd('normal! ciwSum')
  local target, sg
  suggest.next_edit(client, buf, function(b, s) target, sg = b, s or false end)
  wait('tandem/nextEdit', 15000, function() return sg ~= nil end)
  if not sg then error('no next edit suggested') end
  result.nextUri = sg.uri
  result.shownLines = #vim.api.nvim_buf_get_extmarks(target, vim.api.nvim_create_namespace('tandem_suggest'), 0, -1, {})
  vim.cmd('TandemNextEditAccept')
  result.nextAccepted = vim.api.nvim_buf_get_lines(target, 0, -1, false)
  vim.api.nvim_buf_call(target, function() vim.cmd('normal! u') end)
  result.nextUndone = vim.api.nvim_buf_get_lines(target, 0, -1, false)
end)
if not ok then table.insert(result.errors, tostring(err)) end
finish()
