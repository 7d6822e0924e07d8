package intel

import (
	"context"
	"reflect"
	"time"
)

// Settle timings (docs/language-intel.md): poll every PollEvery until nothing
// changed for QuietFor, at most the budget (lsp.settle_ms).
const (
	PollEvery = 100 * time.Millisecond
	QuietFor  = 200 * time.Millisecond
	// DefaultBudget is lsp.settle_ms's default.
	DefaultBudget = 1500 * time.Millisecond
)

// Budget is lsp.settle_ms (ms) as a duration: DefaultBudget when unset.
func Budget(ms int) time.Duration {
	if ms <= 0 {
		return DefaultBudget
	}
	return time.Duration(ms) * time.Millisecond
}

// Settle polls src for the diagnostics of paths until they stop changing:
// every PollEvery, until the snapshot is the same (and not Pending) for
// QuietFor, or budget ran out. settled is false when the budget ran out
// first; the snapshot is then the last one read. A failed poll or ctx's end
// is returned as an error.
func Settle(ctx context.Context, src Source, paths []string, budget time.Duration) (snap Snapshot, settled bool, err error) {
	if budget <= 0 {
		budget = DefaultBudget
	}
	// The first poll may start a language server: the budget counts from
	// its answer.
	snap, err = src.Diagnostics(ctx, paths)
	if err != nil {
		return snap, false, err
	}
	// Every later poll ends with the budget too (an editor that stops
	// answering holds the edit no longer than that).
	pctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	deadline := time.NewTimer(budget)
	defer deadline.Stop()
	tick := time.NewTicker(PollEvery)
	defer tick.Stop()
	stableSince := time.Now()
	for {
		if !snap.Pending && time.Since(stableSince) >= QuietFor {
			return snap, true, nil
		}
		select {
		case <-ctx.Done():
			return snap, false, ctx.Err()
		case <-deadline.C:
			return snap, false, nil
		case <-tick.C:
		}
		next, err := src.Diagnostics(pctx, paths)
		if err != nil {
			if ctx.Err() == nil && pctx.Err() != nil {
				return snap, false, nil // the budget ran out during the poll
			}
			return snap, false, err
		}
		if next.Pending || !reflect.DeepEqual(next.Files, snap.Files) {
			stableSince = time.Now()
		}
		snap = next
	}
}
