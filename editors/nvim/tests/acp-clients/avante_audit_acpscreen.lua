-- Audit (acpscreen): avante.nvim against the real `agentls acp`, configured as docs/acp.md shows
-- (auto_approve_tool_permissions = false: "let the buttons ask you"), driven with its inline
-- buttons. Run: ./run avante_audit_acpscreen
--
-- In BUILD, one turn runs two commands. The first question offers agentls's three options as
-- avante's buttons: Reject, Run and `Always allow "touch one.txt"`; the person clicks the last,
-- which says it allows that one command from now on. The second command, `touch two.txt`, is
-- another command: its question must be on the screen, and it must not run before the person
-- answers it.
local here = vim.fs.dirname(debug.getinfo(1, "S").source:sub(2))
package.path = here .. "/?.lua;" .. package.path
local lib = require("lib")

function lib.script()
  return table.concat({
    "name: avante-audit-acpscreen",
    "steps:",
    "  - tool_calls:",
    '      - {id: r1, name: run, args: {command: "touch one.txt"}}',
    "  - expect:",
    "      tool_result_contains: {r1: ['\"exit_code\":0']}",
    "    tool_calls:",
    '      - {id: r2, name: run, args: {command: "touch two.txt"}}',
    '  - text: "Done."',
    "",
  }, "\n")
end

vim.opt.runtimepath:prepend(lib.clients .. "/plenary.nvim")
vim.opt.runtimepath:prepend(lib.clients .. "/nui.nvim")
vim.opt.runtimepath:prepend(lib.clients .. "/avante.nvim")
vim.opt.runtimepath:append(here .. "/avante-stub")
vim.o.swapfile = false
vim.o.columns = 200
vim.o.lines = 60

lib.setup_workspace()
do -- BUILD from the start: each command is asked at once
  local f = assert(io.open(assert(os.getenv("XDG_CONFIG_HOME")) .. "/agentls/config.yaml", "a"))
  f:write("plan_mode: {default_active: false}\n")
  f:close()
end

local client = "avante_audit_acpscreen"

local function sidebar()
  return require("avante").get()
end

local function press(winid, lhs)
  vim.api.nvim_set_current_win(winid)
  vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes(lhs, true, false, true), "mx", false)
end

local function send(text)
  local sb = lib.wait("avante's sidebar to take a message", function()
    local s = sidebar()
    return s and not s.is_generating and s.containers.input and vim.api.nvim_win_is_valid(s.containers.input.winid) and s
  end)
  vim.api.nvim_buf_set_lines(sb.containers.input.bufnr, 0, -1, false, vim.split(text, "\n"))
  vim.cmd("stopinsert")
  press(sb.containers.input.winid, "<CR>")
end

local function result_buf()
  local s = sidebar()
  return s and s.containers.result and s.containers.result.bufnr
end

--- Clicks avante's inline button named `name`: the cursor on it, then the button line's <CR>.
local function click(name)
  local sb = sidebar()
  local buf, win = sb.containers.result.bufnr, sb.containers.result.winid
  local at = lib.wait("the " .. name .. " button", function()
    for i, line in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do
      local c = line:find(name, 1, true)
      if c and line:find("Waiting for Confirmation", 1, true) then
        return { i, c }
      end
    end
  end)
  vim.api.nvim_set_current_win(win)
  vim.api.nvim_win_set_cursor(win, { at[1], at[2] - 1 })
  vim.api.nvim_exec_autocmds("CursorMoved", { buffer = buf })
  press(win, "<CR>")
end

lib.run(client, function()
  lib.setup_from_docs("### Neovim: avante.nvim")
  vim.cmd("AvanteAsk")
  lib.wait("avante's ACP session", function()
    local s = sidebar()
    return s and s.acp_client ~= nil
  end)
  lib.watched = result_buf()

  send("touch both files")
  lib.wait("the first command's question", function()
    local text = lib.text(result_buf())
    return text:find("Waiting for Confirmation", 1, true) and text:find("Run `touch one.txt`?", 1, true)
  end)
  local first = lib.dump(client, "first-question", result_buf())
  lib.expect_contains("the first question", first, { 'Always allow "touch one.txt"' })
  vim.wait(500) -- a person reads the question (agentls marks an answer within 300 ms as the client's)
  click('Always allow "touch one.txt"')
  lib.wait("touch one.txt to run", function()
    return lib.ws_file("one.txt") ~= nil
  end)

  -- The second command: its question on the screen, or the command run without one.
  local seen = lib.wait("the second command's question (or the command run without one)", function()
    local text = lib.text(result_buf())
    if text:find("Waiting for Confirmation", 1, true) and text:find("Run `touch two.txt`?", 1, true) then
      return "asked"
    end
    if lib.ws_file("two.txt") ~= nil then
      return "ran"
    end
  end)
  local shown = lib.dump(client, "second-command", result_buf())
  if seen == "ran" then
    lib.wait("the turn's end", function()
      return not sidebar().is_generating and lib.text(result_buf()):find("Done.", 1, true)
    end)
    local after = lib.dump(client, "turn-end", result_buf())
    local marked = after:match("[^\n]*faster than a person[^\n]*") or "(no note)"
    lib.fail("`touch two.txt` ran without its question on the screen: the person clicked only "
      .. '`Always allow "touch one.txt"` (avante took it as yes to every later question of the turn); '
      .. "the call's note: " .. vim.trim(marked))
  end
  lib.expect_contains("the second question", shown, { "Run `touch two.txt`?" })
  click("Reject")
  lib.wait("the turn's end", function()
    return not sidebar().is_generating
  end)
  if lib.ws_file("two.txt") then
    lib.fail("the rejected touch two.txt ran")
  end
end)
