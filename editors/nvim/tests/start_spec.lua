-- How the plugin starts the server. First the branches against stubbed vim.lsp tables (each
-- Neovim runs the others' branches this way), then the running Neovim for real against the
-- agentls binary: started at once (no file needed), exactly the files under the root attached
-- whatever their filetype, never a file outside it, and one client with vim.lsp.enable().
local t = require('runner')
local h = require('helpers')
local start = require('agentls.start')
local agentls = require('agentls')

local function cfg(root)
  return { name = 'agentls', cmd = { 'agentls' }, root_dir = root, handlers = { x = function() end } }
end

-- A scratch buffer with no name as the current one (Neovim started without a file).
local function no_file()
  vim.cmd('silent! only')
  vim.cmd('silent! %bwipeout!')
  t.eq('', vim.api.nvim_buf_get_name(0), 'no file in the current buffer')
end

local function cleanup_stub()
  t.cleanup(function()
    pcall(vim.api.nvim_del_augroup_by_name, start.augroup)
    vim.cmd('silent! %bwipeout!')
  end)
end

t.describe('start', function()
  t.it('picks the branch by feature', function()
    t.eq('start', start.strategy({ config = function() end, enable = function() end, start = function() end }))
    t.eq('start', start.strategy({ start = function() end, start_client = function() end }))
    t.eq('start_client', start.strategy({ start_client = function() end }))
    t.eq(vim.lsp.start and 'start' or 'start_client', start.strategy(vim.lsp), 'this Neovim')
  end)

  t.it('0.11+: vim.lsp.start at once without a buffer, then each file entered under the root', function()
    no_file()
    local root = h.tmpdir()
    h.write(root .. '/a.txt', 'a')
    h.write(root .. '/notes', 'no filetype')
    local other = h.tmpdir()
    h.write(other .. '/b.txt', 'b')
    local started = {}
    local lsp = {
      config = function() end,
      enable = function()
        error('setup() must not wait for vim.lsp.enable')
      end,
      start = function(c, o)
        table.insert(started, { c = c, o = o })
        return 7
      end,
    }
    cleanup_stub()
    local how, id = start.start(lsp, cfg(root))
    t.eq('start', how)
    t.eq(7, id)
    t.eq(1, #started, 'started at once')
    t.eq(false, started[1].o.attach, 'attached to no buffer')
    t.eq(root, started[1].c.root_dir, 'the root is fixed')
    vim.cmd('edit ' .. root .. '/a.txt')
    t.eq(vim.api.nvim_get_current_buf(), started[#started].o.bufnr, 'a file under the root')
    local n = #started
    vim.cmd('edit ' .. root .. '/notes')
    t.ok(#started > n, 'a file without a filetype under the root')
    t.eq(vim.api.nvim_get_current_buf(), started[#started].o.bufnr)
    t.ok(started[#started].o.reuse_client({ id = 7, name = 'agentls' }), 'our client is reused')
    n = #started
    vim.cmd('edit ' .. other .. '/b.txt')
    t.eq(n, #started, 'a file elsewhere is not attached')
  end)

  t.it('0.8 to 0.10: start_client without a file, vim.lsp.start for files under the root', function()
    no_file()
    local root = h.tmpdir()
    h.write(root .. '/a.txt', 'a')
    local started, clients = {}, 0
    local lsp = {
      start_client = function()
        clients = clients + 1
        return 5
      end,
      start = function(c, o)
        table.insert(started, { c = c, bufnr = o.bufnr })
        return 5
      end,
    }
    cleanup_stub()
    local how, id = start.start(lsp, cfg(root))
    t.eq('start', how)
    t.eq(5, id)
    t.eq(1, clients, 'started at once')
    t.eq(0, #started)
    vim.cmd('edit ' .. root .. '/a.txt')
    t.ok(#started >= 1, 'attached')
    t.eq(vim.api.nvim_get_current_buf(), started[#started].bufnr)
  end)

  t.it('0.7: start_client once, buf_attach_client per buffer under the root', function()
    local root = h.tmpdir()
    h.write(root .. '/a.txt', 'a')
    local other = h.tmpdir()
    h.write(other .. '/b.txt', 'b')
    local attached = {}
    local lsp = {
      start_client = function()
        return 3
      end,
      buf_attach_client = function(b, id)
        table.insert(attached, { b, id })
      end,
    }
    cleanup_stub()
    local how, id = start.start(lsp, cfg(root))
    t.eq('start_client', how)
    t.eq(3, id)
    vim.cmd('edit ' .. root .. '/a.txt')
    t.ok(#attached >= 1, 'attached')
    t.eq({ vim.api.nvim_get_current_buf(), 3 }, attached[#attached])
    local n = #attached
    vim.cmd('edit ' .. other .. '/b.txt')
    t.eq(n, #attached, 'a file elsewhere is not attached')
  end)

  t.it('a running client is reused: nothing else is started', function()
    no_file()
    local root = h.tmpdir()
    h.write(root .. '/a.txt', 'a')
    local calls = {}
    local lsp = {
      config = function() end,
      enable = function() end,
      start = function(_, o)
        table.insert(calls, o)
        return o.reuse_client({ id = 9, name = 'agentls' }) and 9 or 10
      end,
    }
    cleanup_stub()
    local _, id = start.start(lsp, cfg(root), 9)
    t.eq(9, id)
    t.eq(0, #calls, 'no start')
    vim.cmd('edit ' .. root .. '/a.txt')
    t.ok(#calls >= 1, 'the file attached')
    t.ok(calls[1].reuse_client({ id = 9, name = 'agentls' }), 'attached to the running client')
  end)
end)

local hello = 'steps:\n  - text: "Hello back."\n'

-- The notifications of `sent` with `method` about file `path`.
local function about(sent, method, path)
  local uri = vim.uri_from_fname(path)
  return vim.tbl_filter(function(n)
    return n.method == method and n.params and n.params.textDocument and n.params.textDocument.uri == uri
  end, sent)
end

t.describe('start for real', function()
  t.it('Neovim without a file: setup() starts the server and the first :AgentPrompt works', function()
    no_file()
    local st = h.setup({}, hello)
    t.ok(st:client(), 'a client right after setup()')
    vim.cmd('AgentPrompt hello') -- before the server answered initialize
    local r = h.turn(st)
    t.eq('end_turn', r.stopReason, 'stop reason ' .. vim.inspect(r.error))
    st.chat:buffer()
    st.chat:flush()
    t.contains(h.text(st.chat.bufnr), 'Hello back.')
  end)

  t.it('teardown() stops the server and forgets the state', function()
    local st = h.start({}, hello)
    local c = st:client()
    agentls.teardown()
    t.eq(nil, agentls.state(), 'no state after teardown')
    t.wait(10000, function()
      return vim.lsp.get_client_by_id(c.id) == nil
    end, 'the server to exit')
  end)

  t.it('a file outside the root is not attached: its text never reaches the server', function()
    no_file()
    local st, root = h.start({ ['a.txt'] = 'inside\n' }, hello)
    local outside = h.tmpdir() .. '/secret.txt'
    h.write(outside, 'outside-secret-text\n')
    local c = st:client()
    local sent = h.record_notifications(c)
    vim.cmd('edit ' .. outside)
    local b = vim.api.nvim_get_current_buf()
    t.eq('text', vim.bo[b].filetype, 'a file with a filetype')
    vim.cmd('edit ' .. root .. '/a.txt') -- an event-loop turn for anything scheduled
    t.wait(10000, function()
      return #about(sent, 'textDocument/didOpen', root .. '/a.txt') > 0
    end, 'the file under the root opened on the server')
    t.eq(false, vim.lsp.buf_is_attached(b, c.id), 'not attached')
    t.eq({}, about(sent, 'textDocument/didOpen', outside), 'no didOpen for it')
    for _, n in ipairs(sent) do
      t.ok(not vim.inspect(n.params):find('outside%-secret%-text'), 'its text in ' .. n.method)
    end
    t.eq(1, #(vim.lsp.get_clients or vim.lsp.get_active_clients)({ name = 'agentls' }), 'no other agentls client')
  end)

  t.it('a file without a filetype under the root is attached', function()
    no_file()
    local st, root = h.start({ ['NOTES'] = 'plain words\n' }, hello)
    local c = st:client()
    local sent = h.record_notifications(c)
    vim.cmd('edit ' .. root .. '/NOTES')
    local b = vim.api.nvim_get_current_buf()
    t.eq('', vim.bo[b].filetype, 'no filetype')
    t.wait(10000, function()
      return vim.lsp.buf_is_attached(b, c.id)
    end, 'attached')
    local opened = t.wait(10000, function()
      return about(sent, 'textDocument/didOpen', root .. '/NOTES')[1]
    end, 'didOpen')
    t.eq('plain words\n', opened.params.textDocument.text)
  end)

  t.it("vim.lsp.enable('agentls') and setup() share one client, in either order", function()
    if type(vim.lsp.enable) ~= 'function' then
      t.eq(0, vim.fn.has('nvim-0.11'), 'vim.lsp.enable is 0.11+')
      return
    end
    t.cleanup(function()
      vim.lsp.enable('agentls', false)
      agentls.teardown()
      local function left()
        return vim.lsp.get_clients({ name = 'agentls', _uninitialized = true })
      end
      for _, c in ipairs(left()) do
        c:stop(true)
      end
      if not vim.wait(10000, function()
        return #left() == 0
      end, 10) then
        -- Which clients stayed, and in what state: what a flake needs told.
        local seen = {}
        for _, c in ipairs(left()) do
          table.insert(
            seen,
            string.format(
              'id %d root %s initialized %s stopped %s buffers %s',
              c.id,
              tostring(c.root_dir),
              tostring(c.initialized),
              tostring(c:is_stopped()),
              vim.inspect(vim.tbl_keys(c.attached_buffers))
            )
          )
        end
        error('the clients did not exit in 10 s: ' .. table.concat(seen, '; '))
      end
      vim.cmd('silent! %bwipeout!')
    end)
    local function count()
      return #vim.lsp.get_clients({ name = 'agentls', _uninitialized = true })
    end
    -- enable first: a file's FileType starts a client; setup() then reuses it.
    no_file()
    local root = h.tmpdir()
    vim.fn.mkdir(root .. '/.git', 'p')
    h.write(root .. '/a.txt', 'a\n')
    h.write(root .. '/b.txt', 'b\n')
    vim.cmd('cd ' .. vim.fn.fnameescape(root))
    vim.lsp.enable('agentls')
    vim.cmd('edit ' .. root .. '/a.txt')
    local first = t.wait(10000, function()
      local cs = vim.lsp.get_clients({ name = 'agentls' })
      return cs[1] and cs[1].initialized and cs[1]
    end, 'the client vim.lsp.enable started')
    local st = agentls.setup({ cmd = { vim.env.AGENTLS_BIN }, root = root })
    t.eq(1, count(), 'one client after setup()')
    t.eq(first.id, st:client().id, 'setup() reused it')
    local listed
    st:request('agent/listSessions', vim.empty_dict(), function(err, res)
      listed = { err = err, res = res }
    end)
    t.wait(10000, function()
      return listed
    end, 'a request through the reused client')
    t.eq(nil, listed.err)
    vim.cmd('edit ' .. root .. '/b.txt')
    t.wait(10000, function()
      return vim.lsp.buf_is_attached(0, first.id)
    end, 'b.txt attached to it')
    t.eq(1, count(), 'still one client')

    -- setup() first: enable() and a file's FileType attach to setup()'s client.
    vim.lsp.enable('agentls', false)
    local flushed = false
    vim.schedule(function() -- what enable's FileType scheduled runs first
      flushed = true
    end)
    t.wait(1000, function()
      return flushed
    end, 'the scheduled callbacks')
    t.eq(1, count(), 'still one client')
    agentls.teardown()
    t.wait(10000, function()
      return count() == 0
    end, 'the first client to exit')
    no_file()
    st = agentls.setup({ cmd = { vim.env.AGENTLS_BIN }, root = root })
    t.wait(10000, function()
      return st.server_info
    end, 'setup() started the server')
    local id = st:client().id
    vim.lsp.enable('agentls')
    vim.cmd('edit ' .. root .. '/a.txt')
    t.wait(10000, function()
      return vim.lsp.buf_is_attached(0, id)
    end, 'a.txt attached to setup()s client')
    local outside = h.tmpdir() .. '/o.txt'
    h.write(outside, 'o\n')
    vim.cmd('edit ' .. outside)
    local ob = vim.api.nvim_get_current_buf()
    vim.cmd('edit ' .. root .. '/b.txt')
    t.wait(10000, function()
      return vim.lsp.buf_is_attached(0, id)
    end, 'b.txt attached')
    t.eq(1, count(), 'one client')
    t.eq(0, #vim.lsp.get_clients({ bufnr = ob }), 'the file outside the root has no client')
  end)
end)
