-- Review of the agent's edits in Neovim (docs/review.md), as :Agentls subcommands:
--
--   :Agentls diff         each file the session's last turn changed, in a tab: the file beside
--                         its checkpoint (:diffsplit); in the checkpoint's window `ku` undoes the
--                         file (a code rewind of it) and `kk` keeps it (closes the tab)
--   :Agentls review on|off  review each BUILD edit before it applies (agent/setReview)
--
-- :Agentls rewind is the server's /rewind command (the code before the last turn).
local protocol = require('agentls.protocol')

local M = {}

local notify, failed = require('agentls.notify').notify, require('agentls.notify').failed

--- Runs `args` when it is one of this file's subcommands; true when it was.
function M.dispatch(st, args)
  local name, rest = (args or ''):match('^/?(%S+)%s*(.-)%s*$')
  if name == 'diff' then
    M.diff(st)
    return true
  elseif name == 'review' and (rest == 'on' or rest == 'off' or rest == 'edits') then
    -- only with its own arguments: a project command named review stays the server's
    M.review(st, rest)
    return true
  end
  return false
end

--- :Agentls review on|off
function M.review(st, arg)
  local review = ({ on = 'edits', edits = 'edits', off = 'off' })[arg or '']
  if not review then
    return notify('usage: :Agentls review on|off', vim.log.levels.WARN)
  end
  if not st.session then
    return notify('no session yet: :AgentChat starts one', vim.log.levels.WARN)
  end
  st:request(protocol.methods.setReview, { sessionId = st.session.sessionId, review = review }, function(err, res)
    if not failed(err, 'review') then
      st.session.review = res.review
      notify(res.review == 'edits' and 'review of edits: on (each BUILD edit is asked first)' or 'review of edits: off')
    end
  end)
end

-- The id of the session's last user message (its turn's checkpoint), then cb(id).
local function last_turn(st, cb)
  st:request(protocol.methods.loadSession, { sessionId = st.session.sessionId }, function(err, s)
    if failed(err, 'load session') then
      return
    end
    local id
    for _, m in ipairs(s.messages or {}) do
      if m.role == 'user' and m.id and m.id ~= vim.NIL then
        id = m.id
      end
    end
    if not id then
      return notify('nothing to diff: this session has no turn yet')
    end
    cb(id)
  end)
end

-- Opens a tab with `path` beside its checkpoint text, diffed; ku / kk in the checkpoint's window.
local function open_diff(st, msg_id, f, text)
  local abs = f.path:sub(1, 1) == '/' and f.path or (st.root .. '/' .. f.path)
  vim.cmd('tabnew ' .. vim.fn.fnameescape(abs))
  local file_win = vim.api.nvim_get_current_win()
  local ft = vim.bo.filetype
  vim.cmd('diffthis')
  vim.cmd('leftabove vnew')
  local b = vim.api.nvim_get_current_buf()
  vim.bo[b].buftype = 'nofile'
  vim.bo[b].bufhidden = 'wipe'
  vim.bo[b].swapfile = false
  local lines = vim.split(text, '\n', { plain = true })
  if lines[#lines] == '' then
    table.remove(lines)
  end
  vim.api.nvim_buf_set_lines(b, 0, -1, false, lines)
  vim.bo[b].modifiable = false
  if ft ~= '' then
    vim.bo[b].filetype = ft
  end
  pcall(vim.api.nvim_buf_set_name, b, 'agentls-checkpoint://' .. f.path)
  vim.cmd('diffthis')
  local tab = vim.api.nvim_get_current_tabpage()
  local function close()
    if vim.api.nvim_tabpage_is_valid(tab) then
      vim.api.nvim_set_current_tabpage(tab)
      vim.cmd('diffoff!')
      vim.cmd('tabclose')
    end
  end
  vim.keymap.set('n', 'kk', close, { buffer = b, desc = 'agentls: keep this change' })
  vim.keymap.set('n', 'ku', function()
    st:request(protocol.methods.rewind, { sessionId = st.session.sessionId, toMessageId = msg_id, what = 'code', paths = { f.path } }, function(err, res)
      if failed(err, 'undo ' .. f.path) then
        return
      end
      if #(res.conflicts or {}) > 0 then
        notify(f.path .. ' was changed by someone else: left as it is', vim.log.levels.WARN)
      else
        notify('undone: ' .. f.path)
      end
      require('agentls.reload').unmodified()
      close()
    end)
  end, { buffer = b, desc = 'agentls: undo this file (back to before the turn)' })
  vim.api.nvim_set_current_win(file_win)
end

--- :Agentls diff
function M.diff(st)
  if not st.session then
    return notify('no session yet: :AgentChat starts one', vim.log.levels.WARN)
  end
  last_turn(st, function(msg_id)
    local sid = st.session.sessionId
    st:request(protocol.methods.changedFiles, { sessionId = sid, messageId = msg_id }, function(err, res)
      if failed(err, 'changed files') then
        return
      end
      local files = res.files or {}
      if #files == 0 then
        return notify('the last turn changed no file')
      end
      for _, f in ipairs(files) do
        st:request(protocol.methods.checkpointFile, { sessionId = sid, messageId = msg_id, path = f.path }, function(e, cp)
          if failed(e, 'checkpoint of ' .. f.path) then
            return
          end
          local text = (cp.text ~= nil and cp.text ~= vim.NIL) and cp.text or ''
          open_diff(st, msg_id, f, text)
        end)
      end
      notify(string.format('%d file(s) changed in the last turn: ku undoes a file, kk keeps it', #files))
    end)
  end)
end

return M
