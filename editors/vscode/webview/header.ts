// The chat header's basics: the model picker (the session's model for the
// mode in view: agent/listModels, agent/setModel) and the History button
// (every chat with its title and date). They post the user's choice; the
// extension does the rest (src/basicsFeature.ts).

import type { FromWebview } from '../src/messages';
import { modelPicker } from '../src/models';
import type { Mode, ModelList } from '../src/protocol';
import { h, icon } from './dom';

type Post = (m: FromWebview) => void;

/** The picker and the history button; update() redraws the picker for a mode. */
export function headerBasics(post: Post): { picker: HTMLSelectElement; history: HTMLButtonElement; update(models: ModelList | null, mode: Mode): void } {
  const picker = h('select', { class: 'model-picker', 'aria-label': 'Model', title: 'Model', hidden: true });
  const history = h('button', { type: 'button', class: 'icon-btn history', title: 'Chat history (titles and dates)', 'aria-label': 'Chat history' }, icon('history'));
  picker.addEventListener('change', () => post({ type: 'setModel', model: picker.value }));
  history.addEventListener('click', () => post({ type: 'history' }));
  let shown = '';
  return {
    picker,
    history,
    update(models, mode) {
      const p = modelPicker(models, mode);
      picker.hidden = !p;
      if (!p) return;
      const key = JSON.stringify(p);
      if (key === shown) return; // keeps an open dropdown open
      shown = key;
      picker.replaceChildren(...p.options.map((o) => h('option', { value: o.id, selected: o.selected }, o.label)));
      picker.value = p.current;
      picker.title = p.tooltip;
      picker.dataset.mode = mode;
    },
  };
}
