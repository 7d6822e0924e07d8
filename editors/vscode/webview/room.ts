// Room for a pending decision (a plan approval, a permission request). The
// transcript keeps 42 % of the view while the card's fixed parts fit in the
// rest; when they do not (a short side bar, a plan that grants several
// commands, a long command), the transcript gives up room down to 20 %, so the
// card shows what it decides on and its buttons without scrolling as a whole:
// an approval's head, Open plan, what approving grants, the feedback box and
// Accept & Build / Keep Planning (the rendered plan is the part that shrinks);
// a permission's whole box (command, folder, network, sandbox) and its
// buttons. Meanwhile the prompt box is one line (body.deciding, chat.css). A
// plain question keeps the 42 %: a long form scrolls inside itself.

/** The transcript's share of the view when nothing is pending, and its least share for a decision. */
export const transcriptShare = { usual: 0.42, deciding: 0.2 };

function outer(el: Element): number {
  const s = getComputedStyle(el);
  return el.getBoundingClientRect().height + parseFloat(s.marginTop) + parseFloat(s.marginBottom);
}

/**
 * The height a decision card needs (border box): all its content, less an approval's rendered plan
 * (the part that gives up height, down to nothing, under its Open plan link), with a permission's
 * box whole (it scrolls inside itself only when even the least transcript leaves too little).
 */
export function cardNeed(card: HTMLElement): number {
  const s = getComputedStyle(card);
  const plan = card.querySelector<HTMLElement>(':scope > .approval-plan > .plan-rendered');
  const permission = card.querySelector<HTMLElement>(':scope > .permission');
  const borders = parseFloat(s.borderTopWidth) + parseFloat(s.borderBottomWidth);
  const hidden = permission ? permission.scrollHeight - permission.clientHeight : 0;
  return Math.ceil(card.scrollHeight + borders - (plan?.getBoundingClientRect().height ?? 0) + hidden);
}

/** Whether a card is a decision that gets more room (an approval or a permission request, unfolded). */
export function isDecision(card: HTMLElement | null): card is HTMLElement {
  return !!card && card.matches('.question-bar.approval, .question-bar.permission-request') && !card.classList.contains('collapsed');
}

/**
 * Sets the transcript's least height for the card shown now: 42 % of the view, lowered (to no less
 * than 20 %) by what the card's fixed parts need beyond the room it has.
 */
export function fitDecision(app: HTMLElement, transcript: HTMLElement, card: HTMLElement | null): void {
  const view = app.clientHeight;
  const usual = view * transcriptShare.usual;
  if (!isDecision(card) || card.getClientRects().length === 0) {
    transcript.style.minHeight = '';
    document.body.classList.remove('deciding');
    return;
  }
  document.body.classList.add('deciding');
  // The transcript and the card share what the other parts leave: the transcript grows into what the card does not take.
  const shared = transcript.getBoundingClientRect().height + outer(card);
  const cardMargins = outer(card) - card.getBoundingClientRect().height;
  const floor = Math.min(usual, Math.max(view * transcriptShare.deciding, shared - cardMargins - cardNeed(card)));
  transcript.style.minHeight = `${Math.floor(floor)}px`;
}

/** Keeps fitDecision's answer up to date: the view resized, the card's parts changed (an error shown, the feedback grew). */
export class DecisionRoom {
  private card: HTMLElement | null = null;
  /** The card's parts (not an approval's plan block, which takes what is left). */
  private readonly parts: ResizeObserver | undefined;
  /** The card's class: folding or unfolding it changes its need. */
  private readonly folding: MutationObserver | undefined;

  constructor(private readonly app: HTMLElement, private readonly transcript: HTMLElement) {
    const fit = () => fitDecision(this.app, this.transcript, this.card);
    if (typeof ResizeObserver !== 'undefined') {
      this.parts = new ResizeObserver(fit);
      new ResizeObserver(fit).observe(app);
    }
    if (typeof MutationObserver !== 'undefined') this.folding = new MutationObserver(fit);
  }

  /** The card now shown in the question slot (null: none). */
  show(card: HTMLElement | null): void {
    this.parts?.disconnect();
    this.folding?.disconnect();
    this.card = card;
    if (card) {
      for (const part of card.children) if (!part.classList.contains('approval-plan')) this.parts?.observe(part);
      this.folding?.observe(card, { attributes: true, attributeFilter: ['class'] });
    }
    fitDecision(this.app, this.transcript, card);
  }
}
