package config

import (
	"fmt"
	"strings"
)

// LoadError is a configuration that did not load: a layer failed its
// syntax or schema check, could not be read, or the layers did not merge.
// agentls sends no model request while it stands (the configuration fails
// closed: no built-in endpoint stands in for the file that failed), and
// every prompt and model check says what to fix.
type LoadError struct {
	// Problems are the errors, each located ("file:line: message").
	Problems []Diagnostic
}

// InitOptionsName is the File of initializationOptions' diagnostics.
const InitOptionsName = "initializationOptions"

// Error names the first problem with its file and line, and what to do:
// "/w/.agentls.yaml:3: model.api_key_env: … — fix the file; agentls sends
// no request to the model until it loads".
func (e *LoadError) Error() string {
	if len(e.Problems) == 0 {
		return "the configuration did not load; agentls sends no request to the model until it does"
	}
	first := e.Problems[0]
	var b strings.Builder
	b.WriteString(first.File)
	if first.Line > 0 {
		fmt.Fprintf(&b, ":%d", first.Line)
	}
	b.WriteString(": " + first.Message)
	if n := len(e.Problems) - 1; n == 1 {
		b.WriteString(" (and 1 more problem)")
	} else if n > 1 {
		fmt.Fprintf(&b, " (and %d more problems)", n)
	}
	what := "the file"
	if first.File == InitOptionsName {
		what = "the editor's initializationOptions"
	}
	fmt.Fprintf(&b, " — fix %s; agentls sends no request to the model until it loads", what)
	return b.String()
}

// LoadErrorOf is the LoadError of a configuration's diagnostics: nil when
// none of them is an error (warnings leave the layer in effect).
func LoadErrorOf(diags []Diagnostic) error {
	var errs []Diagnostic
	for _, d := range diags {
		if d.Severity == SeverityError {
			errs = append(errs, d)
		}
	}
	if len(errs) == 0 {
		return nil
	}
	return &LoadError{Problems: errs}
}
