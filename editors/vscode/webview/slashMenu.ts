// The composer's slash-command completion: typing "/" at the start of the
// prompt lists the commands of agent/listCommands (the agent's built-ins and
// the user's .agentls/commands); ↑/↓ move, Tab or Enter complete, Escape
// closes. The server runs the command when the prompt is sent.

import type { CommandInfo } from '../src/protocol';
import { h } from './dom';

/**
 * The word being completed: the text after a leading "/" up to the end,
 * while it has no blank (null otherwise, and for "//", the literal slash).
 */
export function slashWord(text: string): string | null {
  const m = /^\s*\/([^\s/]*)$/.exec(text);
  return m ? m[1] : null;
}

/** The commands whose name starts with word (case-insensitive), in order. */
export function matchCommands(commands: readonly CommandInfo[], word: string): CommandInfo[] {
  const w = word.toLowerCase();
  return commands.filter((c) => c.name.toLowerCase().startsWith(w));
}

/** The prompt text once c is chosen: "/name " (the argument follows). */
export function completion(c: CommandInfo): string {
  return `/${c.name} `;
}

/** The list shown above the prompt box. */
export class SlashMenu {
  readonly el = h('ul', { class: 'slash-menu', role: 'listbox', 'aria-label': 'Commands', hidden: true });
  private commands: CommandInfo[] = [];
  private shown: CommandInfo[] = [];
  private active = 0;

  constructor(private readonly pick: (text: string) => void) {}

  /** Sets the commands the menu completes from. */
  setCommands(commands: CommandInfo[]): void {
    this.commands = commands;
  }

  get open(): boolean {
    return !this.el.hidden;
  }

  /** Shows the commands matching the prompt's text, or hides the menu. */
  update(text: string): void {
    const word = slashWord(text);
    this.shown = word === null ? [] : matchCommands(this.commands, word);
    this.active = Math.min(this.active, Math.max(0, this.shown.length - 1));
    this.el.hidden = this.shown.length === 0;
    this.el.replaceChildren(
      ...this.shown.map((c, i) => {
        const li = h(
          'li',
          { class: `slash-item${i === this.active ? ' active' : ''}`, role: 'option', 'aria-selected': String(i === this.active), 'data-command': c.name },
          h('span', { class: 'slash-name' }, `/${c.name}`),
          c.hint ? h('span', { class: 'slash-hint' }, ` ${c.hint}`) : null,
          h('span', { class: 'slash-desc' }, ` ${c.description}`),
        );
        li.addEventListener('mousedown', (e) => {
          e.preventDefault(); // keep the focus in the prompt box
          this.choose(i);
        });
        return li;
      }),
    );
  }

  /** Hides the menu. */
  close(): void {
    this.el.hidden = true;
    this.shown = [];
    this.active = 0;
  }

  /** Handles a key while the menu is open; true when it used the key. */
  key(e: KeyboardEvent): boolean {
    if (!this.open) return false;
    switch (e.key) {
      case 'ArrowDown':
      case 'ArrowUp': {
        const n = this.shown.length;
        this.active = (this.active + (e.key === 'ArrowDown' ? 1 : n - 1)) % n;
        for (const [i, li] of [...this.el.children].entries()) {
          li.classList.toggle('active', i === this.active);
          li.setAttribute('aria-selected', String(i === this.active));
        }
        return true;
      }
      case 'Tab':
      case 'Enter':
        if (e.shiftKey) return false;
        this.choose(this.active);
        return true;
      case 'Escape':
        this.close();
        return true;
    }
    return false;
  }

  private choose(i: number): void {
    const c = this.shown[i];
    this.close();
    if (c) this.pick(completion(c));
  }
}
