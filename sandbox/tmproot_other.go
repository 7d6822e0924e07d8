//go:build !unix

package sandbox

import "os"

// privateTempRoot is where the commands' private TMPDIRs are made: the
// system's temporary folder (no locks to tell a process that is gone here).
func privateTempRoot() (string, error) { return os.TempDir(), nil }
