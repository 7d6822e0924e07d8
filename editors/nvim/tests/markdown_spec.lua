-- Markdown in the chat buffer: treesitter highlights it where Neovim has the markdown parser
-- (0.11), Vim's markdown syntax elsewhere (0.7.2); headings, bold, inline code, fenced code
-- blocks and lists are highlighted, the markers concealed in the chat window, the text itself
-- left as plain markdown, and no false emphasis: the `_` of handlers_test.go and
-- snake_case_name is plain text while `_really_` is italic.
local t = require('runner')
local h = require('helpers')
local chat = require('agentls.chat')
local markdown = require('agentls.markdown')

local answer = table.concat({
  '## Steps',
  '',
  '- Edited handlers_test.go and snake_case_name, _really_ done.',
  '- The **bold** part and `inline code` here.',
  '',
  '```go',
  'x := my_var_name',
  '```',
  'After the block.',
  '',
}, '\n')

-- Opens a chat with the answer streamed in; returns the chat and its buffer.
local function open(conceal)
  if vim.g.syntax_on == nil then -- as a user's Neovim has it
    vim.cmd('syntax enable')
    t.cleanup(function()
      vim.cmd('syntax off')
    end)
  end
  local c = chat.new(function() end)
  local w = c:open('current', nil, conceal)
  t.cleanup(function()
    vim.api.nvim_buf_delete(c.bufnr, { force = true })
  end)
  c:user('do it')
  c:update({ sessionUpdate = 'agent_message_chunk', content = { type = 'text', text = answer } })
  c:flush()
  if c.highlighter == 'treesitter' then
    vim.treesitter.get_parser(c.bufnr, 'markdown'):parse(true)
  end
  return c, c.bufnr, w
end

-- The row (1-based) of the first line containing `s`, and the line.
local function find(b, s)
  for i, l in ipairs(vim.api.nvim_buf_get_lines(b, 0, -1, false)) do
    if l:find(s, 1, true) then
      return i, l
    end
  end
  error('not in the chat: ' .. s)
end

-- The highlight names at (row, col), both 1-based: treesitter captures (with "[conceal]" for a
-- concealed one) or syntax groups (with "[conceal]" when concealed).
local function hl(c, row, col)
  local names = {}
  if c.highlighter == 'treesitter' then
    for _, x in ipairs(vim.treesitter.get_captures_at_pos(c.bufnr, row - 1, col - 1)) do
      table.insert(names, x.capture)
      if x.metadata and x.metadata.conceal then
        table.insert(names, '[conceal]')
      end
    end
  else
    for _, id in ipairs(vim.fn.synstack(row, col)) do
      table.insert(names, vim.fn.synIDattr(id, 'name'))
    end
    if vim.fn.synconcealed(row, col)[1] == 1 then
      table.insert(names, '[conceal]')
    end
  end
  return table.concat(names, ' ')
end

-- Each engine's names for the things checked.
local want = {
  treesitter = { heading = 'markup%.heading', bold = 'markup%.strong', code = 'markup%.raw', block = 'markup%.raw%.block', list = 'markup%.list', italic = 'markup%.italic' },
  syntax = { heading = 'markdownH2', bold = 'markdownBold', code = 'markdownCode', block = 'markdownCode', list = 'markdownListMarker', italic = 'markdownItalic' },
}

t.describe('chat markdown', function()
  t.it('treesitter where the markdown parser exists, else the markdown syntax', function()
    local c = open()
    t.eq(markdown.treesitter_available() and 'treesitter' or 'syntax', c.highlighter)
    if vim.fn.has('nvim-0.11') == 1 then
      t.eq('treesitter', c.highlighter, '0.11 bundles the markdown parser')
    end
    if vim.fn.has('nvim-0.8') == 0 then
      t.eq('syntax', c.highlighter, '0.7')
    end
  end)

  t.it('headings, bold, inline code, fenced blocks and lists are highlighted; markers concealed', function()
    local c, b, w = open()
    local n = want[c.highlighter]
    t.eq(2, vim.wo[w].conceallevel, 'conceal in the chat window')
    local row, line = find(b, '## Steps')
    t.match(n.heading, hl(c, row, 4), 'heading')
    row, line = find(b, '**bold**')
    t.match(n.bold, hl(c, row, line:find('bold', 1, true)), 'bold')
    t.match('%[conceal%]', hl(c, row, line:find('**', 1, true)), 'the ** is concealed')
    t.match(n.code, hl(c, row, line:find('inline code', 1, true)), 'inline code')
    t.match('%[conceal%]', hl(c, row, line:find('`', 1, true)), 'the backtick is concealed')
    t.match(n.list, hl(c, row, 1), 'list marker')
    row = find(b, 'x := my_var_name')
    t.match(n.block, hl(c, row, 1), 'fenced code block')
    row, line = find(b, '**You:**')
    t.match(n.bold, hl(c, row, 3), "the user's label")
    t.eq('**You:** do it', line, 'the text stays plain markdown (readable with conceal off)')
  end)

  t.it('no false emphasis on _ inside words; _really_ is italic', function()
    local c, b = open()
    local n = want[c.highlighter]
    local row, line = find(b, 'handlers_test.go')
    for _, word in ipairs({ 'handlers_test.go', 'snake_case_name' }) do
      local s = line:find(word, 1, true)
      for col = s, s + #word - 1 do
        local names = hl(c, row, col)
        t.ok(not names:find('[Ii]talic') and not names:find('Error'), string.format('%s col %d: %q', word, col - s + 1, names))
      end
    end
    t.match(n.italic, hl(c, row, line:find('really', 1, true)), '_really_')
    local after = line:find(' done', 1, true)
    t.ok(not hl(c, row, after + 1):find('[Ii]talic'), 'the emphasis ends')
    if c.highlighter == 'syntax' then
      vim.bo[b].syntax = 'markdown' -- set again (a colour scheme or :syntax on reloads it)
      local col = line:find('handlers_test', 1, true) + #'handlers'
      t.eq('', hl(c, row, col), 'after the syntax is loaded again')
    end
  end)

  t.it('chat.conceal = false shows the markers', function()
    local _, _, w = open(false)
    t.eq(0, vim.wo[w].conceallevel)
  end)
end)
