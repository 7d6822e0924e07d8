-- Sub-agents (issue 23) in CodeCompanion.nvim: in plan mode the scripted model starts two explorers
-- in parallel with `task`; their tool calls come as tool calls of the chat's session (with
-- `_meta["agentls/parentToolCallId"]`), and the chat buffer shows them as the person sees them:
-- the two task rows, the first explorer's grep and its refused write (with CodeCompanion's failure
-- icon), the second's read, each with its status icon; then the parent's answer written from
-- theirs. Prints "codecompanion-subagents: PASS|FAIL ...".
local here = vim.fs.dirname(debug.getinfo(1, "S").source:sub(2))
package.path = here .. "/?.lua;" .. package.path
local lib = require("lib")

vim.opt.runtimepath:prepend(lib.clients .. "/plenary.nvim")
vim.opt.runtimepath:prepend(lib.clients .. "/codecompanion.nvim")
vim.opt.runtimepath:append(lib.clients)
vim.o.swapfile = false

--- The scripted model: two explorers in one step; the first greps and tries to write (refused:
--- an explorer is not given `write`), the second reads; the parent answers from theirs.
function lib.script()
  return [[
name: acp-client-subagents
steps:
  - text: "Sending two explorers."
    tool_calls:
      - {id: t1, name: task, args: {kind: explore, prompt: "where is alpha?"}}
      - {id: t2, name: task, args: {kind: explore, prompt: "what does app.txt say?"}}
  - expect:
      tool_result_contains:
        t1: ['"status":"completed"', "alpha is in app.txt"]
        t2: ['"status":"completed"', "app.txt says alpha"]
    text: "Explorers agree: alpha is in app.txt."
children:
  explore-1:
    - tool_calls:
        - {id: g, name: grep, args: {pattern: alpha}}
        - {id: w, name: write, args: {path: sneaky.txt, content: x}}
    - expect:
        tool_result_contains: {g: ["app.txt"], w: ["not given this tool"]}
      text: alpha is in app.txt
  explore-2:
    - tool_calls:
        - {id: r, name: read, args: {path: app.txt}}
    - expect:
        tool_result_contains: {r: ["alpha"]}
      text: app.txt says alpha
]]
end

lib.setup_workspace()

local client = "codecompanion-subagents"

--- The chat buffer's normal-mode mapping of lhs, pressed.
local function press(bufnr, lhs, what)
  lib.wait(what .. " (the chat buffer's " .. lhs .. " key)", function()
    for _, m in ipairs(vim.api.nvim_buf_get_keymap(bufnr, "n")) do
      if vim.api.nvim_replace_termcodes(m.lhs, true, true, true) == vim.api.nvim_replace_termcodes(lhs, true, true, true) then
        return true
      end
    end
  end)
  lib.read_as_a_person() -- the person reads what the key answers first
  vim.api.nvim_set_current_buf(bufnr)
  vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes(lhs, true, false, true), "mx", false)
end

--- What CodeCompanion's tool status icons mean (their highlight groups; the glyphs themselves
--- are Nerd Font ones from its config).
local icon_meaning = {
  CodeCompanionChatToolSuccessIcon = "[ok]",
  CodeCompanionChatToolFailureIcon = "[failed]",
  CodeCompanionChatToolPending = "[pending]",
  CodeCompanionChatToolInProgress = "[running]",
}

--- The chat buffer's lines from line `from` (0-based) on as the person sees them: each tool line
--- with the status icon CodeCompanion draws over it (its "CodeCompanion-tool_icons" extmarks),
--- written as the icon's meaning ("[ok] Search: grep alpha").
local function seen(bufnr, from)
  local ns = vim.api.nvim_create_namespace("CodeCompanion-tool_icons")
  local icons = {}
  for _, m in ipairs(vim.api.nvim_buf_get_extmarks(bufnr, ns, 0, -1, { details = true })) do
    local text = {}
    for _, chunk in ipairs(m[4].virt_text or {}) do
      table.insert(text, icon_meaning[chunk[2]] or chunk[1])
    end
    icons[m[2]] = table.concat(text)
  end
  local out = {}
  for i, line in ipairs(vim.api.nvim_buf_get_lines(bufnr, from, -1, false)) do
    local icon = icons[from + i - 1]
    table.insert(out, icon and (icon .. " " .. vim.trim(line)) or line)
  end
  return table.concat(out, "\n")
end

lib.run(client, function()
  lib.setup_from_docs("### Neovim: CodeCompanion.nvim")
  require("codecompanion.providers.completion")
  vim.cmd("CodeCompanionChat")
  local chat = lib.wait("the chat to open", function()
    return require("codecompanion").last_chat()
  end)
  local buf = chat.bufnr
  lib.watched = buf
  local acp_commands = require("codecompanion.interactions.chat.acp.commands")
  lib.wait("the chat's ACP session with agentls's commands", function()
    return chat.acp_connection and chat.acp_connection.session_id and #acp_commands.get_commands_for_buffer(buf) > 0
  end)

  local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
  local mark = #lines
  vim.bo[buf].modifiable = true
  vim.api.nvim_buf_set_lines(buf, #lines, #lines, false, { "where is alpha?" })
  press(buf, "<CR>", "sending the prompt")
  lib.wait("the end of the turn", function()
    return not chat.current_request and seen(buf, mark):find("Explorers agree", 1, true)
  end, 60000)
  lib.dump(client, "explorers", buf)
  local shown = seen(buf, mark)
  local f = assert(io.open(lib.artifacts .. "/explorers-as-seen.txt", "w"))
  f:write(shown .. "\n")
  f:close()
  -- Both task rows and the three sub-agent calls, with their outcome: the write failed.
  local _, tasks = shown:gsub("%[ok%] Think: task explore", "")
  if tasks ~= 2 then
    lib.fail(string.format("the chat shows %d completed 'task explore' rows, want 2:\n%s", tasks, shown))
  end
  lib.expect_contains("the chat buffer after the explorers", shown, {
    "[ok] Search: grep alpha",
    "[failed] Edit: write sneaky.txt",
    "[ok] Read: read app.txt",
    "Explorers agree: alpha is in app.txt.",
  })
  if lib.ws_file("sneaky.txt") then
    lib.fail("the explorer's write landed")
  end
end)
