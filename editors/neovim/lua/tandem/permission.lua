-- Answers tandem/requestPermission. Neovim 0.7 answers server requests
-- with the handler's return value, so the handler must block until the
-- user decides: vim.fn.confirm blocks by itself, and for vim.ui.select
-- (which a picker plugin may answer later) we wait for the callback while
-- still processing events.
local M = {}

-- describe turns the tool call into the question shown to the user.
local function describe(tc)
  local lines, seen = { 'tandem wants to: ' .. (tc.title or tc.kind or 'run a tool') }, {}
  local function add(path)
    if path and not seen[path] then
      seen[path] = true
      table.insert(lines, '  ' .. path)
    end
  end
  for _, loc in ipairs(tc.locations or {}) do add(loc.path) end
  for _, c in ipairs(tc.content or {}) do
    if c.type == 'diff' then add(c.path) end
  end
  return table.concat(lines, '\n')
end
M.describe = describe

local function with_confirm(params)
  local choices, used = {}, {}
  for i, o in ipairs(params.options) do
    -- confirm() takes "&X" accelerators; give each option a unique one.
    local name = o.name or o.optionId
    local label = name
    for j = 1, #name do
      local ch = name:sub(j, j):lower()
      if ch:match('%a') and not used[ch] then
        used[ch] = true
        label = name:sub(1, j - 1) .. '&' .. name:sub(j)
        break
      end
    end
    choices[i] = label
  end
  local picked = vim.fn.confirm(describe(params.toolCall or {}), table.concat(choices, '\n'), 0, 'Question')
  if picked == 0 then return nil end
  return params.options[picked]
end

local function with_select(params, timeout)
  local done, choice = false, nil
  vim.ui.select(params.options, {
    prompt = describe(params.toolCall or {}),
    format_item = function(o) return o.name or o.optionId end,
    kind = 'tandem_permission',
  }, function(item)
    choice, done = item, true
  end)
  if not done then
    vim.wait(timeout, function() return done end, 50)
  end
  return choice
end

-- answer returns the tandem/requestPermission result for params, asking
-- the user with the configured UI ('select' or 'confirm').
function M.answer(params, opts)
  local ok, choice = pcall(function()
    if opts.permission_ui == 'confirm' then return with_confirm(params) end
    return with_select(params, opts.permission_timeout or 600000)
  end)
  if not ok then
    vim.notify('tandem: permission prompt failed: ' .. tostring(choice), vim.log.levels.ERROR)
    choice = nil
  end
  if not choice then
    -- Dismissing the prompt is a "no": reject this call, keep the turn.
    for _, o in ipairs(params.options) do
      if o.kind == 'reject_once' then choice = o end
    end
    if not choice then return { outcome = { outcome = 'cancelled' } } end
  end
  return { outcome = { outcome = 'selected', optionId = choice.optionId } }
end

return M
