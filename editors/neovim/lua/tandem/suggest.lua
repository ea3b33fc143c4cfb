-- Inline completions (ghost text) and next-edit suggestions from tandem.
-- Neovim 0.12+ has vim.lsp.inline_completion, which draws and accepts the
-- server's textDocument/inlineCompletion itself; older versions get ghost
-- text drawn here with extmarks. Accepting either kind of suggestion is an
-- ordinary buffer edit, which `u` takes back.
local M = {}

local ns = vim.api.nvim_create_namespace('tandem_suggest')
local builtin = vim.lsp.inline_completion ~= nil
local new_style = vim.fn.has('nvim-0.11') == 1

-- shown[bufnr] is the ghost text on screen: { line, col, text, tick }.
local shown = {}
-- next_edit[bufnr] is the next-edit suggestion on screen: { edits, encoding, id }.
local next_edit = {}
local seq = 0

local function request(client, method, params, handler, bufnr)
  if new_style then return client:request(method, params, handler, bufnr) end
  return client.request(method, params, handler, bufnr)
end

local function encoding(client)
  return client.offset_encoding or 'utf-16'
end

-- position is the cursor as an LSP position in the client's encoding.
local function position(client)
  return vim.lsp.util.make_position_params(0, encoding(client)).position
end

function M.dismiss(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  shown[bufnr] = nil
  vim.api.nvim_buf_clear_namespace(bufnr, ns, 0, -1)
end

-- draw shows text as ghost text at the cursor: the first line after the
-- cursor, the others as virtual lines below it.
local function draw(bufnr, text)
  M.dismiss(bufnr)
  if text == nil or text == '' then return end
  local cur = vim.api.nvim_win_get_cursor(0)
  local lines = vim.split(text, '\n', { plain = true })
  local line = vim.api.nvim_buf_get_lines(bufnr, cur[1] - 1, cur[1], false)[1] or ''
  local opts = { virt_text = { { lines[1], 'Comment' } }, hl_mode = 'combine' }
  if cur[2] >= #line then
    opts.virt_text_pos = 'overlay'
  else
    opts.virt_text_pos = 'eol'
  end
  if #lines > 1 then
    opts.virt_lines = {}
    for i = 2, #lines do table.insert(opts.virt_lines, { { lines[i], 'Comment' } }) end
  end
  vim.api.nvim_buf_set_extmark(bufnr, ns, cur[1] - 1, math.min(cur[2], #line), opts)
  shown[bufnr] = { line = cur[1] - 1, col = cur[2], text = text, tick = vim.api.nvim_buf_get_changedtick(bufnr) }
end

-- request_completion asks the server for ghost text at the cursor;
-- invoked (1) when the user asked, automatic (2) as they type. An answer
-- that comes after the buffer changed again is dropped.
function M.complete(client, bufnr, invoked)
  seq = seq + 1
  local mine = seq
  local tick = vim.api.nvim_buf_get_changedtick(bufnr)
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) },
    position = position(client),
    context = { triggerKind = invoked and 1 or 2 },
  }
  request(client, 'textDocument/inlineCompletion', params, function(err, result)
    if err or mine ~= seq or vim.api.nvim_buf_get_changedtick(bufnr) ~= tick then return end
    if vim.api.nvim_get_current_buf() ~= bufnr or vim.fn.mode() ~= 'i' then return end
    local items = result and (result.items or result) or {}
    local item = items[1]
    local text = item and item.insertText
    if type(text) == 'table' then text = text.value end
    draw(bufnr, text)
  end, bufnr)
end

