package workspace

import "fmt"

// ConflictError reports a change that cannot be carried onto a document that
// changed since the change was computed: both touched the same text.
type ConflictError struct {
	Rel string
}

func (e *ConflictError) Error() string {
	return fmt.Sprintf("%s changed while this edit was being made, in the same place; read it again and redo the edit", e.Rel)
}

// Rebase carries the change before→after onto current, the document's text
// now (before is what the change was computed on). It returns the text to
// write: after itself when nothing changed meanwhile, current when the
// change is there already (same=true: writing it again would be a no-op),
// or both changes merged when the region before→after replaces and the
// region before→current replaces do not touch. Touching or overlapping
// regions are a *ConflictError (rel names the document): a second diff is
// never laid on top of a first one.
func Rebase(rel, before, current, after string) (text string, same bool, err error) {
	switch {
	case current == before:
		return after, after == current, nil
	case current == after:
		return current, true, nil
	}
	// The single region each side replaced, in before's byte offsets.
	cp, cs := commonAffixes(before, current)
	ap, as := commonAffixes(before, after)
	cEnd, aEnd := len(before)-cs, len(before)-as
	cNew := current[cp : len(current)-cs]
	aNew := after[ap : len(after)-as]
	switch {
	case cEnd < ap: // current's region lies wholly before after's
		merged := before[:cp] + cNew + before[cEnd:ap] + aNew + before[aEnd:]
		return merged, merged == current, nil
	case aEnd < cp: // after's region lies wholly before current's
		merged := before[:ap] + aNew + before[aEnd:cp] + cNew + before[cEnd:]
		return merged, merged == current, nil
	}
	return "", false, &ConflictError{Rel: rel}
}
