local M = {}

function M.greet(name)
  return "hi " .. name
end

function M:method()
end

local function helper()
end

function global_fn(x)
  return x
end

return M
