-- CodeCompanion.nvim against the real `agentls acp`, configured as docs/acp.md shows and driven
-- through the chat's own keys: the titles of tool calls. Run: ./run codecompanion-titles
--
-- A command an allow rule permits runs without a question (docs/guard.md "Allow rules"): the
-- call's line in the chat ("Execute: …") is all a person sees of what ran. The user's config
-- allows `echo *`; the model runs `echo build:prod`. The line must name that command, not a
-- shorter one: CodeCompanion cuts a title at its first colon unless it begins with a
-- backtick-quoted command, and agentls's title for a run was "run <command>", so any command with
-- a colon in its first 40 characters showed as another command (`echo build:prod` as
-- "run echo build"). A run's title is now the command as a code span, first.
local here = vim.fs.dirname(debug.getinfo(1, "S").source:sub(2))
package.path = here .. "/?.lua;" .. package.path
local lib = require("lib")

local client = "codecompanion-titles"

function lib.script()
  return table.concat({
    "name: codecompanion-titles",
    "steps:",
    "  - tool_calls:",
    '      - {id: r1, name: run, args: {command: "echo build:prod"}}',
    "  - expect:",
    "      tool_result_contains: {r1: ['\"exit_code\":0', 'build:prod']}",
    '    text: "Built."',
    "",
  }, "\n")
end

vim.opt.runtimepath:prepend(lib.clients .. "/plenary.nvim")
vim.opt.runtimepath:prepend(lib.clients .. "/codecompanion.nvim")
vim.opt.runtimepath:append(lib.clients)
vim.o.swapfile = false

lib.setup_workspace()
do -- BUILD from the start, and the user's allow rule for echo
  local f = assert(io.open(assert(os.getenv("XDG_CONFIG_HOME")) .. "/agentls/config.yaml", "a"))
  f:write('plan_mode: {default_active: false}\nrun: {allow: ["echo *"]}\n')
  f:close()
end

local function press(bufnr, lhs, what)
  lib.wait(what .. " (the chat buffer's " .. lhs .. " key)", function()
    for _, m in ipairs(vim.api.nvim_buf_get_keymap(bufnr, "n")) do
      if vim.api.nvim_replace_termcodes(m.lhs, true, true, true) == vim.api.nvim_replace_termcodes(lhs, true, true, true) then
        return true
      end
    end
  end)
  vim.api.nvim_set_current_buf(bufnr)
  vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes(lhs, true, false, true), "mx", false)
end

local function send(chat, text)
  local bufnr = chat.bufnr
  lib.wait("the chat to take a message", function()
    return not chat.current_request
  end)
  local lines = vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
  vim.bo[bufnr].modifiable = true
  vim.api.nvim_buf_set_lines(bufnr, #lines, #lines, false, vim.split(text, "\n"))
  press(bufnr, "<CR>", "sending " .. text)
end

--- The chat buffer as a person sees it: each line with the status icon CodeCompanion overlays.
local function screen(bufnr)
  local ns = vim.api.nvim_get_namespaces()["CodeCompanion-tool_icons"]
  local icons = {}
  for _, m in ipairs(ns and vim.api.nvim_buf_get_extmarks(bufnr, ns, 0, -1, { details = true }) or {}) do
    local vt = m[4].virt_text
    if vt then
      icons[m[2]] = string.format("%s[%s] ", vt[1][1], vt[1][2])
    end
  end
  local out = {}
  for i, line in ipairs(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)) do
    table.insert(out, (icons[i - 1] or "") .. line)
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

  local mark = #lib.text(buf)
  send(chat, "build it")
  local done = lib.wait("the end of the turn", function()
    local s = screen(buf)
    return not chat.current_request and lib.text(buf):sub(mark + 1):find("Built.", 1, true) and s
  end)
  lib.keep(client, "screen", done)
  if lib.text(buf):find("Please select an option", 1, true) then
    lib.fail("the allowed command was asked (the allow rule echo * did not apply)")
  end
  local line
  for l in done:gmatch("[^\n]+") do
    if l:find("Execute:", 1, true) then
      line = l
    end
  end
  if not line then
    lib.fail("no Execute: line for the command in the chat")
  end
  if not line:find("Execute: echo build:prod", 1, true) then
    lib.fail("the chat's only line for the command that ran, `echo build:prod`, names another: " .. vim.trim(line))
  end
end)
