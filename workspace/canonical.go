package workspace

import "github.com/agentls/agentls/internal/canon"

// Canonical is where the operating system takes path p: symlinks followed
// and `..` applied the way the kernel walks them (`outlink/../x` goes up
// from outlink's target), as far as the path exists, and the missing rest
// taken lexically. It is agentls's only path canonicaliser; see canon.Path
// for the errors (a dangling symlink, a loop, a name below a file).
func Canonical(p string) (string, error) { return canon.Path(p) }

// CanonicalBatch is Canonical over the paths of one check: its Path gives
// exactly what Canonical gives, but looks at each place once for all the
// paths (canon.Batch). It belongs to one check on one goroutine and is
// dropped when the check ends, never kept across checks.
type CanonicalBatch = canon.Batch

// NewCanonicalBatch returns an empty batch for one check.
func NewCanonicalBatch() *CanonicalBatch { return canon.NewBatch() }
