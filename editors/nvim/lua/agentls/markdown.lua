-- agentls.markdown: how the chat buffer shows markdown. Where Neovim has treesitter and its
-- markdown parser (bundled since 0.10; 0.11 here), the buffer is highlighted by treesitter
-- (markdown with its markdown_inline injection). Elsewhere (0.7) by Vim's markdown syntax, with
-- its false emphasis removed: a `_` inside a word (handlers_test.go, snake_case_name) is plain
-- text. Both conceal the markers (`**`, backticks, fences) in a window with 'conceallevel' 2;
-- the text itself stays plain markdown, readable with conceal off.
local M = {}

--- Whether treesitter can highlight markdown here (0.9+ API and the markdown parser).
---@return boolean
function M.treesitter_available()
  local ts = vim.treesitter
  if not (ts and ts.start and ts.language and ts.language.register and ts.language.add and ts.language.inspect) then
    return false
  end
  pcall(ts.language.add, 'markdown')
  return (pcall(ts.language.inspect, 'markdown'))
end

-- Two fixes to Vim's markdown syntax for the chat. It marks every `_` inside a word
-- (handlers_test.go) as an error; in the chat that is a file or identifier name: plain text
-- (italic `_words_` and everything else stay). And its inline code (one backtick, not a fence)
-- conceals its backticks like bold conceals its `**`.
local function fix_syntax(b)
  vim.api.nvim_buf_call(b, function()
    vim.cmd('silent! syntax clear markdownError')
    if vim.b.current_syntax == 'markdown' then
      vim.cmd([[silent! syntax region markdownCode matchgroup=markdownCodeDelimiter start=/`\@<!``\@!/ end=/`/ keepend contains=markdownLineStart concealends]])
    end
  end)
end

--- Highlights buffer `b` as markdown; returns the engine used: 'treesitter' or 'syntax'.
---@param b integer
---@return 'treesitter'|'syntax'
function M.attach(b)
  if M.treesitter_available() then
    vim.treesitter.language.register('markdown', vim.bo[b].filetype)
    if pcall(vim.treesitter.start, b, 'markdown') then
      return 'treesitter'
    end
  end
  vim.bo[b].syntax = 'markdown'
  fix_syntax(b)
  vim.api.nvim_create_autocmd('Syntax', {
    group = vim.api.nvim_create_augroup('agentls.markdown.' .. b, { clear = true }),
    buffer = b,
    callback = function()
      fix_syntax(b)
    end,
  })
  return 'syntax'
end

--- Sets up window `w` showing the chat: markers concealed (conceallevel 2, shown again on the
--- cursor's line) unless `conceal` is false.
---@param w integer
---@param conceal boolean|nil
function M.window(w, conceal)
  vim.wo[w].conceallevel = conceal == false and 0 or 2
  vim.wo[w].concealcursor = ''
end

return M
