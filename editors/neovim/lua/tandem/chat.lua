-- The chat buffer: one per tandem session. It turns the tandem/update
-- stream (ACP session/update objects) into markdown-ish lines. Tool call
-- lines are tracked with extmarks so a later tool_call_update rewrites
-- them in place even after more text was appended below.
local M = {}

local ns = vim.api.nvim_create_namespace('tandem_chat')

local Chat = {}
Chat.__index = Chat

local status_icon = {
  pending = '[ ]',
  in_progress = '[~]',
  completed = '[x]',
  failed = '[!]',
}

local plan_icon = { pending = '[ ]', in_progress = '[~]', completed = '[x]' }

-- new returns a chat for a session, creating its scratch buffer.
function M.new(title)
  local buf = vim.api.nvim_create_buf(false, true)
  vim.api.nvim_buf_set_option(buf, 'buftype', 'nofile')
  vim.api.nvim_buf_set_option(buf, 'bufhidden', 'hide')
  vim.api.nvim_buf_set_option(buf, 'swapfile', false)
  vim.api.nvim_buf_set_option(buf, 'filetype', 'markdown')
  pcall(vim.api.nvim_buf_set_name, buf, 'tandem://' .. title)
  local self = setmetatable({ buf = buf, tools = {}, last = nil, plan_mark = nil }, Chat)
  self:_set(0, -1, { '# tandem ' .. title })
  return self
end

-- _set replaces lines [first, last) while the buffer is unlocked; the chat
-- is read-only to the user so stray typing cannot corrupt the tool marks.
function Chat:_set(first, last, lines)
  vim.api.nvim_buf_set_option(self.buf, 'modifiable', true)
  vim.api.nvim_buf_set_lines(self.buf, first, last, false, lines)
  vim.api.nvim_buf_set_option(self.buf, 'modifiable', false)
end

function Chat:_append(lines)
  self:_set(-1, -1, lines)
  self:_follow()
end

-- _follow keeps windows showing the chat scrolled to the end.
function Chat:_follow()
  local count = vim.api.nvim_buf_line_count(self.buf)
  for _, win in ipairs(vim.api.nvim_list_wins()) do
    if vim.api.nvim_win_get_buf(win) == self.buf then
      pcall(vim.api.nvim_win_set_cursor, win, { count, 0 })
    end
  end
end

-- _stream appends text to the current section, continuing its last line.
function Chat:_stream(kind, header, text)
  if self.last ~= kind then
    self:_append({ '', header, '' })
    self.last = kind
  end
  local parts = vim.split(text, '\n', { plain = true })
  local count = vim.api.nvim_buf_line_count(self.buf)
  local tail = vim.api.nvim_buf_get_lines(self.buf, count - 1, count, false)[1] or ''
  parts[1] = tail .. parts[1]
  if kind == 'thought' then
    for i = 2, #parts do
      parts[i] = '> ' .. parts[i]
    end
    if tail == '' then parts[1] = '> ' .. parts[1] end
  end
  self:_set(count - 1, count, parts)
  self:_follow()
end

-- user shows the prompt the user sent.
function Chat:user(text)
  self:_append({ '', '## You', '' })
  self:_append(vim.split(text, '\n', { plain = true }))
  self.last = 'user'
end

-- note adds a one-line remark (stop reasons, errors, mode changes).
function Chat:note(text)
  self:_append({ '', '_' .. text .. '_' })
  self.last = 'note'
end

local function tool_line(tc)
  local icon = status_icon[tc.status or 'pending'] or '[?]'
  local line = '- ' .. icon .. ' ' .. (tc.title or tc.kind or 'tool')
  if tc.status then line = line .. ' (' .. tc.status .. ')' end
  return line
end

