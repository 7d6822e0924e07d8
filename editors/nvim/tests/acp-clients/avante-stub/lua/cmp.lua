-- A stand-in for nvim-cmp (not installed here), which avante.nvim needs to take an ACP agent's
-- commands at all: on available_commands_update avante adds them to its slash commands only
-- when `require("cmp")` loads, then registers its own completion source. This keeps the sources
-- avante registers, so the test asks avante's own source what it offers; it completes nothing.
local M = { sources = {}, lsp = { CompletionItemKind = { Variable = 6 } }, ConfirmBehavior = { Insert = "insert" } }
local next_id = 0

function M.register_source(name, source)
  next_id = next_id + 1
  M.sources[next_id] = { name = name, source = source }
  return next_id
end

function M.unregister_source(id)
  M.sources[id] = nil
end

M.setup = setmetatable({ filetype = function() end }, { __call = function() end })

return M
