// The chat header's model picker: agent/listModels's list and the current
// session's model for the mode in view. Pure.

import type { Mode, ModelList } from './protocol';

/** One option of the picker. */
export interface ModelOption {
  id: string;
  label: string;
  selected: boolean;
}

/** What the header's picker shows for a mode: the options (the current model first when the list lacks it) and its tooltip. */
export interface ModelPicker {
  mode: Mode;
  current: string;
  options: ModelOption[];
  tooltip: string;
}

/** The picker for the mode in view; null when the server offers no model. */
export function modelPicker(list: ModelList | null, mode: Mode): ModelPicker | null {
  if (!list) return null;
  const current = mode === 'plan' ? list.current.plan : list.current.build;
  const ids = list.models.map((m) => m.id);
  if (current && !ids.includes(current)) ids.unshift(current);
  if (ids.length === 0) return null;
  const options = ids.map((id) => ({ id, label: id, selected: id === current }));
  const tooltip = `Model for ${mode.toUpperCase()} mode: ${current || 'the configured one'}\n(PLAN: ${list.current.plan || '—'} · BUILD: ${list.current.build || '—'})`;
  return { mode, current, options, tooltip };
}
