-- agentls.question_window: shows a whole question in a window at the top of the screen while
-- a vim.ui.select / vim.ui.input replacement asks it. Floating pickers (dressing, telescope,
-- fzf-lua, snacks, mini.pick) show a prompt on one line cut at the screen's width, so what a
-- permission grants (the commands a plan approval allows, the values a trusted `.agentls.yaml`
-- applies) would be off screen when the person picks. Neovim's own vim.ui.select and
-- vim.ui.input print every line of the prompt: no window then.
local rows = require('agentls.wrap').rows
local M = {}

--- Whether `fn` is Neovim's own vim.ui function (runtime/lua/vim/ui.lua) rather than a
--- replacement.
---@param fn function?
---@return boolean
function M.builtin(fn)
  if type(fn) ~= 'function' then
    return false
  end
  local info = debug.getinfo(fn, 'S')
  local src = (info and info.source or ''):gsub('\\', '/')
  return src:find('vim/ui.lua', 1, true) ~= nil
end

--- Whether `prompt` fits on the one line a floating picker shows.
---@param prompt string
---@return boolean
function M.fits(prompt)
  return not prompt:find('\n', 1, true) and vim.fn.strdisplaywidth(prompt) <= vim.o.columns - 4
end

---@class agentls.QuestionWindow
---@field close fun() closes the window (and the split holding the rest), once

--- Opens `prompt` (every line, wrapped) in a float across the top of the screen, above a
--- floating picker, at most half the screen high; what does not fit goes whole into a split
--- below, which the float's last line names. Laid out again when the screen is resized
--- (VimResized: an autocmd the window owns, removed when it closes), moving to the split form
--- when the question no longer fits. Returns the handle that closes both.
---@param prompt string
---@return agentls.QuestionWindow
function M.open(prompt)
  local all = vim.split(prompt, '\n', { plain = true })
  local buf = vim.api.nvim_create_buf(false, true)
  vim.bo[buf].bufhidden = 'wipe'
  local win, split_win
  local function valid(w)
    return w and vim.api.nvim_win_is_valid(w)
  end
  -- The whole question in a split at the bottom (once), the current window staying.
  local function open_split()
    local split_buf = vim.api.nvim_create_buf(false, true)
    vim.api.nvim_buf_set_lines(split_buf, 0, -1, false, all)
    vim.bo[split_buf].modifiable = false
    vim.bo[split_buf].bufhidden = 'wipe'
    local cur = vim.api.nvim_get_current_win()
    vim.cmd('botright split')
    split_win = vim.api.nvim_get_current_win()
    vim.api.nvim_win_set_buf(split_win, split_buf)
    vim.wo[split_win].wrap = true
    pcall(vim.api.nvim_buf_set_name, split_buf, 'agentls://question/' .. split_buf)
    vim.api.nvim_set_current_win(cur)
  end
  local function layout()
    local width = math.max(20, vim.o.columns - 2)
    local max = math.max(3, math.floor((vim.o.lines - vim.o.cmdheight - 2) / 2))
    local lines = all
    if rows(all, width) > max then
      if not valid(split_win) then
        open_split()
      end
      -- The float keeps the beginning; its last row says where the rest is.
      local kept, used = {}, 0
      for _, l in ipairs(all) do
        local r = rows({ l }, width)
        if used + r > max - 1 then
          break
        end
        table.insert(kept, l)
        used = used + r
      end
      table.insert(kept, string.format('… %d more lines: the whole question is in the window below', #all - #kept))
      lines = kept
    end
    vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
    local cfg = { relative = 'editor', row = 0, col = 0, width = width, height = math.min(max, rows(lines, width)) }
    if valid(win) then
      vim.api.nvim_win_set_config(win, cfg)
      return
    end
    cfg.style = 'minimal'
    cfg.border = 'single'
    cfg.focusable = false
    -- Above the pickers' floats (50 by default), under the command line's.
    cfg.zindex = 150
    win = vim.api.nvim_open_win(buf, false, cfg)
    vim.wo[win].wrap = true
  end
  layout()
  local group = vim.api.nvim_create_augroup('agentls.question_window.' .. buf, { clear = true })
  vim.api.nvim_create_autocmd('VimResized', {
    group = group,
    callback = function()
      if not valid(win) then
        pcall(vim.api.nvim_del_augroup_by_id, group)
        return
      end
      pcall(layout)
    end,
  })
  local closed = false
  return {
    close = function()
      if closed then
        return
      end
      closed = true
      pcall(vim.api.nvim_del_augroup_by_id, group)
      for _, w in ipairs({ win, split_win }) do
        if valid(w) then
          pcall(vim.api.nvim_win_close, w, true)
        end
      end
    end,
  }
end

return M
