// The transcript follows the stream: while the user is at its end, every change
// (new text, a new row, a panel that appears or grows and takes room from the
// transcript) scrolls it to the end again, so the newest line stays in view.
// Once the user scrolls up, it stays where they put it and a "Jump to latest"
// pill appears; the pill (or scrolling back to the end) follows again.

import { h, icon } from './dom';

/** How far from the end (px) still counts as "at the end". */
export const followSlack = 24;

/** Whether a scroller's end is in view, within followSlack. */
export function atEnd(m: { scrollHeight: number; scrollTop: number; clientHeight: number }): boolean {
  return m.scrollHeight - m.scrollTop - m.clientHeight <= followSlack;
}

/** Follows a scrolling element's end; owns the "Jump to latest" pill. */
export class Follower {
  /** The pill: place it over the scroller's bottom edge. */
  readonly pill: HTMLButtonElement;
  private following = true;
  /** Where the scroller was last left (by us or the user): a scroll above it is the user going up. */
  private lastTop = 0;

  constructor(private readonly scroller: HTMLElement) {
    this.pill = h('button', { type: 'button', class: 'jump-latest', hidden: true, title: 'Jump to latest', 'aria-label': 'Jump to latest' }, icon('arrow-down'), ' Jump to latest');
    this.pill.addEventListener('click', () => this.jump());
    // A scroll event is either ours (to the end: still following) or the user's.
    scroller.addEventListener('scroll', () => this.onScroll(), { passive: true });
    // Intent to go up stops following at once, even before the position moves past the slack.
    scroller.addEventListener('wheel', (e) => {
      if (e.deltaY < 0) this.stop();
    }, { passive: true });
    scroller.addEventListener('keydown', (e) => {
      if (['PageUp', 'ArrowUp', 'Home'].includes(e.key)) this.stop();
    });
    // The scroller's own box changes when a panel appears, grows or collapses.
    if (typeof ResizeObserver !== 'undefined') new ResizeObserver(() => this.update()).observe(scroller);
    // Content: new items, streamed text, rows drawn again.
    if (typeof MutationObserver !== 'undefined') new MutationObserver(() => this.update()).observe(scroller, { childList: true, subtree: true, characterData: true });
  }

  /** Whether the transcript follows the stream. */
  get isFollowing(): boolean {
    return this.following;
  }

  /** After any change: to the end while following; else the pill shows. */
  update(): void {
    if (this.following) this.scroller.scrollTop = this.scroller.scrollHeight;
    this.lastTop = this.scroller.scrollTop;
    this.pill.hidden = this.following || atEnd(this.scroller);
  }

  /** Scrolls to the end and follows again (the pill's action; also a new prompt's). */
  jump(): void {
    this.following = true;
    this.update();
  }

  private stop(): void {
    if (this.scroller.scrollHeight > this.scroller.clientHeight) this.following = false;
  }

  // Up (by the user) stops following, at the end follows again; anything else (the content grew
  // after our last scroll, before this event) leaves it as it was.
  private onScroll(): void {
    const top = this.scroller.scrollTop;
    this.following = atEnd(this.scroller) || (this.following && top >= this.lastTop);
    this.lastTop = top;
    this.pill.hidden = this.following || atEnd(this.scroller);
  }
}
