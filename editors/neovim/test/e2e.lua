-- End-to-end check of the plugin, run by editors/neovim_test.go:
--   nvim --headless -u NONE --cmd 'set rtp^=editors/neovim' -c 'luafile e2e.lua'
-- with TANDEM_BIN, FILE (inside a git workspace) and RESULT set, and the
-- model environment pointing at the fake model. It opens FILE, makes an
-- unsaved change, asks tandem about two lines with :TandemAsk, answers the
-- permission prompt through vim.ui.select, undoes the agent's edit and
-- switches mode, then writes what it saw to RESULT for the Go test.
local result = { errors = {}, asked = {} }

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
  tandem.setup({ cmd = { os.getenv('TANDEM_BIN'), 'lsp' }, mode = 'code' })

  -- A picker plugin's stand-in. Permission prompts: record the question,
  -- choose "allow once". The session list: choose the first session. The
  -- model list: choose the first model.
  result.pickers = {}
  vim.ui.select = function(items, o, on_choice)
    if items[1] and items[1].sessionId then
      table.insert(result.pickers, o.prompt)
      for _, it in ipairs(items) do
        if it.sessionId == result.firstSession then return on_choice(it) end
      end
      return on_choice(nil)
    elseif items[1] and items[1].value then
      table.insert(result.pickers, o.prompt)
      return on_choice(items[1])
    end
    local ids = {}
    for _, it in ipairs(items) do table.insert(ids, it.optionId) end
    table.insert(result.asked, { prompt = o.prompt, options = ids })
    for _, it in ipairs(items) do
      if it.optionId == 'allow_once' then return on_choice(it) end
    end
    on_choice(nil)
  end

  vim.cmd('edit ' .. vim.fn.fnameescape(os.getenv('FILE')))
  local buf = vim.api.nvim_get_current_buf()
  local st = tandem.state()
  if not st then error('setup did not start tandem for a file in a git workspace') end
  local client = vim.lsp.get_client_by_id(st.id)
  wait('initialize', 15000, function() return client.initialized end)
  result.root = st.root

  -- The user's unsaved change, typed as keys so it is an undo step of its own.
  vim.api.nvim_win_set_cursor(0, { 2, 0 })
  vim.cmd('normal! ciwgreetings')
  result.before = vim.api.nvim_buf_get_lines(buf, 0, -1, false)

  vim.cmd('1,2TandemAsk change the greeting')
  wait('the prompt to finish', 30000, function() return st.last_stop ~= nil end)
  result.stopReason = st.last_stop
  result.lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
  result.modified = vim.api.nvim_buf_get_option(buf, 'modified')
  result.chat = st.chat:text()

  vim.api.nvim_set_current_buf(buf)
  vim.cmd('normal! u')
  result.undone = vim.api.nvim_buf_get_lines(buf, 0, -1, false)

  vim.cmd('TandemMode ask')
  wait('the mode change', 10000, function() return st.mode == 'ask' end)
  wait('the mode update in the chat', 5000, function() return st.chat:text():find('mode: ask', 1, true) ~= nil end)
  result.mode = st.mode

  -- A range ending on the last line: its end is that line's length in
  -- the negotiated encoding, not the start of a line that does not exist.
  st.last_stop = nil
  vim.cmd('3TandemAsk what is this line')
  wait('the second prompt', 30000, function() return st.last_stop ~= nil end)
  result.secondStop = st.last_stop
  result.chat = st.chat:text()

  -- The model picker lists the server's models; choosing one switches.
  result.firstSession = st.session
  vim.cmd('TandemModel')
  wait('the model switch', 10000, function() return st.model ~= nil end)
  result.model = st.model

  -- A new session, then the first one reopened from the list, its
  -- conversation replayed into the chat.
  vim.cmd('TandemNew')
  wait('the new session', 10000, function() return st.session ~= result.firstSession end)
  vim.cmd('TandemSessions')
  wait('the reopened session', 15000, function() return st.opened == result.firstSession end)
  result.reopened = st.session
  result.reopenedChat = st.chat:text()
end)
if not ok then table.insert(result.errors, tostring(err)) end
finish()
