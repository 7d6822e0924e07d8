//go:build !unix

package sandbox

import (
	"context"
	"os"
)

// privateTempRoot is where the commands' private TMPDIRs are made: the
// system's temporary folder (no locks to tell a process that is gone here).
func privateTempRoot() (string, error) { return os.TempDir(), nil }

// SweepStaleTemp does nothing here: there is no per-process folder to
// sweep.
func SweepStaleTemp(context.Context) {}
