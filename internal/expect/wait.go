package expect

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"time"
)

// Source is a harness's state now, with channels that close when it
// changes (the next message, the next returned call).
type Source[S any] func() (state S, changed []<-chan struct{})

// Failure is a wait that ended without its expectations met.
type Failure[S any] struct {
	// Why is "unmeetable", "not met within 45s", ….
	Why string
	// Expectation is the one that failed (the first unmet one on a
	// deadline).
	Expectation Expectation[S]
	// State is the state the failure was judged on.
	State S
}

func (f *Failure[S]) String() string {
	return fmt.Sprintf("expectation %s: %s", f.Why, f.Expectation.Description)
}

// Wait judges exps on the source's state, again on each change, until all
// are met (nil), one is unmeetable, the timeout passes or ctx ends (a
// Failure). It holds no lock while it waits.
func Wait[S any](ctx context.Context, timeout time.Duration, source Source[S], exps ...Expectation[S]) *Failure[S] {
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	for {
		st, changed := source()
		var unmet *Expectation[S]
		for i := range exps {
			switch exps[i].Check(st) {
			case Unmeetable:
				return &Failure[S]{Why: "unmeetable", Expectation: exps[i], State: st}
			case Unmet:
				if unmet == nil {
					unmet = &exps[i]
				}
			}
		}
		if unmet == nil {
			return nil
		}
		cases := []reflect.SelectCase{
			{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(timer.C)},
			{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(ctx.Done())},
		}
		for _, c := range changed {
			cases = append(cases, reflect.SelectCase{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(c)})
		}
		switch i, _, _ := reflect.Select(cases); i {
		case 0:
			st, _ := source()
			return &Failure[S]{Why: fmt.Sprintf("not met within %s", timeout), Expectation: *unmet, State: st}
		case 1:
			st, _ := source()
			return &Failure[S]{Why: fmt.Sprintf("not met before the test's context ended (%v)", ctx.Err()), Expectation: *unmet, State: st}
		}
	}
}

// lastShown is how many messages a failed wait shows.
const lastShown = 20

// maxShownParams caps the params shown per message.
const maxShownParams = 400

// Shown is one message as a failed wait shows it.
type Shown struct {
	// Method is the message's method ("" for a response).
	Method string
	// Kind is "notification", "request 3", "response 3".
	Kind string
	// Params are the params as sent (cut to 400 bytes when shown).
	Params []byte
}

// Report is a failed wait's message for a test: the harness's name, the
// failure (why, and the expectation), a line for each call the test made
// (calls), and the last 20 messages of the state's log (items, of what,
// each as show has it).
func Report[S, T any](harness string, f *Failure[S], calls []string, what string, items []T, show func(T) Shown) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s\n", harness, f)
	for _, c := range calls {
		fmt.Fprintf(&b, "%s\n", c)
	}
	from := max(0, len(items)-lastShown)
	fmt.Fprintf(&b, "last %d of %d %s:", len(items)-from, len(items), what)
	for i := from; i < len(items); i++ {
		m := show(items[i])
		fmt.Fprintf(&b, "\n  #%d %s (%s) %s", i+1, m.Method, m.Kind, clip(string(m.Params), maxShownParams))
	}
	return b.String()
}

// clip cuts s to at most n bytes, saying how long it was.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + fmt.Sprintf("… (%d bytes)", len(s))
}
