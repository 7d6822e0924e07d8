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

// A plan in its approval is rendered so that every line the builder will read shows: a link
// reference definition (`[//]: # "…"`, which markdown renders as nothing) stays as its text, an
// image as its text, and a link shows where it leads after its label when the two differ.
const planMd: MarkdownIt = new MarkdownIt({ html: false, linkify: true, breaks: false, highlight: md.options.highlight });
planMd.disable(['reference', 'image']);
planMd.validateLink = md.validateLink;
planMd.renderer.rules.table_open = md.renderer.rules.table_open;
planMd.renderer.rules.table_close = md.renderer.rules.table_close;
planMd.renderer.rules.link_close = (tokens, idx, options, _env, self) => {
  let open = idx - 1;
  while (open >= 0 && tokens[open].type !== 'link_open') open--;
  const href = open >= 0 ? (tokens[open].attrGet('href') ?? '') : '';
  const label = tokens.slice(open + 1, idx).map((t) => t.content).join('');
  const shown = href && label.trim() !== href && label.trim() !== href.replace(/^mailto:/, '') ? ` <span class="link-target">(${planMd.utils.escapeHtml(href)})</span>` : '';
  return self.renderToken(tokens, idx, options) + shown;
};

/** Renders a plan for its approval: markdown, with nothing of its text rendered away. */
export function renderPlanMarkdown(text: string): string {
  return planMd.render(text);
}
