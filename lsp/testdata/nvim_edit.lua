-- Drives Neovim's built-in LSP client against `tandem lsp`: opens a buffer,
-- makes an unsaved change, starts a session and a prompt, and writes what
-- happened to $RESULT as JSON. The Go test (nvim_test.go) checks it.
local bin, root, file, out = os.getenv('TANDEM_BIN'), os.getenv('ROOT'), os.getenv('FILE'), os.getenv('RESULT')
local result = { errors = {}, updates = 0 }

local function finish()
  local f = assert(io.open(out, 'w'))
  f:write(vim.fn.json_encode(result))
  f:close()
  vim.cmd('qa!')
end

local function fail(msg)
  table.insert(result.errors, msg)
  finish()
end

local ok, err = pcall(function()
  vim.cmd('edit ' .. vim.fn.fnameescape(file))
  local buf = vim.api.nvim_get_current_buf()
  -- The unsaved change the agent must see and the disk must never get.
  vim.api.nvim_buf_set_lines(buf, 1, 2, false, { 'hello unsaved world' })

  local initialized = false
  local id = vim.lsp.start_client({
    name = 'tandem',
    cmd = { bin, 'lsp' },
    root_dir = root,
    flags = { debounce_text_changes = 0 },
    on_init = function() initialized = true end,
    handlers = {
      ['tandem/update'] = function() result.updates = result.updates + 1 end,
    },
  })
  if not id then return fail('start_client failed') end
  vim.lsp.buf_attach_client(buf, id)
  if not vim.wait(15000, function() return initialized end, 20) then return fail('initialize timed out') end
  local client = vim.lsp.get_client_by_id(id)

  local function request(method, params)
    local done, res, rerr = false, nil, nil
    client.request(method, params, function(e, r) rerr, res, done = e, r, true end, buf)
    if not vim.wait(30000, function() return done end, 20) then error(method .. ' timed out') end
    if rerr then error(method .. ': ' .. vim.inspect(rerr)) end
    return res
  end

  local session = request('tandem/newSession', { cwd = root, mode = 'full-auto' })
  result.sessionId = session.sessionId
  local prompt = request('tandem/prompt', {
    sessionId = session.sessionId,
    prompt = { { type = 'text', text = 'replace the word unsaved' } },
  })
  result.stopReason = prompt.stopReason
  result.lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
  result.modified = vim.api.nvim_buf_get_option(buf, 'modified')
  client.stop()
end)
if not ok then return fail(tostring(err)) end
finish()
