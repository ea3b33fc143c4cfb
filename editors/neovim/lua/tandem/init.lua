-- tandem for Neovim: starts `tandem lsp` for buffers in a workspace and
-- drives its tandem/* methods from a few commands and a chat buffer. Works
-- on Neovim 0.7.2 (vim.lsp.start_client) and later (vim.lsp.start).
local chat = require('tandem.chat')
local permission = require('tandem.permission')
local edits = require('tandem.edits')
local suggest = require('tandem.suggest')

local M = {}

local defaults = {
  cmd = { 'tandem', 'lsp' },
  -- Extra environment for the server, e.g. { ANTHROPIC_API_KEY = '...' }.
  env = nil,
  -- Mode for new sessions: ask, code, auto-edit or full-auto (nil: server default).
  mode = nil,
  root_markers = { '.git' },
  -- Start the server for every file buffer inside a root marker's tree.
  autostart = true,
  -- 'select' (vim.ui.select, so picker plugins style it) or 'confirm'.
  permission_ui = 'select',
  -- How the chat window opens; false keeps it hidden until :TandemChat.
  chat_split = 'botright vsplit',
  -- Inline completions (ghost text), when the server has them configured:
  -- insert-mode keys to accept, ask again and dismiss; delay is the pause
  -- in ms after a keystroke before asking (older Neovims; 0.12+ uses
  -- vim.lsp.inline_completion unless builtin = false). false turns them off.
  suggest = { accept = '<Tab>', next = '<M-]>', dismiss = '<C-]>', delay = 75 },
}

-- One record per running client (workspace), keyed by client id: its
-- root, its session, the session's chat and whether a prompt runs.
local opts = vim.deepcopy(defaults)
local states = {}
local roots = {} -- root -> client id
local by_session = {} -- session id -> state
local pending = {} -- session id -> updates that arrived before the id was known
local last_client = nil

local function notify(msg, level)
  vim.notify('tandem: ' .. msg, level or vim.log.levels.INFO)
end

-- Client method calls changed from client.request to client:request in 0.11.
local new_style = vim.fn.has('nvim-0.11') == 1

local function request(client, method, params, handler, bufnr)
  if new_style then return client:request(method, params, handler, bufnr) end
  return client.request(method, params, handler, bufnr)
end

local function send_notification(client, method, params)
  if new_style then return client:notify(method, params) end
  return client.notify(method, params)
end

local function is_stopped(client)
  if new_style then return client:is_stopped() end
  return client.is_stopped()
end

-- find_root returns the directory holding a root marker above path, or nil.
local function find_root(path)
  local dir = vim.fn.fnamemodify(path, ':p:h')
  for _, marker in ipairs(opts.root_markers) do
    local found = vim.fn.finddir(marker, dir .. ';')
    if found == '' then found = vim.fn.findfile(marker, dir .. ';') end
    if found ~= '' then
      return vim.fn.fnamemodify(vim.fn.fnamemodify(found, ':p'):gsub('/$', ''), ':h')
    end
  end
  return nil
end

local function buf_root(bufnr)
  local name = vim.api.nvim_buf_get_name(bufnr)
  if name == '' or vim.api.nvim_buf_get_option(bufnr, 'buftype') ~= '' then return nil end
  return find_root(name)
end

local function route(sid, update)
  local st = by_session[sid]
  if not st then
    pending[sid] = pending[sid] or {}
    table.insert(pending[sid], update)
    return
  end
  if update.sessionUpdate == 'current_mode_update' then st.mode = update.currentModeId end
  if st.chat then st.chat:update(update) end
end

local handlers = {
  ['tandem/update'] = function(_, params)
    if params and params.sessionId and params.update then route(params.sessionId, params.update) end
  end,
  ['tandem/requestPermission'] = function(_, params)
    local res = permission.answer(params, opts)
    local st = by_session[params.sessionId]
    if st and st.chat then
      local picked = res.outcome.optionId or res.outcome.outcome
      st.chat:note('permission for ' .. ((params.toolCall or {}).title or 'tool') .. ': ' .. picked)
    end
    return res
  end,
  ['workspace/applyEdit'] = edits.handler,
}

local function capabilities()
  local caps = vim.lsp.protocol.make_client_capabilities()
  caps.experimental = caps.experimental or {}
  -- Lets the server send tandem/requestPermission with ACP's options
  -- instead of a plain window/showMessageRequest.
  caps.experimental.tandem = { permissions = true }
  return caps
end

local function on_exit(_, _, client_id)
  local st = states[client_id]
  if not st then return end
  if st.session then by_session[st.session] = nil end
  roots[st.root] = nil
  states[client_id] = nil
  if last_client == client_id then last_client = nil end
end

-- start returns the id of the client serving root, starting it if needed,
-- and attaches bufnr (when given) to it.
local function start(root, bufnr)
  local config = {
    name = 'tandem',
    cmd = opts.cmd,
    cmd_env = opts.env,
    root_dir = root,
    workspace_folders = { { uri = vim.uri_from_fname(root), name = root } },
    capabilities = capabilities(),
    handlers = handlers,
    on_exit = on_exit,
    on_attach = function(client, bufnr)
      local caps = client.server_capabilities or client.resolved_capabilities or {}
      if opts.suggest and caps.inlineCompletionProvider then suggest.attach(client, bufnr, opts.suggest) end
    end,
    -- The agent reads open buffers: send every change right away so a
    -- prompt never races a debounced didChange.
    flags = { debounce_text_changes = 0 },
  }
  local id = roots[root]
  if id and (not vim.lsp.get_client_by_id(id) or is_stopped(vim.lsp.get_client_by_id(id))) then id = nil end
  if not id then
    if vim.lsp.start and bufnr then
      id = vim.lsp.start(config, { bufnr = bufnr })
    else
      id = vim.lsp.start_client(config)
    end
    if not id then
      notify('could not start ' .. table.concat(opts.cmd, ' ') .. '; is tandem on PATH?', vim.log.levels.ERROR)
      return nil
    end
    roots[root] = id
    states[id] = states[id] or { id = id, root = root }
  end
  if bufnr and not vim.lsp.buf_is_attached(bufnr, id) then vim.lsp.buf_attach_client(bufnr, id) end
  last_client = id
  return id
end

-- attach starts tandem for a file buffer inside a workspace.
function M.attach(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  local root = buf_root(bufnr)
  if root then return start(root, bufnr) end
  return nil
end

-- current returns the state of the client for the current buffer: its
-- workspace's client, else the last one used, else a new one for the
-- working directory.
function M.current()
  local bufnr = vim.api.nvim_get_current_buf()
  local root = buf_root(bufnr)
  local id = root and start(root, bufnr)
  if not id and last_client and states[last_client] then id = last_client end
  if not id then id = start(find_root(vim.fn.getcwd() .. '/x') or vim.fn.getcwd(), nil) end
  return id and states[id]
end

local function client_of(st)
  local client = vim.lsp.get_client_by_id(st.id)
  if not client then notify('the tandem server is not running', vim.log.levels.ERROR) end
  return client
end

local function show(st)
  if st.chat and opts.chat_split then st.chat:show(opts.chat_split) end
end

-- new_session starts a session in st's workspace and calls cb(st) once
-- it exists.
function M.new_session(st, mode, cb)
  local client = client_of(st)
  if not client then return end
  local function go()
    request(client, 'tandem/newSession', { cwd = st.root, mode = mode or opts.mode }, function(err, res)
      if err then
        notify('tandem/newSession failed: ' .. (err.message or vim.inspect(err)), vim.log.levels.ERROR)
        return
      end
      if st.session then by_session[st.session] = nil end
      st.session, st.mode = res.sessionId, res.modes and res.modes.currentModeId
      st.modes = res.modes and res.modes.availableModes or {}
      st.chat = chat.new(vim.fn.fnamemodify(st.root, ':t') .. '/' .. res.sessionId)
      by_session[res.sessionId] = st
      for _, u in ipairs(pending[res.sessionId] or {}) do route(res.sessionId, u) end
      pending[res.sessionId] = nil
      show(st)
      if cb then cb(st) end
    end)
  end
  -- A client that is still initializing queues nothing in 0.7: wait.
  if not client.initialized then
    vim.wait(10000, function() return client.initialized end, 20)
  end
  go()
end

local function with_session(st, cb)
  if st.session then return cb(st) end
  M.new_session(st, nil, cb)
end

-- range_of is the LSP range of lines line1..line2 (1-based) of bufnr in
-- the client's position encoding.
local function range_of(bufnr, line1, line2, encoding)
  local count = vim.api.nvim_buf_line_count(bufnr)
  local finish
  if line2 < count then
    finish = { line = line2, character = 0 }
  else
    local text = vim.api.nvim_buf_get_lines(bufnr, line2 - 1, line2, false)[1] or ''
    local col = #text
    if encoding ~= 'utf-8' then
      if new_style then
        -- 0.11 takes the encoding and warns about the old two-result form.
        col = vim.str_utfindex(text, encoding)
      else
        local utf32, utf16 = vim.str_utfindex(text)
        col = encoding == 'utf-16' and utf16 or utf32
      end
    end
    finish = { line = line2 - 1, character = col }
  end
  return { start = { line = line1 - 1, character = 0 }, ['end'] = finish }
end

-- ask sends text as a prompt; range = {line1, line2} adds those lines of
-- the current buffer as context.
function M.ask(text, range)
  local bufnr = vim.api.nvim_get_current_buf()
  local st = M.current()
  if not st then return end
  local context
  local client = client_of(st)
  if not client then return end
  if range and vim.api.nvim_buf_get_name(bufnr) ~= '' then
    context = { {
      uri = vim.uri_from_bufnr(bufnr),
      range = range_of(bufnr, range[1], range[2], client.offset_encoding or 'utf-16'),
    } }
  end
  with_session(st, function()
    st.chat:user(text)
    show(st)
    -- A prompt sent while one runs is queued by tandem: the agent reads
    -- it at its next step (docs/lsp-protocol.md).
    if (st.pending or 0) > 0 then
      st.chat:note('queued: the agent reads it at its next step')
    end
    st.pending = (st.pending or 0) + 1
    request(client, 'tandem/prompt', { sessionId = st.session, prompt = { { type = 'text', text = text } }, context = context },
      function(err, res)
        st.pending = st.pending - 1
        if err then
          st.chat:note('error: ' .. (err.message or vim.inspect(err)))
          return
        end
        st.chat:note('done (' .. tostring(res and res.stopReason) .. ')')
        st.last_stop = res and res.stopReason
      end, bufnr)
  end)
end

function M.cancel()
  local st = M.current()
  if not (st and st.session) then return notify('no session to cancel') end
  local client = client_of(st)
  if client then send_notification(client, 'tandem/cancel', { sessionId = st.session }) end
end

function M.set_mode(mode)
  local st = M.current()
  if not st then return end
  local client = client_of(st)
  if not client then return end
  with_session(st, function()
    request(client, 'tandem/setMode', { sessionId = st.session, modeId = mode }, function(err)
      if err then return notify('tandem/setMode: ' .. (err.message or vim.inspect(err)), vim.log.levels.ERROR) end
      st.mode = mode
    end)
  end)
end

-- open_session reopens stored session id in st's workspace: its history
-- is replayed into a fresh chat, and prompts go on from it.
function M.open_session(st, id, title)
  local client = client_of(st)
  if not client then return end
  if st.session then by_session[st.session] = nil end
  -- The replay arrives before the answer: route it to the new chat now.
  st.session = id
  st.chat = chat.new(vim.fn.fnamemodify(st.root, ':t') .. ': ' .. (title or 'session'))
  by_session[id] = st
  request(client, 'tandem/loadSession', { sessionId = id, cwd = st.root, mcpServers = {} }, function(err, res)
    if err then
      notify('tandem/loadSession: ' .. (err.message or vim.inspect(err)), vim.log.levels.ERROR)
      return
    end
    st.mode = res and res.modes and res.modes.currentModeId or st.mode
    st.opened = id
    show(st)
  end)
end

-- sessions lists the workspace's stored sessions in vim.ui.select and
-- reopens the one chosen.
function M.sessions()
  local st = M.current()
  if not st then return end
  local client = client_of(st)
  if not client then return end
  request(client, 'tandem/listSessions', { cwd = st.root }, function(err, res)
    if err then return notify('tandem/listSessions: ' .. (err.message or vim.inspect(err)), vim.log.levels.ERROR) end
    local items = (res and res.sessions) or {}
    if #items == 0 then return notify('no stored sessions in ' .. st.root) end
    vim.ui.select(items, {
      prompt = 'Reopen a tandem session',
      format_item = function(it) return (it.title or it.sessionId) .. '  (' .. (it.updatedAt or '') .. ')' end,
    }, function(choice)
      if choice then M.open_session(st, choice.sessionId, choice.title) end
    end)
  end)
end

-- set_model switches the session's model to id, or offers the models the
-- server lists when id is empty.
function M.set_model(id)
  local st = M.current()
  if not st then return end
  local client = client_of(st)
  if not client then return end
  with_session(st, function()
    local function apply(model)
      request(client, 'tandem/setModel', { sessionId = st.session, modelId = model }, function(err)
        if err then return notify('tandem/setModel: ' .. (err.message or vim.inspect(err)), vim.log.levels.ERROR) end
        st.model = model
        if st.chat then st.chat:note('model: ' .. model) end
      end)
    end
    if id and id ~= '' then return apply(id) end
    request(client, 'tandem/configOptions', { sessionId = st.session }, function(err, res)
      if err then return notify('tandem/configOptions: ' .. (err.message or vim.inspect(err)), vim.log.levels.ERROR) end
      for _, o in ipairs((res and res.configOptions) or {}) do
        if o.id == 'model' then
          st.models = o.options
          return vim.ui.select(o.options, {
            prompt = 'tandem model (now ' .. o.currentValue .. ')',
            format_item = function(it) return it.name end,
          }, function(choice) if choice then apply(choice.value) end end)
        end
      end
    end)
  end)
end

-- state returns the record for the current workspace (tests, statuslines).
function M.state()
  local id = roots[buf_root(vim.api.nvim_get_current_buf()) or ''] or last_client
  return id and states[id]
end

local mode_ids = { 'ask', 'code', 'auto-edit', 'full-auto' }

local function commands()
  local create = vim.api.nvim_create_user_command
  create('TandemAsk', function(c)
    local text = c.args
    if text == '' then text = vim.fn.input('Ask tandem: ') end
    if text == '' then return end
    M.ask(text, c.range > 0 and { c.line1, c.line2 } or nil)
  end, { nargs = '*', range = true, desc = 'Ask tandem (a range adds those lines as context)' })
  create('TandemNew', function(c)
    local st = M.current()
    if st then M.new_session(st, c.args ~= '' and c.args or nil) end
  end, { nargs = '?', complete = function() return mode_ids end, desc = 'Start a new tandem session' })
  create('TandemCancel', M.cancel, { desc = 'Cancel the running tandem prompt' })
  create('TandemMode', function(c) M.set_mode(c.args) end,
    { nargs = 1, complete = function() return mode_ids end, desc = 'Set the tandem session mode' })
  create('TandemSessions', M.sessions, { desc = 'Reopen a stored tandem session of this workspace' })
  create('TandemModel', function(c) M.set_model(c.args) end, {
    nargs = '?',
    complete = function()
      local st = M.current()
      local ids = {}
      for _, o in ipairs((st and st.models) or {}) do table.insert(ids, o.value) end
      return ids
    end,
    desc = 'Switch the tandem model (no argument: pick from the list)',
  })
  create('TandemNextEdit', function()
    local st = M.current()
    local client = st and client_of(st)
    if client then
      suggest.next_edit(client, vim.api.nvim_get_current_buf(), function(buf)
        if not buf then notify('no next edit to suggest') end
      end)
    end
  end, { desc = 'Suggest the edit that follows your last ones (accept: :TandemNextEditAccept)' })
  create('TandemNextEditAccept', function() suggest.accept_next_edit() end, { desc = 'Apply the suggested next edit' })
  create('TandemNextEditReject', function() suggest.reject_next_edit() end, { desc = 'Dismiss the suggested next edit' })
  create('TandemChat', function()
    local st = M.current()
    if st and st.chat then st.chat:show(opts.chat_split or 'botright vsplit') end
  end, { desc = 'Show the tandem chat' })
end

function M.setup(user)
  opts = vim.tbl_deep_extend('force', vim.deepcopy(defaults), user or {})
  commands()
  if opts.suggest then
    suggest.keys(opts.suggest, function()
      local st = M.current()
      return st and vim.lsp.get_client_by_id(st.id)
    end)
  end
  if opts.autostart then
    local group = vim.api.nvim_create_augroup('tandem', { clear = true })
    vim.api.nvim_create_autocmd({ 'BufReadPost', 'BufNewFile' }, {
      group = group,
      callback = function(args) M.attach(args.buf) end,
    })
    for _, b in ipairs(vim.api.nvim_list_bufs()) do
      if vim.api.nvim_buf_is_loaded(b) then M.attach(b) end
    end
  end
end

return M
