// The setup card: shown while no model can answer (agent/checkModel failed),
// it says what is missing in the user's words with a button for each fix,
// and the result of the last "Test connection".

import type { SetupState } from '../src/firstRun';
import { setupActionLabels } from '../src/firstRun';
import type { FromWebview } from '../src/messages';
import { h, icon } from './dom';

type Post = (m: FromWebview) => void;

/** Fills slot with the setup card (empty when a model answers and no test result is left to show). */
export function renderSetup(slot: HTMLElement, setup: SetupState | null, connection: { ok: boolean; text: string } | null, post: Post): void {
  const result = connection ? h('div', { class: `connection-result ${connection.ok ? 'ok' : 'failed'}`, role: 'status' }, icon(connection.ok ? 'pass' : 'error'), ` ${connection.text}`) : null;
  if (!setup) {
    slot.replaceChildren(...(result && connection?.ok ? [h('div', { class: 'setup-card ready' }, result)] : []));
    return;
  }
  const buttons = setup.actions.map((a, i) => {
    const b = h('button', { type: 'button', class: `btn ${i === 0 ? 'btn-primary' : 'btn-secondary'} setup-${a}` }, setupActionLabels[a]);
    b.addEventListener('click', () => post({ type: 'setupAction', action: a }));
    return b;
  });
  slot.replaceChildren(
    h('section', { class: 'setup-card', 'aria-label': 'Set up a model' },
      h('div', { class: 'setup-title' }, icon('warning'), ` ${setup.title}`),
      h('div', { class: 'setup-detail' }, setup.detail),
      setup.technical ? h('details', { class: 'setup-technical' }, h('summary', {}, 'Details'), h('pre', {}, setup.technical)) : null,
      h('div', { class: 'buttons' }, ...buttons),
      result,
    ),
  );
}
