-- What the ACP client sessions share: the throw-away workspace and the scripted model's
-- transcript, bounded waits, dumps of the client's chat buffer, the verdict line, and avante's
-- sidebar driven as a person does (M.avante).
--
-- The runner (./run) starts Neovim with HOME, XDG_CONFIG_HOME, XDG_STATE_HOME and
-- XDG_DATA_HOME pointing into a throw-away folder, the agentls under test first on PATH, and:
--   AGENTLS_ACP_ROOT      the throw-away folder (ws/ is the workspace, Neovim's cwd)
--   AGENTLS_ACP_ARTIFACTS where the dumps go
--   AGENTLS_ACP_CLIENTS   the unpacked clients (scripts/install-clients acp)
--   AGENTLS_ACP_VERDICT   the file the verdict line is written to
local M = {}

M.root = assert(os.getenv("AGENTLS_ACP_ROOT"), "AGENTLS_ACP_ROOT is not set: run editors/nvim/tests/acp-clients/run")
M.artifacts = assert(os.getenv("AGENTLS_ACP_ARTIFACTS"))
M.clients = assert(os.getenv("AGENTLS_ACP_CLIENTS"))
M.ws = M.root .. "/ws"
M.verdict_file = assert(os.getenv("AGENTLS_ACP_VERDICT"))

--- The default deadline of one wait (ms): generous for a loaded 2-core CI machine.
M.WAIT_MS = 30000

--- The plan the scripted model writes, and the commands its approval grants.
M.plan = "# Goal\nUppercase alpha in app.txt.\n\n## Steps\n- [ ] Replace alpha with ALPHA in app.txt\n"
M.grants = { "go test ./...", "git diff *" }

--- The scripted model's transcript for one session: a plan written through the client, the
--- approval (which the test answers with the client's own Accept), an edit in BUILD, then a
--- `run` whose permission the test leaves pending and cancels; then (avante only) a second plan
--- whose approval the client's auto-approve gives by itself: it approves nothing (the plan still
--- awaits approval, agentls says so), and the test stops the turn.
function M.script()
  local plan = vim.json.encode(M.plan)
  local grants = vim.json.encode(M.grants)
  return table.concat({
    "name: acp-client",
    "steps:",
    "  - text: \"Planning first.\"",
    "    tool_calls:",
    "      - {id: p1, name: plan_write, args: {title: Shout, path: plans/shout.plan, content: " .. plan .. "}}",
    "  - expect:",
    "      tool_result_contains: {p1: ['\"success\":true']}",
    "    tool_calls:",
    "      - {id: x1, name: exit_plan_mode, args: {plan_file_path: plans/shout.plan, allowed_commands: " .. grants .. "}}",
    "  - expect:",
    "      tool_result_contains: {x1: ['\"approved\":true']}",
    "      system_contains: [\"You are in BUILD mode\"]",
    "    tool_calls:",
    "      - {id: e1, name: edit, args: {path: app.txt, old_string: alpha, new_string: ALPHA}}",
    "  - expect:",
    "      tool_result_contains: {e1: ['\"success\":true']}",
    "    text: \"Built: app.txt now says ALPHA.\"",
    "  - tool_calls:",
    "      - {id: r1, name: run, args: {command: \"touch cancelled-run\"}}",
    -- avante only: back in plan mode (/plan), a client that approves by itself.
    "  - tool_calls:",
    "      - {id: p2, name: plan_write, args: {title: Again, path: plans/again.plan, content: \"# Goal\\nAgain.\\n\"}}",
    "  - tool_calls:",
    "      - {id: x2, name: exit_plan_mode, args: {plan_file_path: plans/again.plan}}",
    "",
  }, "\n")
end

local function write(path, text)
  vim.fn.mkdir(vim.fs.dirname(path), "p")
  local f = assert(io.open(path, "w"))
  f:write(text)
  f:close()
end

local function read(path)
  local f = io.open(path, "r")
  if not f then
    return nil
  end
  local s = f:read("*a")
  f:close()
  return s
end
M.read = read

--- Lays out the workspace (app.txt; the user command .agentls/commands/hello.md) and the user's
--- agentls config.yaml (the scripted model) under $XDG_CONFIG_HOME, where agentls reads it.
function M.setup_workspace()
  write(M.ws .. "/app.txt", "alpha\n")
  write(M.ws .. "/.agentls/commands/hello.md", "---\ndescription: Say hello\n---\nSay hello to $ARGUMENTS\n")
  write(M.root .. "/script.yaml", M.script())
  write(
    assert(os.getenv("XDG_CONFIG_HOME")) .. "/agentls/config.yaml",
    "model:\n  provider: scripted\n  script: " .. vim.json.encode(M.root .. "/script.yaml") .. "\n"
  )
  vim.cmd.cd(M.ws)
end

--- A failure that ends the session with its reason.
local Failure = {}

--- Fails the session: `reason` goes on the verdict line.
function M.fail(reason)
  error(setmetatable({ reason = reason }, Failure), 0)
end

--- How long the person reads a question before answering it: agentls takes an allowing answer
--- given within 300 ms of its question as the client's own, not a person's (it runs the one call
--- at most, saves no "always" rule, trusts nothing and approves no plan: docs/guard.md, "How fast
--- an answer came").
M.PERSON_READS_MS = 500

--- Waits as long as the person reads the question on the screen before answering it.
function M.read_as_a_person()
  vim.wait(M.PERSON_READS_MS)
end

--- Waits (bounded, re-checking as Neovim's event loop runs) until check() returns a value other
--- than nil/false, and returns it; fails naming `what` after ms.
function M.wait(what, check, ms)
  local value
  local ok = vim.wait(ms or M.WAIT_MS, function()
    local good, v = pcall(check)
    if good and v then
      value = v
      return true
    end
    return false
  end, 20)
  if not ok then
    M.fail("timed out waiting for " .. what)
  end
  return value
end

--- The lines of buffer bufnr as one string.
function M.text(bufnr)
  if not bufnr or not vim.api.nvim_buf_is_valid(bufnr) then
    return ""
  end
  return table.concat(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false), "\n")
end

--- The buffer dumped when the session fails (the client's chat, once it is open).
M.watched = nil

local dumps = 0
--- Writes buffer bufnr to the artifacts folder as NN-<client>-<moment>.txt and returns its text.
function M.dump(client, moment, bufnr)
  dumps = dumps + 1
  local text = M.text(bufnr)
  write(string.format("%s/%02d-%s-%s.txt", M.artifacts, dumps, client, moment), text .. "\n")
  return text
end

--- Writes the verdict line ("<client>: PASS" or "<client>: FAIL <reason>").
function M.verdict(client, ok, reason)
  local line = client .. ": " .. (ok and "PASS" or ("FAIL " .. (reason or "")))
  line = line:gsub("\n", " ")
  write(M.verdict_file, line .. "\n")
end

--- Runs body() after Neovim has started, writes the verdict and quits (exit status 0 on PASS).
function M.run(client, body)
  vim.api.nvim_create_autocmd("VimEnter", {
    once = true,
    callback = function()
      vim.schedule(function()
        local ok, err = xpcall(body, function(e)
          if getmetatable(e) == Failure then
            return e
          end
          return { reason = "error: " .. tostring(e) .. "\n" .. debug.traceback() }
        end)
        if ok then
          M.verdict(client, true)
        else
          M.verdict(client, false, err.reason)
          write(M.artifacts .. "/" .. client .. "-failure.txt", err.reason .. "\n")
          pcall(M.dump, client, "at-failure", M.watched)
        end
        vim.cmd(ok and "qall!" or "cquit! 1")
      end)
    end,
  })
end

--- Fails unless `text` contains every string of `wants` (named by `where`).
function M.expect_contains(where, text, wants)
  for _, want in ipairs(wants) do
    if not text:find(want, 1, true) then
      M.fail(string.format("%s lacks %q", where, want))
    end
  end
end

--- agentls's record of the workspace's sessions (.agentls/chats/*.chat), as one string.
function M.session_record()
  local out = {}
  for _, f in ipairs(vim.fn.glob(M.ws .. "/.agentls/chats/*.chat", false, true)) do
    table.insert(out, read(f) or "")
  end
  return table.concat(out, "\n")
end

--- Runs the client's configuration exactly as docs/acp.md shows it: the first ```lua block
--- under the heading `heading`.
function M.setup_from_docs(heading)
  local here = vim.fs.dirname(debug.getinfo(1, "S").source:sub(2))
  local docs = assert(read(here .. "/../../../../docs/acp.md"), "docs/acp.md not found")
  local at = docs:find("\n" .. heading .. "\n", 1, true)
  local code = at and docs:match("```lua\n(.-)\n```", at)
  if not code then
    M.fail("docs/acp.md has no lua block under " .. heading)
  end
  local chunk, err = load(code, "docs/acp.md " .. heading)
  if not chunk then
    M.fail("docs/acp.md's configuration does not load: " .. err)
  end
  chunk()
end

--- The file's content in the workspace.
function M.ws_file(name)
  return read(M.ws .. "/" .. name)
end

--- Wraps M.script so that `steps` (transcript lines) come right before the cancelled run (r1):
--- a client's own steps. Call it before M.setup_workspace().
function M.steps_before_run(steps)
  local shared = M.script
  M.script = function()
    local s = shared()
    local at = assert(s:find("  - tool_calls:\n      - {id: r1,", 1, true), "the run step in lib.script()")
    return s:sub(1, at - 1) .. table.concat(steps, "\n") .. "\n" .. s:sub(at)
  end
end

--- The running-command step's transcript (for M.steps_before_run): `sh wait.sh`, which prints a
--- coloured line, waits (at most 60 s, polling) for go.flag, which the test creates once it saw
--- the line (M.let_go), prints another line and ends; then the text "Vet done.".
M.wait_steps = {
  "  - tool_calls:",
  '      - {id: v1, name: run, args: {command: "sh wait.sh"}}',
  "  - expect:",
  "      tool_result_contains: {v1: ['\"exit_code\":0', 'vet finished']}",
  '    text: "Vet done."',
}

--- Writes wait.sh (M.wait_steps's command) into the workspace.
function M.write_wait_script()
  write(M.ws .. "/wait.sh", "printf '\\033[32mvetting ./pkg\\033[0m\\n'\n"
    .. "i=0; while [ ! -e go.flag ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done\n"
    .. "echo vet finished\n")
end

--- Lets wait.sh go on.
function M.let_go()
  write(M.ws .. "/go.flag", "go\n")
end

--- Keeps text in the artifacts folder as <client>-<name>.txt (a screen with what a dump lacks).
function M.keep(client, name, text)
  write(string.format("%s/%s-%s.txt", M.artifacts, client, name), text .. "\n")
end


--- avante.nvim, as both avante sessions (avante.lua, avante_always.lua) drive it: loaded with
--- its dependencies and the stand-ins for what is not built here (avante-stub/lua/*.lua say what
--- each does), on a screen wide enough for its sidebar; then its sidebar driven as a person
--- does.
M.avante = {}

--- Puts avante.nvim and its dependencies on the runtimepath and sizes the screen.
function M.avante.load()
  vim.opt.runtimepath:prepend(M.clients .. "/plenary.nvim")
  vim.opt.runtimepath:prepend(M.clients .. "/nui.nvim")
  vim.opt.runtimepath:prepend(M.clients .. "/avante.nvim")
  -- avante's Rust template module is not built here, and nvim-cmp is not installed: stand-ins.
  vim.opt.runtimepath:append(vim.fs.dirname(debug.getinfo(1, "S").source:sub(2)) .. "/avante-stub")
  vim.o.swapfile = false
  vim.o.columns = 200
  vim.o.lines = 60
end

--- Opens avante's sidebar (:AvanteAsk) and waits for the ACP session it connects with: its id
--- saved in the sidebar's chat history. The client is saved before session/new is answered; a
--- message sent in between makes avante create a second session, and its later messages then go
--- to whichever session's id was saved last (the first turn's "Always allow" in one session, the
--- second turn in the other).
function M.avante.open()
  vim.cmd("AvanteAsk")
  M.wait("avante's ACP session", function()
    local s = M.avante.sidebar()
    return s and s.acp_client ~= nil and s.chat_history and (s.chat_history.acp_session_id or "") ~= ""
  end)
end

--- avante's sidebar (nil before it opened).
function M.avante.sidebar()
  return require("avante").get()
end

--- Presses lhs in window winid as a person's key press (the buffer's own mappings apply).
function M.avante.press(winid, lhs)
  vim.api.nvim_set_current_win(winid)
  vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes(lhs, true, false, true), "mx", false)
end

--- Types text into the sidebar's input and sends it with the submit key.
function M.avante.send(text)
  local sb = M.wait("avante's sidebar to take a message", function()
    local s = M.avante.sidebar()
    local input = s and not s.is_generating and s.containers.input
    return input and vim.api.nvim_win_is_valid(input.winid) and s
  end)
  vim.api.nvim_buf_set_lines(sb.containers.input.bufnr, 0, -1, false, vim.split(text, "\n"))
  vim.cmd("stopinsert")
  M.avante.press(sb.containers.input.winid, "<CR>")
end

--- The sidebar's result buffer (the chat), nil before it opened.
function M.avante.result_buf()
  local s = M.avante.sidebar()
  return s and s.containers.result and s.containers.result.bufnr
end

--- Clicks avante's inline button named `name` as a person does, having read its question: the
--- cursor on it, then the button line's <CR>.
function M.avante.click(name)
  local sb = M.avante.sidebar()
  local buf, win = sb.containers.result.bufnr, sb.containers.result.winid
  local at = M.wait("the " .. name .. " button", function()
    for i, line in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do
      local c = line:find(name, 1, true)
      if c and line:find("Waiting for Confirmation", 1, true) then
        return { i, c }
      end
    end
  end)
  M.read_as_a_person()
  vim.api.nvim_set_current_win(win)
  vim.api.nvim_win_set_cursor(win, { at[1], at[2] - 1 })
  vim.api.nvim_exec_autocmds("CursorMoved", { buffer = buf })
  M.avante.press(win, "<CR>")
end

return M
