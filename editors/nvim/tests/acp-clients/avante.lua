-- One avante.nvim session against the real `agentls acp` (started by avante's ACP provider,
-- configured exactly as docs/acp.md shows: avante passes an agent PATH and its `env` table only),
-- driven the way a person drives it: the sidebar opened with :AvanteAsk, messages typed into its
-- input and sent with its submit key, the approval answered by clicking avante's inline
-- "Accept & Build" button (cursor on the button, the button line's <CR>), the turn stopped with
-- :AvanteStop. Then avante's default, auto_approve_tool_permissions = true, as the attacker's
-- case: the approval it gives by itself within milliseconds approves nothing (only a person
-- approves a plan): agentls says so in avante's sidebar and in its log. Before the running
-- command, two commands that create .envrc: the question agentls asks after each (the run
-- sentinel) answered with its Remove (restore) button, then its Keep button.
-- Prints "avante: PASS|FAIL ...".
local here = vim.fs.dirname(debug.getinfo(1, "S").source:sub(2))
package.path = here .. "/?.lua;" .. package.path
local lib = require("lib")

lib.avante.load()

-- avante's own steps, before the cancelled run: two commands that each create .envrc, asked about
-- after they ran (the run sentinel, docs/guard.md "After the command"): the first removed, the
-- second kept; then a command that prints a line, waits until the test saw it (go.flag), prints
-- another and ends.
lib.steps_before_run({
  "  - tool_calls:",
  "      - {id: s1, name: run, args: {command: \"echo export X=1 > .envrc\"}}",
  "  - expect:",
  "      tool_result_contains: {s1: ['created .envrc', 'so agentls undid it']}",
  '    text: "The first .envrc is gone."',
  "  - tool_calls:",
  "      - {id: s2, name: run, args: {command: \"echo export X=2 > .envrc\"}}",
  "  - expect:",
  "      tool_result_contains: {s2: ['created .envrc', 'the user was asked and kept them']}",
  '    text: "The second .envrc stays."',
})
lib.steps_before_run(lib.wait_steps)

lib.setup_workspace()

local client = "avante"
local Config = require("avante.config")


local sidebar, send, result_buf, click =
  lib.avante.sidebar, lib.avante.send, lib.avante.result_buf, lib.avante.click

--- The run sentinel's question after `command` (which creates .envrc), as avante shows it:
--- sends the prompt, clicks Run at the command's question, waits for the question after it,
--- checks what it shows, clicks `answer` and waits for the turn's `ending` text.
local function sentinel(command, answer, ending)
  send("set up direnv with " .. command)
  lib.wait("the command's permission buttons", function()
    local text = lib.text(result_buf())
    return text:find("Waiting for Confirmation", 1, true) and text:find("Run `" .. command .. "`?", 1, true)
  end)
  click("Run")
  local title = "Keep what `" .. command .. "` did (created `.envrc`)?"
  local asked = lib.wait("the question after the command (" .. title .. ")", function()
    local text = lib.text(result_buf())
    return text:find("Waiting for Confirmation", 1, true) and text:find(title, 1, true) and text
  end)
  local moment = answer == "Keep" and "sentinel-keep-question" or "sentinel-remove-question"
  lib.dump(client, moment, result_buf())
  lib.expect_contains("avante's sidebar at the question after the command", asked, { title, "Remove (restore)", "Keep" })
  local buttons
  for _, line in ipairs(vim.split(asked, "\n")) do
    if line:find("Waiting for Confirmation", 1, true) then
      buttons = line
    end
  end
  local remove, keep = buttons:find("Remove (restore)", 1, true), buttons:find("Keep", 1, true)
  if not (remove and keep) then
    lib.fail("the question's buttons are not Remove (restore) and Keep: " .. buttons)
  end
  -- avante orders its buttons by name, not as offered: docs/acp.md says Keep comes first here.
  if keep > remove then
    lib.fail("avante now shows Remove (restore) before Keep (docs/acp.md says the other way): " .. buttons)
  end
  if lib.ws_file(".envrc") == nil then
    lib.fail("the command's .envrc is not on disk while its question is open")
  end
  click(answer)
  lib.wait("the end of the turn after " .. answer, function()
    return not sidebar().is_generating and lib.text(result_buf()):find(ending, 1, true)
  end)
  lib.dump(client, answer == "Keep" and "sentinel-kept" or "sentinel-removed", result_buf())
end

lib.run(client, function()
  -- The configuration is docs/acp.md's, run as it stands there.
  lib.setup_from_docs("### Neovim: avante.nvim")
  lib.avante.open()
  -- The sidebar connects when it opens (initialize, session/new, available_commands_update).
  lib.wait("avante's ACP session with agentls's commands", function()
    for _, c in ipairs(Config.slash_commands) do
      if c.name == "plans" then
        return true
      end
    end
  end)
  lib.watched = result_buf()

  -- 1. A prompt: the plan is written through avante's fs/write_text_file (null result).
  send("uppercase alpha in app.txt")
  lib.wait("the plan file written by avante", function()
    return (lib.ws_file("plans/shout.plan") or ""):find("Replace alpha with ALPHA", 1, true)
  end)

  -- 2. The approval: avante's buttons, and what the sidebar shows holds the plan and its grants.
  lib.wait("avante's approval buttons", function()
    return lib.text(result_buf()):find("Waiting for Confirmation", 1, true)
  end)
  local shown = lib.dump(client, "approval", result_buf())
  lib.expect_contains("avante's sidebar at the approval", shown, {
    "Accept & Build",
    "Keep Planning",
    "Replace alpha with ALPHA in app.txt",
    "go test ./...",
    "git diff *",
  })
  if lib.ws_file("app.txt") ~= "alpha\n" then
    lib.fail("app.txt changed before the approval")
  end
  click("Accept & Build")

  -- 3. The edit in BUILD arrives through fs/write_text_file.
  lib.wait("the builder's edit of app.txt (Accept & Build must be taken as a yes)", function()
    return lib.ws_file("app.txt") == "ALPHA\n"
  end)
  lib.wait("the end of the first turn", function()
    return not sidebar().is_generating and lib.text(result_buf()):find("Built: app.txt now says ALPHA.", 1, true)
  end)
  lib.dump(client, "built", result_buf())

  -- 4. A slash command: avante's own command source offers agentls's commands, and one runs.
  local offered = {}
  for _, src in pairs(require("cmp").sources) do
    if src.name == "avante_commands" then
      src.source:complete({ completion_context = { triggerKind = 2, triggerCharacter = "/" }, context = {} }, function(r)
        for _, it in ipairs(r.items) do
          offered[#offered + 1] = it.label
        end
      end)
    end
  end
  lib.expect_contains("avante's command completion", table.concat(offered, " "), { "/plans", "/reject", "/hello" })
  send("/plans")
  lib.wait("the answer to /plans", function()
    return not sidebar().is_generating and lib.text(result_buf()):find("plans/shout.plan — Shout", 1, true)
  end)
  lib.dump(client, "slash-command", result_buf())

  -- 4b. The run sentinel: a command that created .envrc is asked about after it ran, on the run's
  -- call: its title names the command and the file, under it the buttons Remove (restore) and
  -- Keep (avante sorts its buttons by name: Keep is shown first). Remove takes the file away;
  -- Keep, the second time, leaves it.
  sentinel("echo export X=1 > .envrc", "Remove (restore)", "The first .envrc is gone.")
  if lib.ws_file(".envrc") then
    lib.fail("the command's .envrc is still on disk after Remove (restore)")
  end
  sentinel("echo export X=2 > .envrc", "Keep", "The second .envrc stays.")
  if lib.ws_file(".envrc") ~= "export X=2\n" then
    lib.fail("the command's .envrc is not on disk as the command wrote it after Keep: " .. vim.inspect(lib.ws_file(".envrc")))
  end
  os.remove(lib.ws .. "/.envrc")

  -- 5. A running command (docs/acp.md): avante shows the call's content under its header while
  -- the call is "generating", so the command's newest output line (agentls's tool_call_update
  -- in_progress) is on the screen, colour dropped, while the command waits; then "succeeded"
  -- and the final text.
  lib.write_wait_script()
  send("vet it")
  lib.wait("the command's permission buttons", function()
    local text = lib.text(result_buf())
    return text:find("Waiting for Confirmation", 1, true) and text:find("sh wait.sh", 1, true)
  end)
  click("Run")
  local running = lib.wait("the command's line under its call", function()
    local text = lib.text(result_buf())
    -- under the call's header, as its last line ("╰─  vetting ./pkg") or one above it ("│   ")
    return (text:find("╰─  vetting ./pkg", 1, true) or text:find("│   vetting ./pkg", 1, true)) and text
  end)
  lib.dump(client, "running-command", result_buf())
  if running:find("\27", 1, true) or running:find("[32m", 1, true) then
    lib.fail("avante shows the line's colour codes")
  end
  if running:find("Vet done.", 1, true) then
    lib.fail("the turn ended before the command was let go on")
  end
  lib.let_go()
  local done = lib.wait("the end of the command's turn", function()
    local text = lib.text(result_buf())
    return not sidebar().is_generating and text:find("Vet done.", 1, true) and text
  end)
  lib.dump(client, "command-done", result_buf())
  -- The result's output is plain text (agentls drops terminal sequences; avante showed
  -- "\u001b[32mvetting" before).
  if done:find("u001b", 1, true) or done:find("\27", 1, true) or not done:find('"output":"vetting ./pkg', 1, true) then
    lib.fail("avante does not show the command's output as plain text in its result")
  end
  if not done:find("sh wait.sh[^\n]*succeeded") then
    lib.fail("avante's sidebar does not show the command's call as succeeded")
  end

  -- 6. Cancel: the run's permission is left pending and the turn stopped with :AvanteStop.
  send("run the command")
  lib.wait("the run's permission buttons", function()
    local text = lib.text(result_buf())
    return text:find("Waiting for Confirmation", 1, true) and text:find("touch cancelled-run", 1, true)
  end)
  local asked = lib.dump(client, "run-permission", result_buf())
  lib.expect_contains("avante's sidebar at the run's permission buttons", asked, {
    "Run `touch cancelled-run`?",
    "Folder: " .. lib.ws,
    "Network: ",
    "Sandbox: ",
  })
  vim.cmd("AvanteStop")
  lib.wait("agentls to record the cancelled run", function()
    return lib.session_record():find("cancelled by the user", 1, true)
  end)
  lib.dump(client, "cancelled", result_buf())
  if lib.ws_file("cancelled-run") then
    lib.fail("the cancelled command ran")
  end

  -- 7. The attacker's case: avante's default auto_approve_tool_permissions = true accepts the
  -- plan approval by itself, in milliseconds. Only a person approves a plan: agentls takes it as
  -- the client's answer, approves nothing, and says so in avante's sidebar (its own message: the
  -- plan still awaits approval, type /approve) and in its log. The person stops the turn.
  lib.wait("the stopped turn to end", function()
    return not sidebar().is_generating
  end)
  Config.behaviour.auto_approve_tool_permissions = true
  send("/plan")
  lib.wait("plan mode again", function()
    return not sidebar().is_generating and lib.text(result_buf()):find("Mode: plan.", 1, true)
  end)
  send("plan again")
  lib.wait("agentls's word that avante's own approval approved nothing", function()
    return lib.text(result_buf()):find("approve it yourself: type /approve", 1, true)
  end)
  local shown = lib.dump(client, "auto-approved", result_buf())
  local after = shown:sub((select(2, shown:find("plan again", 1, true)) or #shown) + 1)
  if not after:find("answered by the client in %d+ ms %(allow_once%), faster than a person decides: the plan is not approved and still awaits approval") then
    lib.fail("avante's sidebar does not say that the client's own approval of the plan approved nothing")
  end
  lib.wait("agentls's log to name the client's own answer", function()
    return (lib.read(lib.artifacts .. "/agentls.log") or ""):find("answered by the client in %d+ ms %(allow_once%)")
  end)
  if (lib.ws_file("plans/again.plan") or ""):find("status: approved", 1, true) then
    lib.fail("avante's own approval approved plans/again.plan")
  end
  vim.cmd("AvanteStop")
  lib.wait("the stopped turn to end", function()
    return not sidebar().is_generating
  end)
  if (lib.ws_file("plans/again.plan") or ""):find("status: approved", 1, true) then
    lib.fail("plans/again.plan was approved although only avante answered")
  end
end)
