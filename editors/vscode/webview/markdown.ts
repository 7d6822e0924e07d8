// Markdown rendering for the chat: markdown-it with raw HTML disabled (the
// model's text can never inject markup), links kept to http(s)/file, code
// highlighted by highlight.js (a few languages, bundled).

import MarkdownIt from 'markdown-it';
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import diff from 'highlight.js/lib/languages/diff';
import go from 'highlight.js/lib/languages/go';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import markdown from 'highlight.js/lib/languages/markdown';
import python from 'highlight.js/lib/languages/python';
import rust from 'highlight.js/lib/languages/rust';
import typescript from 'highlight.js/lib/languages/typescript';
import yaml from 'highlight.js/lib/languages/yaml';

for (const [name, lang] of Object.entries({ bash, diff, go, javascript, json, markdown, python, rust, typescript, yaml })) {
  hljs.registerLanguage(name, lang);
}
hljs.registerAliases(['sh', 'shell'], { languageName: 'bash' });
hljs.registerAliases(['js'], { languageName: 'javascript' });
hljs.registerAliases(['ts'], { languageName: 'typescript' });
hljs.registerAliases(['yml'], { languageName: 'yaml' });

const md: MarkdownIt = new MarkdownIt({
  html: false,
  linkify: true,
  breaks: false,
  highlight(code: string, lang: string): string {
    const data = lang ? ` data-lang="${md.utils.escapeHtml(lang)}"` : '';
    if (lang && hljs.getLanguage(lang)) {
      return `<pre class="hljs"${data}><code>${hljs.highlight(code, { language: lang, ignoreIllegals: true }).value}</code></pre>`;
    }
    return `<pre class="hljs"${data}><code>${md.utils.escapeHtml(code)}</code></pre>`;
  },
});
// Tables scroll sideways in their own box instead of squeezing to a word per line.
md.renderer.rules.table_open = () => '<div class="table-wrap"><table>\n';
md.renderer.rules.table_close = () => '</table></div>\n';
md.validateLink = (url: string) => /^(https?:|file:|#)/i.test(url.trim()) || !/^[a-z][a-z0-9+.-]*:/i.test(url.trim());

/** Renders markdown to sanitised HTML. */
export function renderMarkdown(text: string): string {
  return md.render(text);
}

// A plan in its approval is rendered so that every word the builder will read shows: a link
// reference definition (`[//]: # "…"`, which markdown renders as nothing) stays as its text, an
// image as its text, a link shows where it leads after its label when the two differ and its
// title, a code fence the words of its info string after the language, and a table with a row of
// more cells than its header (markdown drops the extra ones) is shown as its source text.
const planMd: MarkdownIt = new MarkdownIt({ html: false, linkify: true, breaks: false, highlight: md.options.highlight });
planMd.disable(['reference', 'image']);
planMd.validateLink = md.validateLink;
planMd.renderer.rules.table_open = md.renderer.rules.table_open;
planMd.renderer.rules.table_close = md.renderer.rules.table_close;
planMd.renderer.rules.link_close = (tokens, idx, options, _env, self) => {
  let open = idx - 1;
  while (open >= 0 && tokens[open].type !== 'link_open') open--;
  const href = open >= 0 ? (tokens[open].attrGet('href') ?? '') : '';
  const title = open >= 0 ? (tokens[open].attrGet('title') ?? '') : '';
  const label = tokens.slice(open + 1, idx).map((t) => t.content).join('').trim();
  const target = href && label !== href && label !== href.replace(/^mailto:/, '') ? href : '';
  const parts = [target, title ? JSON.stringify(title) : ''].filter((p) => p !== '');
  const shown = parts.length ? ` <span class="link-target">(${planMd.utils.escapeHtml(parts.join(' '))})</span>` : '';
  return self.renderToken(tokens, idx, options) + shown;
};
const fence = planMd.renderer.rules.fence!;
planMd.renderer.rules.fence = (tokens, idx, options, env, self) => {
  const info = planMd.utils.unescapeAll(tokens[idx].info).trim();
  const html = fence(tokens, idx, options, env, self);
  return /\s/.test(info) ? `<div class="fence-info">${planMd.utils.escapeHtml(info)}</div>${html}` : html;
};
planMd.core.ruler.after('block', 'plan_table_cells', (state) => {
  const lines = state.src.split('\n');
  const out: typeof state.tokens = [];
  for (let i = 0; i < state.tokens.length; i++) {
    const open = state.tokens[i];
    let close = i;
    if (open.type === 'table_open') while (state.tokens[close].type !== 'table_close') close++;
    const table = state.tokens.slice(i, close + 1);
    if (open.type !== 'table_open' || !open.map || !dropsCells(table, lines)) {
      out.push(...table);
    } else {
      const text = new state.Token('fence', 'code', 0);
      text.content = lines.slice(open.map[0], open.map[1]).join('\n') + '\n';
      text.markup = '```';
      text.info = '';
      text.map = open.map;
      text.block = true;
      text.level = open.level;
      out.push(text);
    }
    i = close;
  }
  state.tokens = out;
});

/** Whether markdown-it dropped cells of a table's row: the row's source line has more cells than it shows. */
function dropsCells(table: { type: string; map: [number, number] | null }[], lines: string[]): boolean {
  for (let i = 0; i < table.length; i++) {
    const tr = table[i];
    if (tr.type !== 'tr_open' || !tr.map) continue;
    let shown = 0;
    for (let j = i + 1; j < table.length && table[j].type !== 'tr_close'; j++) {
      if (table[j].type === 'td_open' || table[j].type === 'th_open') shown++;
    }
    if (sourceCells(lines[tr.map[0]] ?? '') > shown) return true;
  }
  return false;
}

/** The cells of a table row's source line as markdown-it splits it (unescaped pipes; a leading and a trailing one open and close the row), after any blockquote markers. */
function sourceCells(line: string): number {
  const row = line.replace(/^\s*(>\s?)*/, '').trim();
  let pipes = 0;
  for (let i = 0; i < row.length; i++) if (row[i] === '|' && row[i - 1] !== '\\') pipes++;
  let cells = pipes + 1;
  if (row.startsWith('|')) cells--;
  if (row.endsWith('|') && !row.endsWith('\\|') && row.length > 1) cells--;
  return cells;
}

/** Renders a plan for its approval: markdown, with nothing of its text rendered away. */
export function renderPlanMarkdown(text: string): string {
  return planMd.render(text);
}
