// Package expect is the expectation core of agentls's end-to-end test
// harnesses (server/internal/lsptest for the LSP face, acp/internal/acptest
// for the ACP face): named conditions on what a harness has seen so far,
// each judged Met, Unmet (wait for more) or Unmeetable (fail at once),
// combinators (OnceMet, Not, AnyOf, AllOf), one bounded wait that
// re-judges them whenever the harness's state changes, and the state both
// harnesses judge (Transcript: the messages and the prompt calls).
//
// Expectations are judged on a state that only grows (messages received,
// calls returned), so a Met message expectation stays Met; Not relies on
// that.
package expect

import (
	"fmt"
	"strings"
)

// Verdict is an expectation's judgement of the state so far.
type Verdict int

const (
	// Met: the expectation holds.
	Met Verdict = iota
	// Unmet: not yet; the next change may meet it.
	Unmet
	// Unmeetable: it can no longer be met; the wait fails at once.
	Unmeetable
)

func (v Verdict) String() string {
	switch v {
	case Met:
		return "met"
	case Unmet:
		return "unmet"
	case Unmeetable:
		return "unmeetable"
	}
	return fmt.Sprintf("Verdict(%d)", int(v))
}

// Expectation is a named condition on a harness's state S.
type Expectation[S any] struct {
	// Description says what is expected, for failure messages.
	Description string
	// Check judges the state.
	Check func(S) Verdict
}

// OnceMet is met as soon as every one of musts is met, and unmeetable as
// soon as pre is met (or unmeetable) while one of musts is not, or one of
// musts is unmeetable: "once the turn ended, the chunk must have arrived".
// Unlike gopls's OnceMet it does not wait for pre when musts are met.
func OnceMet[S any](pre Expectation[S], musts ...Expectation[S]) Expectation[S] {
	all := AllOf(musts...)
	return Expectation[S]{
		Description: fmt.Sprintf("once %s: %s", pre.Description, descriptions(musts, "; ")),
		Check: func(s S) Verdict {
			switch all.Check(s) {
			case Met:
				return Met
			case Unmeetable:
				return Unmeetable
			}
			if pre.Check(s) != Unmet {
				return Unmeetable
			}
			return Unmet
		},
	}
}

// Not is the negative expectation: met while e is not met, and unmeetable
// once e is met (the state only grows: what arrived stays). Awaited with
// an expectation that ends the wait ("the turn ended"), it says what must
// not happen before: AllOf(TurnEnded, Not(Received("x"))) fails at once
// when x arrives.
func Not[S any](e Expectation[S]) Expectation[S] {
	return Expectation[S]{
		Description: "not " + e.Description,
		Check: func(s S) Verdict {
			if e.Check(s) == Met {
				return Unmeetable
			}
			return Met
		},
	}
}

// AllOf is met when every one of es is met, and unmeetable when one of
// them is.
func AllOf[S any](es ...Expectation[S]) Expectation[S] {
	return Expectation[S]{Description: "all of (" + descriptions(es, "; ") + ")", Check: fold(es, Unmeetable, Met)}
}

// AnyOf is met when one of es is met, and unmeetable when every one of
// them is (an empty AnyOf can never be met).
func AnyOf[S any](es ...Expectation[S]) Expectation[S] {
	return Expectation[S]{Description: "any of (" + descriptions(es, "; ") + ")", Check: fold(es, Met, Unmeetable)}
}

// fold judges es together: decisive as soon as one of them is, Unmet if
// one is unmet, else settled.
func fold[S any](es []Expectation[S], decisive, settled Verdict) func(S) Verdict {
	return func(s S) Verdict {
		v := settled
		for _, e := range es {
			switch e.Check(s) {
			case decisive:
				return decisive
			case Unmet:
				v = Unmet
			}
		}
		return v
	}
}

func descriptions[S any](es []Expectation[S], sep string) string {
	names := make([]string, 0, len(es))
	for _, e := range es {
		names = append(names, e.Description)
	}
	return strings.Join(names, sep)
}

// Seen is met once an item of the state's list (its messages, say) for
// which match holds is there.
func Seen[S, T any](desc string, list func(S) []T, match func(T) bool) Expectation[S] {
	return SeenTimes(desc, 1, list, match)
}

// SeenTimes is met once at least n items of the state's list for which
// match holds are there.
func SeenTimes[S, T any](desc string, n int, list func(S) []T, match func(T) bool) Expectation[S] {
	return Expectation[S]{Description: desc, Check: func(s S) Verdict {
		c := 0
		for _, item := range list(s) {
			if match(item) {
				c++
			}
		}
		if c >= n {
			return Met
		}
		return Unmet
	}}
}

// TurnEnded is a harness's "the turn ended": met once the state has
// prompt calls (of method) for session sid ("" for any) and every one of
// them returned.
func TurnEnded[S, T any](method, sid string, calls func(S) []T, sessionOf func(T) string, returned func(T) bool) Expectation[S] {
	desc := fmt.Sprintf("the turn ended (%s returned)", method)
	if sid != "" {
		desc = fmt.Sprintf("the turn of session %s ended (%s returned)", sid, method)
	}
	return AllDone(desc, calls, func(c T) bool { return sid == "" || sessionOf(c) == sid }, returned)
}

// AllDone is met once the state's list has items for which mine holds
// and done holds for every one of them: "every prompt of this session
// returned".
func AllDone[S, T any](desc string, list func(S) []T, mine, done func(T) bool) Expectation[S] {
	return Expectation[S]{Description: desc, Check: func(s S) Verdict {
		n := 0
		for _, item := range list(s) {
			if !mine(item) {
				continue
			}
			if !done(item) {
				return Unmet
			}
			n++
		}
		if n == 0 {
			return Unmet
		}
		return Met
	}}
}

// ContainsAll reports whether text contains every one of subs.
func ContainsAll(text string, subs []string) bool {
	for _, s := range subs {
		if !strings.Contains(text, s) {
			return false
		}
	}
	return true
}
