// Package expect is the expectation core of agentls's end-to-end test
// harnesses (server/internal/lsptest for the LSP face, acp/internal/acptest
// for the ACP face): named conditions on what a harness has seen so far,
// each judged Met, Unmet (wait for more) or Unmeetable (fail at once),
// combinators (OnceMet, Not, AnyOf, AllOf), and one bounded wait that
// re-judges them whenever the harness's state changes.
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
	return Expectation[S]{
		Description: "all of (" + descriptions(es, "; ") + ")",
		Check: func(s S) Verdict {
			v := Met
			for _, e := range es {
				switch e.Check(s) {
				case Unmeetable:
					return Unmeetable
				case Unmet:
					v = Unmet
				}
			}
			return v
		},
	}
}

// AnyOf is met when one of es is met, and unmeetable when every one of
// them is (an empty AnyOf can never be met).
func AnyOf[S any](es ...Expectation[S]) Expectation[S] {
	return Expectation[S]{
		Description: "any of (" + descriptions(es, "; ") + ")",
		Check: func(s S) Verdict {
			v := Unmeetable
			for _, e := range es {
				switch e.Check(s) {
				case Met:
					return Met
				case Unmet:
					v = Unmet
				}
			}
			return v
		},
	}
}

func descriptions[S any](es []Expectation[S], sep string) string {
	names := make([]string, 0, len(es))
	for _, e := range es {
		names = append(names, e.Description)
	}
	return strings.Join(names, sep)
}