-- accept inserts the ghost text at the cursor as typed text. It returns
-- false when there is none, so the key keeps its own meaning.
function M.accept(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  local s = shown[bufnr]
  if not s or s.tick ~= vim.api.nvim_buf_get_changedtick(bufnr) then return false end
  M.dismiss(bufnr)
  local lines = vim.split(s.text, '\n', { plain = true })
  vim.api.nvim_buf_set_text(bufnr, s.line, s.col, s.line, s.col, lines)
  local last = s.line + #lines
  local col = #lines == 1 and s.col + #lines[1] or #lines[#lines]
  vim.api.nvim_win_set_cursor(0, { last, col })
  return true
end

-- Next edit: ask tandem/nextEdit, show each edit's new text beside the
-- lines it replaces (and highlight them), accept applies them.
function M.next_edit(client, bufnr, cb)
  local params = { textDocument = { uri = vim.uri_from_bufnr(bufnr) }, position = position(client) }
  request(client, 'tandem/nextEdit', params, function(err, result)
    if err then
      vim.notify('tandem: next edit: ' .. (err.message or tostring(err)), vim.log.levels.WARN)
      if cb then cb(nil) end
      return
    end
    local sg = result and result.suggestions and result.suggestions[1]
    if not sg then
      if cb then cb(nil) end
      return
    end
    local target = vim.uri_to_bufnr(sg.uri)
    vim.fn.bufload(target)
    M.clear_next_edit(target)
    next_edit[target] = { edits = sg.edits, encoding = encoding(client), id = sg.id, uri = sg.uri }
    for _, e in ipairs(sg.edits) do
      local l = e.range.start.line
      vim.api.nvim_buf_set_extmark(target, ns, l, 0, {
        end_row = math.max(e.range['end'].line, l), line_hl_group = 'DiffDelete',
        virt_lines = vim.tbl_map(function(t) return { { '+ ' .. t, 'DiffAdd' } } end,
          vim.split(e.newText:gsub('\n$', ''), '\n', { plain = true })),
      })
    end
    if cb then cb(target, sg) end
  end, bufnr)
end

function M.clear_next_edit(bufnr)
  next_edit[bufnr] = nil
  vim.api.nvim_buf_clear_namespace(bufnr, ns, 0, -1)
end

-- accept_next_edit applies the shown next edit in the buffer it names.
function M.accept_next_edit()
  for buf, s in pairs(next_edit) do
    M.clear_next_edit(buf)
    vim.lsp.util.apply_text_edits(s.edits, buf, s.encoding)
    return buf
  end
  return nil
end

function M.reject_next_edit()
  for buf in pairs(next_edit) do M.clear_next_edit(buf) end
end

function M.pending_next_edit(bufnr) return next_edit[bufnr] end
function M.ghost(bufnr) return shown[bufnr] and shown[bufnr].text end

-- attach turns suggestions on for bufnr served by client: the built-in
-- inline completion where Neovim has it, else ghost text on every change
-- in insert mode (after a short pause), dismissed on leaving insert mode.
function M.attach(client, bufnr, o)
  if builtin and o.builtin ~= false then
    vim.lsp.inline_completion.enable(true, { bufnr = bufnr, client_id = client.id })
    return
  end
  local group = vim.api.nvim_create_augroup('tandem_suggest_' .. bufnr, { clear = true })
  local timer = nil
  vim.api.nvim_create_autocmd('TextChangedI', {
    group = group, buffer = bufnr,
    callback = function()
      M.dismiss(bufnr)
      if timer then timer:stop() end
      timer = vim.defer_fn(function()
        timer = nil
        if vim.api.nvim_buf_is_valid(bufnr) and vim.fn.mode() == 'i' then M.complete(client, bufnr, false) end
      end, o.delay or 75)
    end,
  })
  vim.api.nvim_create_autocmd({ 'InsertLeave', 'BufLeave' }, {
    group = group, buffer = bufnr, callback = function() M.dismiss(bufnr) end,
  })
end

-- keys maps accept, next and dismiss in insert mode. Accept falls back to
-- the key's own meaning when no ghost text is shown.
function M.keys(o, client_for)
  local function map(lhs, fn)
    if lhs then vim.keymap.set('i', lhs, fn, { expr = true, silent = true, desc = 'tandem suggestion' }) end
  end
  map(o.accept, function()
    if builtin and o.builtin ~= false then
      if vim.lsp.inline_completion.get() then return '' end
      return vim.api.nvim_replace_termcodes(o.accept, true, false, true)
    end
    if shown[vim.api.nvim_get_current_buf()] then
      vim.schedule(function() M.accept(0) end)
      return ''
    end
    return vim.api.nvim_replace_termcodes(o.accept, true, false, true)
  end)
  map(o.next, function()
    vim.schedule(function()
      if builtin and o.builtin ~= false then return vim.lsp.inline_completion.select({ count = 1 }) end
      local c = client_for(0)
      if c then M.complete(c, vim.api.nvim_get_current_buf(), true) end
    end)
    return ''
  end)
  map(o.dismiss, function()
    vim.schedule(function() M.dismiss(0) end)
    return ''
  end)
end

return M
