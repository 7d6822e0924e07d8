package workspace

import "github.com/agentls/agentls/internal/canon"

// Canonical is where the operating system takes path p: symlinks followed
// and `..` applied the way the kernel walks them (`outlink/../x` goes up
// from outlink's target), as far as the path exists, and the missing rest
// taken lexically. It is agentls's only path canonicaliser; see canon.Path
// for the errors (a dangling symlink, a loop, a name below a file).
func Canonical(p string) (string, error) { return canon.Path(p) }
