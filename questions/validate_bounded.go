package questions

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Bounds on validating one value against a question's schema. The work of
// one validation grows with the schema's expanded subschemas times the
// value's size; MaxValidationWork caps that product, so that with the
// schema limits (see CheckSchemaLimits) no validation can keep a core busy
// (the fuzz target FuzzSchemaLimits holds it to well under a second).
// ValidateBudget bounds how long a caller waits all the same.
const (
	MaxAnswerBytes    = 64 << 10        // most bytes of one answer (or button value) as JSON
	MaxValidationWork = 1 << 15         // most (expanded subschemas × value units) of one validation
	ValidateBudget    = 2 * time.Second // longest wait for one validation
	bytesPerUnit      = 64              // a value unit: one JSON value, or 64 bytes of its text
)

// errBudget is a validation that did not finish within ValidateBudget.
var errBudget = errors.New("checking it took longer than " + ValidateBudget.String() + ": give a shorter answer")

// validateBounded validates v (canonical, see canonical) against c in a
// goroutine it owns, waiting at most ValidateBudget and no longer than ctx.
// A value too large for the schema (see MaxValidationWork) is refused
// before any validation. The validator cannot be interrupted: a validation
// given up on runs to its end in the background, which the bounds keep
// short.
func validateBounded(ctx context.Context, c *compiled, v any) ([]failure, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("not checked: %w", err)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("not a JSON value: %w", err)
	}
	if len(b) > MaxAnswerBytes {
		return nil, fmt.Errorf("is %d bytes of JSON; the limit is %d", len(b), MaxAnswerBytes)
	}
	units := countValues(v) + len(b)/bytesPerUnit
	if work := c.nodes * units; work > MaxValidationWork {
		return nil, fmt.Errorf("is too large to check against this question's schema (%d values in %d bytes, for a schema of %d subschemas once its $refs are expanded): give a shorter answer", countValues(v), len(b), c.nodes)
	}
	done := make(chan []failure, 1) // buffered: the goroutine never blocks
	go func() { done <- validate(c.schema, v) }()
	timer := time.NewTimer(ValidateBudget)
	defer timer.Stop()
	select {
	case fs := <-done:
		return fs, nil
	case <-ctx.Done():
		return nil, fmt.Errorf("not checked: %w", ctx.Err())
	case <-timer.C:
		return nil, errBudget
	}
}

// countValues is the number of JSON values in v, itself included.
func countValues(v any) int {
	n := 1
	switch c := v.(type) {
	case map[string]any:
		for _, e := range c {
			n += countValues(e)
		}
	case []any:
		for _, e := range c {
			n += countValues(e)
		}
	}
	return n
}
