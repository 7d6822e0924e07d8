-- flow_spec.lua: agentls in Neovim (0.7.2 and 0.11) without any plugin, started with the README's 0.7 snippet
-- (vim.lsp.start_client + buf_attach_client), the real agentls binary and the scripted model.
-- What the user sees is read from :messages (0.7.2 shows window/showMessage there).
local t = require('runner')
local person = require('person')

local files = require('testfiles')
local tmpdir, write, read = files.tmpdir, files.write, files.read

local script = [[
name: nvim plain
steps:
  - tool_calls:
      - {id: q, name: ask_user, args: {questions: [{name: env, question: "Which environment?", schema: {type: string, enum: [dev, prod]}}]}}
  - tool_calls:
      - {id: w, name: plan_write, args: {title: Greeting, path: plans/greet.plan, content: "# Goal\nSay hello.\n\n## Steps\n- [ ] Change hello.txt to say hi\n"}}
  - tool_calls:
      - {id: x, name: exit_plan_mode, args: {plan_file_path: plans/greet.plan}}
  - expect:
      tool_result_contains: {x: ['"approved":true']}
    tool_calls:
      - {id: e, name: edit, args: {path: hello.txt, old_string: hello, new_string: hi}}
  - text: "The greeting now says hi."
]]

t.describe('plain Neovim', function()
  t.it('prompts, answers, approves, edits, undoes and quits cleanly', function()
    local root = tmpdir()
    write(root .. '/hello.txt', 'hello\n')
    write(root .. '/script.yaml', script)
    vim.cmd('messages clear')
    vim.cmd('edit ' .. root .. '/hello.txt')
    local buf = vim.api.nvim_get_current_buf()

    -- The README's Neovim 0.7 snippet (plus the scripted model for the test).
    local client_id = vim.lsp.start_client({
      name = 'agentls',
      cmd = { vim.env.AGENTLS_BIN or 'agentls' },
      root_dir = root,
      init_options = { model = { provider = 'scripted', script = root .. '/script.yaml' } },
    })
    t.ok(client_id, 'start_client')
    vim.lsp.buf_attach_client(buf, client_id)
    local client = vim.lsp.get_client_by_id(client_id)
    t.cleanup(function()
      client.stop(true)
    end)
    t.wait(10000, function()
      return client.initialized
    end, 'initialize')

    -- The button question (enum) and the approval are window/showMessageRequest: an inputlist
    -- on 0.7, vim.ui.select on 0.11 (its handler runs in a coroutine there). Pick "prod", then
    -- "Accept & Build"; remember what each question said, in the inputlist's format.
    local prompts = {}
    local function wanted(title)
      return title == 'prod' or title == 'Accept & Build'
    end
    local orig = vim.fn.inputlist
    vim.fn.inputlist = function(items)
      table.insert(prompts, table.concat(items, '\n'))
      person.read_modal() -- a person reads the question (modal, as inputlist is)
      for i = 2, #items do -- the message, then "Request Actions:", "1. <action>", ...
        local n, title = items[i]:match('^(%d+)%. (.*)$')
        if n and wanted(title) then
          return tonumber(n)
        end
      end
      return 0
    end
    local orig_select = vim.ui.select
    vim.ui.select = person.answering(function(actions, opts, on_choice)
      local lines = { opts.prompt, 'Request Actions:' }
      local pick
      for i, a in ipairs(actions) do
        local title = opts.format_item and opts.format_item(a) or a.title
        table.insert(lines, string.format('%d. %s', i, title))
        if not pick and wanted(title) then
          pick = a
        end
      end
      table.insert(prompts, table.concat(lines, '\n'))
      on_choice(pick)
    end)
    t.cleanup(function()
      vim.fn.inputlist = orig
      vim.ui.select = orig_select
    end)

    local reply
    client.request('workspace/executeCommand', { command = 'agentls.prompt', arguments = { { text = 'greet better' } } }, function(err, res)
      reply = { err = err, res = res }
    end, buf)
    t.wait(10000, function()
      return reply ~= nil
    end, 'agentls.prompt reply')
    t.ok(reply.err == nil, 'agentls.prompt error: ' .. vim.inspect(reply.err))
    t.eq(true, reply.res.started)

    local ok = pcall(t.wait, 20000, function()
      return vim.fn.execute('messages'):find('The greeting now says hi.', 1, true) ~= nil
    end, 'the final message in :messages')
    if not ok then
      local chats = vim.fn.glob(root .. '/.agentls/chats/*.chat', false, true)
      error('no final message; :messages =\n' .. vim.fn.execute('messages') .. '\nchat:\n' .. (read(chats[1] or '') or ''))
    end

    local all = table.concat(prompts, '\n----\n')
    t.contains(all, 'Which environment?')
    t.contains(all, '1. [ ] Change hello.txt to say hi')
    t.contains(all, 'plans/greet.plan')
    t.contains(read(root .. '/plans/greet.plan') or '', 'status: approved')

    -- The edit is in the open buffer, undoable.
    t.eq({ 'hi' }, vim.api.nvim_buf_get_lines(buf, 0, -1, false))
    vim.api.nvim_buf_call(buf, function()
      vim.cmd('undo')
    end)
    t.eq({ 'hello' }, vim.api.nvim_buf_get_lines(buf, 0, -1, false))

    -- Code lenses run without error.
    vim.cmd('edit ' .. root .. '/plans/greet.plan')
    local plan_buf = vim.api.nvim_get_current_buf()
    vim.lsp.buf_attach_client(plan_buf, client_id)
    local lenses
    client.request('textDocument/codeLens', { textDocument = { uri = vim.uri_from_bufnr(plan_buf) } }, function(err, res)
      lenses = { err = err, res = res or {} }
    end, plan_buf)
    t.wait(5000, function()
      return lenses ~= nil
    end, 'code lenses')
    t.ok(#lenses.res > 0, 'no lenses')
    for _, l in ipairs(lenses.res) do
      t.ok(l.command and l.command.command ~= '', 'a lens without a command: ' .. vim.inspect(l))
      if l.command.command ~= 'agentls.archivePlan' then
        local done
        client.request('workspace/executeCommand', l.command, function(err)
          done = { err = err }
        end, plan_buf)
        t.wait(5000, function()
          return done ~= nil
        end, 'lens ' .. l.command.title)
        t.ok(done.err == nil, l.command.title .. ': ' .. vim.inspect(done.err))
      end
    end

    -- The server wrote the edit of the open hello.txt to disk too (this client does not save
    -- agentls's edits: docs/editors.md), so commands see it; the undo above is in the buffer only
    -- until it is written, and the file is newer than Neovim read it (a write asks first, W12 at
    -- the next check): `:edit!` takes the file as agentls wrote it.
    t.eq('hi\n', read(root .. '/hello.txt'))
    -- No hidden, unsaved buffer blocks :qa (only the edited, open hello.txt is modified).
    vim.api.nvim_buf_call(buf, function()
      vim.cmd('silent edit!')
    end)
    for _, b in ipairs(vim.api.nvim_list_bufs()) do
      t.ok(not vim.api.nvim_buf_get_option(b, 'modified'), 'modified buffer: ' .. vim.api.nvim_buf_get_name(b))
    end
  end)
end)
