// The chat history list: each chat's title, when it last changed and its
// mode, newest first. Pure: the controller shows it in a QuickPick.

import type { Mode } from './protocol';
import { newestFirst } from './state';

/** A chat as the history lists it. */
export interface HistoryEntry {
  sessionId: string;
  /** The title, or "New chat" when it has none. */
  label: string;
  /** "PLAN · 5 min ago" */
  description: string;
  /** The date and time in full (ISO, local time is the editor's business). */
  detail: string;
  current: boolean;
}

/** "just now", "5 min ago", "3 h ago", "yesterday", "4 days ago", else the date. */
export function relativeDate(iso: string, now: Date): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return '';
  const s = Math.max(0, Math.round((now.getTime() - t) / 1000));
  if (s < 60) return 'just now';
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ago`;
  const days = Math.floor(s / 86400);
  if (days === 1) return 'yesterday';
  if (days < 7) return `${days} days ago`;
  return new Date(t).toISOString().slice(0, 10);
}

/** The history's entries, newest first. */
export function historyEntries(sessions: { sessionId: string; title: string; mode: Mode; updatedAt: string }[], current: string | undefined, now: Date): HistoryEntry[] {
  return [...sessions].sort(newestFirst).map((s) => ({
    sessionId: s.sessionId,
    label: s.title.trim() || 'New chat',
    description: [s.mode === 'build' ? 'BUILD' : 'PLAN', relativeDate(s.updatedAt, now)].filter(Boolean).join(' · '),
    detail: s.updatedAt ? new Date(Date.parse(s.updatedAt)).toLocaleString() : '',
    current: s.sessionId === current,
  }));
}
