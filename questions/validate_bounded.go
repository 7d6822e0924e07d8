package questions

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// Bounds on validating one value against a question's schema. With the
// schema limits (see CheckSchemaLimits) they bound the work of one
// validation; ValidateBudget bounds how long a caller waits for it.
const (
	MaxAnswerBytes = 64 << 10        // most bytes of one answer (or button value) as JSON
	ValidateBudget = 2 * time.Second // longest wait for one validation
)

// errBudget is a validation that did not finish within ValidateBudget.
var errBudget = errors.New("checking it took longer than " + ValidateBudget.String() + ": give a shorter answer")

// validateBounded validates v (canonical, see canonical) against s in a
// goroutine it owns, waiting at most ValidateBudget and no longer than ctx.
// The validator cannot be interrupted: a validation given up on runs to its
// end in the background, which the schema limits and MaxAnswerBytes keep
// short.
func validateBounded(ctx context.Context, s *jsonschema.Schema, v any) ([]failure, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if b, err := json.Marshal(v); err == nil && len(b) > MaxAnswerBytes {
		return nil, fmt.Errorf("is %d bytes of JSON; the limit is %d", len(b), MaxAnswerBytes)
	}
	done := make(chan []failure, 1) // buffered: the goroutine never blocks
	go func() { done <- validate(s, v) }()
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
