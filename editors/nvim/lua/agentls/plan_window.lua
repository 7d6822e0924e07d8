-- agentls.plan_window: the plan of a plan-approval question on the screen while Neovim's own
-- vim.ui.select asks it. That select (an inputlist) prints the question over the bottom of the
-- screen and blocks until the choice is made, so the plan goes in a split above the current
-- window, as high as the plan and no lower than the first row the question takes.
local rows = require('agentls.wrap').rows
local ask = require('agentls.ask')

local M = {}

-- What the inputlist prints under the choices (0.7 and 0.11).
local type_number = 'Type number and <Enter> or click with the mouse (q or empty cancels): '

--- The rows at the bottom of the screen Neovim's own vim.ui.select takes to ask the first
--- question of `params` with `note` under it: the separator above the messages, the prompt's
--- lines, one per choice, and the "Type number" line.
function M.question_rows(params, note)
  local prompt, choices = ask.first_prompt(params, note)
  if not prompt then
    return 0
  end
  local cols = vim.o.columns
  return 1 + rows(vim.split(prompt, '\n', { plain = true }), cols) + choices + rows({ type_number }, cols)
end

-- The note under the question when the window shows only the plan's first `n` of `total` lines.
local function note(n, total)
  return string.format(
    'The plan above shows lines 1–%d of %d. q leaves this question open (the plan stays pending): read it all, then :AgentApprove or :AgentReject.',
    n,
    total
  )
end

--- Opens `path` in a split above the current window, sized to show the whole plan above the rows
--- the approval question of `params` takes, or as much as fits there. Returns the window and,
--- when the plan does not fit, the note to put under the question (nil when it does).
---@return integer, string?
function M.open(path, params)
  vim.cmd('aboveleft split ' .. vim.fn.fnameescape(path))
  local win = vim.api.nvim_get_current_win()
  local buf = vim.api.nvim_win_get_buf(win)
  local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
  local info = vim.fn.getwininfo(win)[1]
  local width = vim.api.nvim_win_get_width(win) - (info and info.textoff or 0)
  local need = rows(lines, width)
  local top = vim.fn.win_screenpos(win)[1]
  -- the rows above the question's; with the note when the plan does not fit without it
  local function room(n)
    return vim.o.lines - M.question_rows(params, n) - top + 1
  end
  local avail = room(nil)
  if need > avail then
    avail = room(note(#lines, #lines))
  end
  vim.api.nvim_win_set_height(win, math.max(1, math.min(need, avail)))
  vim.api.nvim_win_call(win, function()
    vim.fn.winrestview({ lnum = 1, col = 0, topline = 1 })
  end)
  local shown = math.min(vim.api.nvim_win_get_height(win), avail)
  if need <= shown then
    return win, nil
  end
  -- the buffer lines shown whole
  local n, used = 0, 0
  for _, l in ipairs(lines) do
    used = used + rows({ l }, width)
    if used > shown then
      break
    end
    n = n + 1
  end
  return win, note(n, #lines)
end

return M
