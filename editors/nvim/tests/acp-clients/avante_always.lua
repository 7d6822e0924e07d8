-- avante.nvim against the real `agentls acp`, configured as docs/acp.md shows
-- (auto_approve_tool_permissions = false: "let the buttons ask you"), driven with its inline
-- buttons: what one click on "Always allow" grants. Run: ./run avante_always
--
-- In BUILD, the first turn runs two commands. The first question offers agentls's three options
-- as avante's buttons: Reject, Run and `Always allow "touch one.txt" (this session)`; the person clicks the
-- last, which allows that one command from now on. avante then answers every later question of
-- the turn by itself with its "always" option, in milliseconds (helpers.lua: session_ctx.always_yes),
-- so the second command, `touch two.txt`, is answered with no question on the screen. That answer
-- is avante's, not the person's (docs/guard.md "How fast an answer came"): it runs the one call,
-- the note under it says so ("allowed once, not always"), and it saves no rule. In the second
-- turn `touch one.txt` runs without a question (the person's rule) and `touch two.txt` is asked
-- again: avante, whose flag outlives the turn, answers it by itself once more, and it is noted
-- again (agentls's log has a second warning for it: the request was sent, no rule stood in for it).
local here = vim.fs.dirname(debug.getinfo(1, "S").source:sub(2))
package.path = here .. "/?.lua;" .. package.path
local lib = require("lib")

function lib.script()
  return table.concat({
    "name: avante-always",
    "steps:",
    "  - tool_calls:",
    '      - {id: r1, name: run, args: {command: "touch one.txt"}}',
    "  - expect:",
    "      tool_result_contains: {r1: ['\"exit_code\":0']}",
    "    tool_calls:",
    '      - {id: r2, name: run, args: {command: "touch two.txt"}}',
    "  - expect:",
    "      tool_result_contains: {r2: ['\"exit_code\":0']}",
    '    text: "Done."',
    "  - tool_calls:",
    '      - {id: r3, name: run, args: {command: "touch one.txt"}}',
    "  - expect:",
    "      tool_result_contains: {r3: ['\"exit_code\":0']}",
    "    tool_calls:",
    '      - {id: r4, name: run, args: {command: "touch two.txt"}}',
    "  - expect:",
    "      tool_result_contains: {r4: ['\"exit_code\":0']}",
    '    text: "Stopped."',
    "",
  }, "\n")
end

lib.avante.load()

lib.setup_workspace()
do -- BUILD from the start: each command is asked at once
  local f = assert(io.open(assert(os.getenv("XDG_CONFIG_HOME")) .. "/agentls/config.yaml", "a"))
  f:write("plan_mode: {default_active: false}\n")
  f:close()
end

local client = "avante_always"

local sidebar, send, result_buf, click = lib.avante.sidebar, lib.avante.send, lib.avante.result_buf, lib.avante.click

--- Waits for the turn's end and returns the sidebar's text then (dumped as `moment`).
local function turn_end(moment, last)
  lib.wait("the turn's end", function()
    return not sidebar().is_generating and lib.text(result_buf()):find(last, 1, true)
  end)
  return lib.dump(client, moment, result_buf())
end

lib.run(client, function()
  lib.setup_from_docs("### Neovim: avante.nvim")
  lib.avante.open()
  lib.watched = result_buf()

  -- Turn 1: the person clicks "Always allow" on the first command; avante answers the second.
  send("touch both files")
  lib.wait("the first command's question", function()
    local text = lib.text(result_buf())
    return text:find("Waiting for Confirmation", 1, true) and text:find("Run `touch one.txt`?", 1, true)
  end)
  local first = lib.dump(client, "first-question", result_buf())
  lib.expect_contains("the first question", first, { 'Always allow "touch one.txt" (this session)' })
  click('Always allow "touch one.txt" (this session)')
  lib.wait("touch one.txt to run", function()
    return lib.ws_file("one.txt") ~= nil
  end)
  lib.wait("touch two.txt to run (avante answers its question by itself)", function()
    return lib.ws_file("two.txt") ~= nil
  end)
  local after = turn_end("turn-end", "Done.")
  local note = after:match("[^\n]*answered by the client in[^\n]*") or ""
  if not note:find("faster than a person decides: allowed once, not always", 1, true) then
    lib.fail("the call avante answered by itself lacks the note that it was allowed once, not always; the note: "
      .. (note ~= "" and vim.trim(note) or "(none)"))
  end
  if after:find("check the client's auto-approve setting", 1, true) then
    lib.fail("the note blames an auto-approve setting the person left off: " .. vim.trim(note))
  end
  local log = lib.read(lib.artifacts .. "/agentls.log") or ""
  if not log:find("level=WARN[^\n]*allowed once, not always[^\n]*touch two.txt") then
    lib.fail("agentls's log lacks the warning about the `touch two.txt` avante answered")
  end
  os.remove(lib.ws .. "/one.txt")
  os.remove(lib.ws .. "/two.txt")

  -- Turn 2: the person's rule runs touch one.txt without a question. avante still answers every
  -- question by itself (its flag outlives the turn), but agentls saved no rule from its answer:
  -- touch two.txt is asked again (the request is sent, avante answers it at once again), runs
  -- once more, and is noted again.
  send("again")
  lib.wait("touch one.txt to run without a question (the person's Always allow)", function()
    local text = lib.text(result_buf())
    if text:find("Run `touch one.txt`?", 1, true) and text:find("Waiting for Confirmation", 1, true) then
      lib.fail("touch one.txt was asked again: the person's Always allow was not remembered")
    end
    return lib.ws_file("one.txt") ~= nil
  end)
  lib.wait("touch two.txt to run", function()
    return lib.ws_file("two.txt") ~= nil
  end)
  local second = turn_end("second-turn-end", "Stopped.")
  local _, notes = second:gsub("answered by the client in %d+ ms %(allow_always%), faster than a person decides: allowed once, not always", "")
  if notes < 2 then
    lib.fail("the second turn's touch two.txt is not noted as allowed once (" .. notes .. " notes in the sidebar)")
  end
  log = lib.read(lib.artifacts .. "/agentls.log") or ""
  local asked = 0
  for line in log:gmatch("[^\n]+") do
    if line:find("level=WARN", 1, true) and line:find("allowed once, not always", 1, true) and line:find("touch two.txt", 1, true) then
      asked = asked + 1
    end
  end
  if asked ~= 2 then
    lib.fail(string.format("agentls asked about touch two.txt %d time(s) with avante answering, want 2: "
      .. "avante's own \"always\" of the first turn must save no rule", asked))
  end
  if log:find("level=WARN[^\n]*touch one.txt") then
    lib.fail("touch one.txt was asked and answered by avante: the person's Always allow was not remembered")
  end
end)
