-- agentls.plain_line: one line of untrusted text (a running command's newest output line, an MCP
-- server's progress) made safe to show as plain text in the chat: terminal sequences and other
-- control characters dropped, invalid UTF-8 shown as `?`, one line, and cut to a display width
-- without splitting a character (a wide one that would cross the edge goes whole).
local M = {}

--- The most bytes kept of a line (the server sends at most 200; anything longer is cut first).
M.max_bytes = 1024

-- The byte length of the valid UTF-8 character at s[i] (1–4), or nil for an invalid byte.
local function char_len(s, i)
  local c = s:byte(i)
  local n
  if c < 0x80 then
    return 1
  elseif c >= 0xC2 and c <= 0xDF then
    n = 2
  elseif c >= 0xE0 and c <= 0xEF then
    n = 3
  elseif c >= 0xF0 and c <= 0xF4 then
    n = 4
  else
    return nil
  end
  for k = 1, n - 1 do
    local b = s:byte(i + k)
    if not b or b < 0x80 or b > 0xBF then
      return nil
    end
  end
  local b2 = s:byte(i + 1)
  if (c == 0xE0 and b2 < 0xA0) or (c == 0xED and b2 > 0x9F) or (c == 0xF0 and b2 < 0x90) or (c == 0xF4 and b2 > 0x8F) then
    return nil -- overlong, a surrogate, past U+10FFFF
  end
  return n
end

-- Whether the character ch is a control character (C0, DEL, C1).
local function control(ch)
  local c = ch:byte(1)
  return c < 0x20 or c == 0x7F or (c == 0xC2 and ch:byte(2) < 0xA0)
end

--- The line as shown: terminal sequences (CSI, OSC) and control characters dropped, a tab a
--- space, invalid bytes `?`, the newest non-blank part when it holds line breaks, spaces
--- trimmed, at most max_bytes (then ending in `…`).
---@param s any
---@return string
function M.clean(s)
  if type(s) ~= 'string' then
    return ''
  end
  s = s:sub(1, M.max_bytes * 4)
  s = s:gsub('\27%].-\7', ''):gsub('\27%].-\27\\', ''):gsub('\27%[[0-9;:?<=>]*[ -/]*[@-~]', ''):gsub('\27[@-_]', '')
  local last = ''
  for part in (s .. '\n'):gmatch('([^\r\n]*)[\r\n]') do
    if vim.trim(part) ~= '' then
      last = part
    end
  end
  local out, n, i = {}, 0, 1
  while i <= #last do
    local len = char_len(last, i)
    local ch = len and last:sub(i, i + len - 1) or '?'
    i = i + (len or 1)
    if ch == '\t' then
      ch = ' '
    elseif control(ch) then
      ch = ''
    end
    if n + #ch > M.max_bytes then
      table.insert(out, '…')
      break
    end
    table.insert(out, ch)
    n = n + #ch
  end
  return vim.trim(table.concat(out))
end

--- Text `s` (clean: valid UTF-8, no control characters) cut to at most `width` display cells,
--- ending in `…` when cut; a character is never split and a wide one that would cross the edge
--- is left out whole.
---@param s string
---@param width integer
---@return string
function M.cut(s, width)
  if vim.api.nvim_strwidth(s) <= width then
    return s
  end
  local room = width - vim.api.nvim_strwidth('…')
  if room < 0 then
    return ''
  end
  local out, w = {}, 0
  for ch in s:gmatch('[%z\1-\127\194-\244][\128-\191]*') do
    local cw = vim.api.nvim_strwidth(ch)
    if w + cw > room then
      break
    end
    table.insert(out, ch)
    w = w + cw
  end
  return table.concat(out) .. '…'
end

return M