-- content_lines renders a tool call's content: diffs as a path line, text
-- as indented lines.
local function content_lines(content)
  local out = {}
  for _, c in ipairs(content or {}) do
    if c.type == 'diff' and c.path then
      table.insert(out, '    diff ' .. c.path)
    elseif c.type == 'content' and c.content and c.content.text then
      for _, l in ipairs(vim.split(c.content.text, '\n', { plain = true })) do
        table.insert(out, '    ' .. l)
      end
    end
  end
  return out
end

function Chat:_tool(u)
  local tc = self.tools[u.toolCallId]
  if not tc then
    tc = {}
    self.tools[u.toolCallId] = tc
  end
  for _, k in ipairs({ 'title', 'kind', 'status', 'content' }) do
    if u[k] ~= nil and u[k] ~= vim.NIL then tc[k] = u[k] end
  end
  local lines = { tool_line(tc) }
  vim.list_extend(lines, content_lines(tc.content))
  if tc.mark then
    local pos = vim.api.nvim_buf_get_extmark_by_id(self.buf, ns, tc.mark, {})
    local row = pos[1]
    self:_set(row, row + tc.height, lines)
    tc.mark = vim.api.nvim_buf_set_extmark(self.buf, ns, row, 0, { id = tc.mark })
  else
    if self.last ~= 'tools' then
      self:_append({ '' })
    end
    local row = vim.api.nvim_buf_line_count(self.buf)
    self:_append(lines)
    tc.mark = vim.api.nvim_buf_set_extmark(self.buf, ns, row, 0, {})
    self.last = 'tools'
  end
  tc.height = #lines
  self:_follow()
end

function Chat:_plan(entries)
  local lines = { '', '**Plan**' }
  for _, e in ipairs(entries or {}) do
    table.insert(lines, '- ' .. (plan_icon[e.status] or '[ ]') .. ' ' .. (e.content or ''))
  end
  -- A plan replaces the previous one when nothing came after it;
  -- otherwise the new plan is appended so the history reads in order.
  if self.plan and self.last == 'plan' then
    local count = vim.api.nvim_buf_line_count(self.buf)
    self:_set(count - self.plan, count, lines)
  else
    self:_append(lines)
  end
  self.plan = #lines
  self.last = 'plan'
  self:_follow()
end

-- update renders one ACP session/update object.
function Chat:update(u)
  local kind = u.sessionUpdate
  local meta = type(u._meta) == 'table' and u._meta.tandem
  local nested = type(meta) == 'table' and type(meta.parentToolCallId) == 'string'
  if nested and type(kind) == 'string' and kind:match('_chunk$') then
    -- A subagent's own reply would interleave with this one; its report
    -- comes back as the task call's result.
    return
  elseif kind == 'agent_message_chunk' then
    if u.content and u.content.text then self:_stream('agent', '## tandem', u.content.text) end
  elseif kind == 'agent_thought_chunk' then
    if u.content and u.content.text then self:_stream('thought', '## tandem (thinking)', u.content.text) end
  elseif kind == 'user_message_chunk' then
    if u.content and u.content.text then self:_stream('user', '## You', u.content.text) end
  elseif kind == 'tool_call' or kind == 'tool_call_update' then
    self:_tool(u)
  elseif kind == 'plan' then
    self:_plan(u.entries)
  elseif kind == 'current_mode_update' then
    self:note('mode: ' .. tostring(u.currentModeId))
  end
end

-- text returns the whole chat as one string (tests and :TandemChat users).
function Chat:text()
  return table.concat(vim.api.nvim_buf_get_lines(self.buf, 0, -1, false), '\n')
end

-- show opens the chat in a split unless a window already shows it.
function Chat:show(split)
  for _, win in ipairs(vim.api.nvim_list_wins()) do
    if vim.api.nvim_win_get_buf(win) == self.buf then return end
  end
  local cur = vim.api.nvim_get_current_win()
  vim.cmd(split or 'botright vsplit')
  vim.api.nvim_win_set_buf(0, self.buf)
  vim.api.nvim_win_set_option(0, 'wrap', true)
  self:_follow()
  vim.api.nvim_set_current_win(cur)
end

return M
