//go:build !unix

package statefile

// openNoFollow adds nothing here: Open checks the file with Lstat
// before opening it.
const openNoFollow = 0

// openNonBlock adds nothing here.
const openNonBlock = 0
